"""A league into the install from its JSON backup, as a new league.

Importing creates a *new* league owned by the importing user, in one transaction: the
whole file is checked first — its shape against the declared schema
(:mod:`scorekeeper.services.backup.schema`), then what it means: references between its
players and games, and every game's hands through the engine — and any problem is a
:class:`games.RuleError` naming the place in the file, with nothing written. The results
a file carries are ignored and computed again, so a file can never smuggle in a score its
hands do not add up to. Exporting the imported league gives the same file again, ids
aside.

Who the usernames in a file resolve to is a question of trust. A file is only a claim,
so for an ordinary user the only account it can name is the user's own (their player is
reused, their hands stay theirs); other usernames are dropped. A *trusted* import (the
``import_league`` command run by the server's administrator, or a superuser) resolves
every username to the account of that name, so a restored league keeps who recorded
what; with ``create_users`` the accounts a file names that do not exist yet are created,
without a usable password (set one with ``manage.py changepassword``). Every player the
import creates belongs to (``created_by``) the importing user.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import get_ruleset
from scorekeeper.models import (
    Game,
    GameStatus,
    Guest,
    Hand,
    HandAction,
    HandRevision,
    Invite,
    InviteRole,
    League,
    Membership,
    Player,
    Seat,
)
from scorekeeper.ratings.rebuild import league_stats_rebuild
from scorekeeper.selectors.games import seat_results
from scorekeeper.services.backup.checking import (
    GameIn,
    LeagueIn,
    MemberIn,
    PlayerIn,
    league_import_check,
    remap_player_ids,
)
from scorekeeper.services.backup.seasons import first_day, write_seasons


class _Accounts:
    """Resolves the usernames of a file to accounts of this install (see the module
    docstring for who may resolve what)."""

    def __init__(self, owner: User, *, trusted: bool, create_users: bool) -> None:
        self.owner = owner
        self.trusted = trusted
        self.create_users = create_users
        self.created: list[str] = []
        self._cache: dict[str, User | None] = {owner.get_username(): owner}

    def get(self, username: str | None) -> User | None:
        if username is None:
            return None
        if username not in self._cache:
            self._cache[username] = self._resolve(username) if self.trusted else None
        return self._cache[username]

    def _resolve(self, username: str) -> User | None:
        found = User.objects.filter(username=username).first()
        if found is None and self.create_users:
            found = User.objects.create_user(username, password=None)
            self.created.append(username)
        return found


@dataclass(frozen=True)
class ImportResult:
    league: League
    players_created: int
    players_reused: int
    games: int
    hands: int
    users_created: tuple[str, ...]


def league_import_json(
    data: object, *, owner: User, trusted: bool = False, create_users: bool = False
) -> League:
    """Create a new league owned by ``owner`` from a :func:`league_export_json` file.
    See :func:`league_import` for the details."""
    return league_import(data, owner=owner, trusted=trusted, create_users=create_users).league


def league_import(
    data: object, *, owner: User, trusted: bool = False, create_users: bool = False
) -> ImportResult:
    """Import a league export in one transaction; :class:`RuleError` (nothing written)
    if anything in the file is off.

    Players, the league, its members, games, hands and revisions are recreated with the
    file's timestamps; player ids inside the hands are translated to the new ids. The
    results are then computed again by the engine and the league's statistics rebuilt.
    ``trusted``/``create_users``: see the module docstring."""
    checked = league_import_check(data)
    return league_import_checked(checked, owner=owner, trusted=trusted, create_users=create_users)


def league_import_checked(
    checked: LeagueIn, *, owner: User, trusted: bool = False, create_users: bool = False
) -> ImportResult:
    """Write a file :func:`league_import_check` accepted, in one transaction (see
    :func:`league_import`)."""
    now = timezone.now()
    with transaction.atomic():
        accounts = _Accounts(owner, trusted=trusted, create_users=create_users)
        ids, reused = _write_players(checked.players, accounts, now)
        league = League.objects.create(
            name=checked.name, owner=owner, created_at=checked.created_at or now
        )
        members = {m.player: m for m in checked.members}
        # Everyone seated at a game is a member (who records games), as game_create
        # makes them.
        for game in checked.games:
            for pid in game.players:
                members.setdefault(pid, MemberIn(pid, game.created_at or now))
        Membership.objects.bulk_create(
            Membership(league=league, player_id=ids[pid], joined_at=m.joined_at or now, role=m.role)
            for pid, m in members.items()
        )
        hands = _write_games(league, checked.games, ids, accounts, now)
        league_stats_rebuild(league)
        write_seasons(
            league,
            checked.seasons,
            ids,
            first_day(checked.created_at, [g.created_at for g in checked.games], now),
            now,
        )
    return ImportResult(
        league=league,
        players_created=len(ids) - reused,
        players_reused=reused,
        games=len(checked.games),
        hands=hands,
        users_created=tuple(accounts.created),
    )


def _write_players(
    players: Sequence[PlayerIn], accounts: _Accounts, now: datetime
) -> tuple[dict[int, int], int]:
    """Create the file's players; a player linked to an account that already has a
    player is that player. Returns file id -> new id, and how many were reused."""
    ids: dict[int, int] = {}
    reused = 0
    to_create: list[tuple[int, Player]] = []
    for p in players:
        user = accounts.get(p.user)
        existing = Player.objects.filter(user=user).first() if user is not None else None
        if existing is not None:
            ids[p.id] = existing.pk
            reused += 1
            continue
        to_create.append(
            (
                p.id,
                Player(
                    name=p.name,
                    user=user,
                    created_by=accounts.owner,
                    created_at=p.created_at or now,
                    colour=p.colour,
                    hidden=p.hidden,
                ),
            )
        )
    created = Player.objects.bulk_create([player for _, player in to_create])
    for (file_id, _), player in zip(to_create, created, strict=True):
        ids[file_id] = player.pk
    return ids, reused


def _write_guests(
    games: Sequence[GameIn],
    created: Sequence[Game],
    revisions: Sequence[HandRevision],
    owner: User,
    now: datetime,
) -> None:
    """The guests the history names, so that it still says "Maya (guest)": each game's
    guests hang on one score link made for the import, revoked at once (it lets nobody
    in; it exists because a guest is somebody who joined by a link)."""
    by_game: dict[int, list[tuple[HandRevision, str]]] = {}
    revision_iter = iter(revisions)
    for g, game in zip(games, created, strict=True):
        for rev in g.revisions:
            row = next(revision_iter)
            if rev.guest:
                by_game.setdefault(game.pk, []).append((row, rev.guest))
    if not by_game:
        return
    invites = Invite.objects.bulk_create(
        Invite(
            game_id=game_id,
            role=InviteRole.SCORE,
            token=secrets.token_urlsafe(24),
            created_by=owner,
            created_at=now,
            revoked_at=now,
        )
        for game_id in by_game
    )
    guests: dict[tuple[int, str], Guest] = {}
    for game_id, invite in zip(by_game, invites, strict=True):
        for _, name in by_game[game_id]:
            guests.setdefault((game_id, name), Guest(invite=invite, name=name))
    Guest.objects.bulk_create(guests.values())
    for game_id, named in by_game.items():
        for row, name in named:
            row.guest = guests[(game_id, name)]


def _corrected_hands(game: GameIn) -> list[int]:
    """The game's hands marked corrected, read from its history as the sheet keeps the
    mark: a hand whose last correction came after its last undo (a hand undone and
    entered again is new)."""
    last: dict[int, str] = {}
    for rev in sorted(game.revisions, key=lambda r: r.revision):
        if rev.action in (HandAction.CORRECTED, HandAction.UNDONE):
            last[rev.number] = rev.action
    return sorted(
        hand.number for hand in game.hands if last.get(hand.number) == HandAction.CORRECTED
    )


def _write_games(
    league: League,
    games: Sequence[GameIn],
    ids: Mapping[int, int],
    accounts: _Accounts,
    now: datetime,
) -> int:
    """Create the games with their seats, hands and revisions, and store what the engine
    computed from them (status, hand count, each seat's score, place and win)."""
    rows = []
    for g in games:
        state = g.state
        finished = state.finished
        rows.append(
            Game(
                ruleset=g.ruleset,
                league_scope=get_ruleset(g.ruleset).league_scope(g.options),
                variant=g.variant,
                options=g.options,
                teams=[[ids[p] for p in team] for team in g.teams] if g.teams else None,
                first_dealer_id=ids[g.first_dealer],
                league=league,
                owner=accounts.get(g.owner) or accounts.owner,
                closed=g.closed,
                created_at=g.created_at or now,
                status=GameStatus.FINISHED if finished else GameStatus.IN_PROGRESS,
                finished_at=(g.finished_at or g.created_at or now) if finished else None,
                hand_count=len(state.hands),
                version=1,
                undone_upto=max(
                    (r.number for r in g.revisions if r.action == HandAction.UNDONE), default=0
                ),
                corrected_hands=_corrected_hands(g),
            )
        )
    created = Game.objects.bulk_create(rows)
    seats: list[Seat] = []
    hands: list[Hand] = []
    revisions: list[HandRevision] = []
    for g, game in zip(games, created, strict=True):
        state = g.state
        results = seat_results(state)
        config = state.config
        for position, pid in enumerate(g.players):
            seats.append(
                Seat(
                    game=game,
                    player_id=ids[pid],
                    position=position,
                    team=config.team_of(pid),
                    score=results[pid].score,
                    place=results[pid].place,
                    won=results[pid].won,
                )
            )
        for hand in g.hands:
            hands.append(
                Hand(
                    game=game,
                    number=hand.number,
                    input=remap_player_ids(hand.input, ids, where=g.where),
                    revision=hand.revision,
                    created_by=accounts.get(hand.created_by),
                    created_at=hand.created_at or game.created_at,
                )
            )
        for rev in g.revisions:
            revisions.append(
                HandRevision(
                    game=game,
                    number=rev.number,
                    revision=rev.revision,
                    action=rev.action,
                    input=remap_player_ids(rev.input, ids, where=g.where),
                    user=accounts.get(rev.user),
                    created_at=rev.created_at or game.created_at,
                )
            )
    _write_guests(games, created, revisions, accounts.owner, now)
    Seat.objects.bulk_create(seats, batch_size=2000)
    Hand.objects.bulk_create(hands, batch_size=2000)
    HandRevision.objects.bulk_create(revisions, batch_size=2000)
    return len(hands)
