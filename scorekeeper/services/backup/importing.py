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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import GameConfig, GameState, RuleError, Ruleset, get_ruleset
from scorekeeper.models import (
    Game,
    GameStatus,
    Hand,
    HandRevision,
    League,
    Membership,
    Player,
    Seat,
)
from scorekeeper.selectors.games import seat_results
from scorekeeper.services import stats
from scorekeeper.services.backup.schema import (
    FORMAT,
    FORMAT_VERSION,
    parse_timestamp,
    schema_error,
)

#: Keys of a (normalised) hand input that hold a player id, at any depth.
PLAYER_KEYS = frozenset({"winner", "bower_holder", "player"})


@dataclass
class _PlayerIn:
    id: int
    name: str
    user: str | None
    created_at: datetime | None


@dataclass
class _RevisionIn:
    number: int
    revision: int
    action: str
    input: dict[str, Any]
    user: str | None
    created_at: datetime | None


@dataclass
class _HandIn:
    number: int
    input: dict[str, Any]
    revision: int
    created_by: str | None
    created_at: datetime | None


@dataclass
class _GameIn:
    where: str
    ruleset: str
    variant: str
    options: dict[str, Any]
    teams: list[list[int]] | None
    first_dealer: int
    players: list[int]
    closed: bool
    owner: str | None
    created_at: datetime | None
    finished_at: datetime | None
    hands: list[_HandIn]
    revisions: list[_RevisionIn]
    state: GameState


@dataclass
class _LeagueIn:
    name: str
    created_at: datetime | None
    players: list[_PlayerIn]
    members: list[tuple[int, datetime | None]]
    games: list[_GameIn]


def _fail(field: str, where: str, message: str) -> RuleError:
    return RuleError(f"{where}: {message}" if where else message, field)


def _when(value: str | None) -> datetime | None:
    """A timestamp the schema has already accepted."""
    return parse_timestamp(value) if value is not None else None


def _name(value: str) -> str:
    return " ".join(value.split())


def _username(value: str | None) -> str | None:
    return value or None


def remap_player_ids(
    value: Any, ids: Mapping[int, int], *, field: str = "games", where: str = ""
) -> Any:
    """A hand input with every player id (``winner``, ``bower_holder``, ``player``)
    replaced through ``ids``; an id missing from ``ids`` is an error."""
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key in PLAYER_KEYS and isinstance(item, int) and not isinstance(item, bool):
                if item not in ids:
                    raise _fail(field, where, f"player {item} is not a player of this game")
                out[key] = ids[item]
            else:
                out[key] = remap_player_ids(item, ids, field=field, where=where)
        return out
    if isinstance(value, list):
        return [remap_player_ids(item, ids, field=field, where=where) for item in value]
    return value


def _check_header(data: object) -> Mapping[str, Any]:
    """The file is a league export of a version this install reads (before the schema of
    that version applies)."""
    if not isinstance(data, Mapping):
        raise RuleError("the file must hold a JSON object (a league export)", "format")
    if data.get("format") != FORMAT:
        raise RuleError(
            f"this is not a scorekeeper league export (its 'format' should be '{FORMAT}')",
            "format",
        )
    version = data.get("version")
    if version != FORMAT_VERSION or isinstance(version, bool):
        if isinstance(version, int) and not isinstance(version, bool) and version > 1:
            raise RuleError(
                f"this export has format version {version}, newer than this install "
                f"reads ({FORMAT_VERSION}): update scorekeeper to import it",
                "version",
            )
        shown = repr(version) if isinstance(version, int | str | None) else type(version).__name__
        raise RuleError(
            f"unknown format version {shown[:40]} (expected {FORMAT_VERSION})", "version"
        )
    return data


def _check_players(raw: list[Mapping[str, Any]]) -> list[_PlayerIn]:
    players: list[_PlayerIn] = []
    seen: set[int] = set()
    linked: set[str] = set()
    for index, entry in enumerate(raw):
        where = f"players[{index}]"
        pid = entry["id"]
        if pid in seen:
            raise _fail("players", where, f"player id {pid} appears twice")
        seen.add(pid)
        user = _username(entry.get("user"))
        if user is not None:
            if user in linked:
                raise _fail("players", where, f"two players are linked to the account {user!r}")
            linked.add(user)
        players.append(
            _PlayerIn(
                id=pid,
                name=_name(entry["name"]),
                user=user,
                created_at=_when(entry.get("created_at")),
            )
        )
    return players


def _check_members(
    raw: list[Mapping[str, Any]], known: set[int]
) -> list[tuple[int, datetime | None]]:
    members: list[tuple[int, datetime | None]] = []
    seen: set[int] = set()
    for index, entry in enumerate(raw):
        where = f"members[{index}]"
        pid = entry["player"]
        if pid not in known:
            raise _fail("members", where, f"player {pid} is not in the file's players")
        if pid in seen:
            raise _fail("members", where, f"player {pid} is a member twice")
        seen.add(pid)
        members.append((pid, _when(entry.get("joined_at"))))
    return members


def _check_hands(raw: list[Mapping[str, Any]], where: str) -> list[_HandIn]:
    hands: list[_HandIn] = []
    for index, entry in enumerate(raw):
        number = entry["number"]
        if number != index + 1:
            raise _fail(
                "games",
                f"{where}.hands[{index}]",
                f"hands must be numbered 1, 2, 3… in order (found "
                f"hand {number} in place {index + 1})",
            )
        hands.append(
            _HandIn(
                number=number,
                input=dict(entry["input"]),
                revision=entry.get("revision", 1),
                created_by=_username(entry.get("created_by")),
                created_at=_when(entry.get("created_at")),
            )
        )
    return hands


def _hand_error(
    rules: Ruleset,
    config: GameConfig,
    inputs: Sequence[dict[str, Any]],
    where: str,
    error: RuleError,
) -> RuleError:
    """Point at the hand that breaks the rules: the first one whose prefix the engine
    rejects (an error path only, so replaying prefixes is affordable)."""
    for count in range(1, len(inputs) + 1):
        try:
            rules.play(config, inputs[:count])
        except RuleError as exc:
            return _fail("games", f"{where}.hands[{count - 1}] (hand {count})", exc.message)
    # Every hand is fine on its own: the game cannot be ended by hand as it stands.
    return _fail("games", f"{where}.closed", error.message)


def _check_game(index: int, entry: Mapping[str, Any], known: set[int]) -> _GameIn:
    file_id = entry.get("id")
    where = f"games[{index}]" + (f" (game {file_id})" if file_id is not None else "")
    try:
        rules = get_ruleset(entry["ruleset"])
    except RuleError as exc:
        raise _fail("games", f"{where}.ruleset", exc.message) from None
    seats = []
    for s_index, seat in enumerate(entry["seats"]):
        pid = seat["player"]
        if pid not in known:
            raise _fail(
                "games", f"{where}.seats[{s_index}]", f"player {pid} is not in the file's players"
            )
        seats.append((seat.get("position", s_index), pid))
    seats.sort()
    if [pos for pos, _ in seats] != list(range(len(seats))):
        raise _fail("games", f"{where}.seats", "seat positions must be 0, 1, 2… once each")
    players = [pid for _, pid in seats]
    closed = entry.get("closed", False)
    try:
        config = rules.configure(
            players=players,
            variant=entry.get("variant") or None,
            options=entry.get("options"),
            teams=entry.get("teams"),
            first_dealer=entry.get("first_dealer"),
        )
    except RuleError as exc:
        raise _fail("games", f"{where}.{exc.field}", exc.message) from None
    hands = _check_hands(entry.get("hands") or [], where)
    inputs = [h.input for h in hands]
    try:
        state = rules.play(config, inputs, closed=closed)
    except RuleError as exc:
        raise _hand_error(rules, config, inputs, where, exc) from None
    for hand, outcome in zip(hands, state.hands, strict=True):
        hand.input = dict(outcome.input)
    revisions = [
        _RevisionIn(
            number=rev["number"],
            revision=rev["revision"],
            action=rev["action"],
            input=dict(rev["input"]),
            user=_username(rev.get("user")),
            created_at=_when(rev.get("created_at")),
        )
        for rev in entry.get("revisions") or []
    ]
    for rev_index, rev in enumerate(revisions):
        # Checked only for its player ids: an old revision was valid when it was made.
        remap_player_ids(
            rev.input,
            {p: p for p in players},
            field="games",
            where=f"{where}.revisions[{rev_index}].input",
        )
    assert config.first_dealer is not None
    return _GameIn(
        where=where,
        ruleset=rules.slug,
        variant=config.variant or "",
        options=dict(config.options),
        teams=[list(t) for t in config.teams] if config.teams else None,
        first_dealer=config.first_dealer,
        players=players,
        closed=closed,
        owner=_username(entry.get("owner")),
        created_at=_when(entry.get("created_at")),
        finished_at=_when(entry.get("finished_at")),
        hands=hands,
        revisions=revisions,
        state=state,
    )


def league_import_check(data: object) -> _LeagueIn:
    """Check a whole export without writing anything; :class:`RuleError` at the first
    problem, its ``field`` the top-level key concerned and its message the place in the
    file (``games[3] (game 120).hands[1]: …``)."""
    doc = _check_header(data)
    problem = schema_error(doc)
    if problem is not None:
        raise problem
    players = _check_players(doc["players"])
    known = {p.id for p in players}
    members = _check_members(doc.get("members") or [], known)
    games = [_check_game(index, raw, known) for index, raw in enumerate(doc.get("games") or [])]
    league = doc["league"]
    return _LeagueIn(
        name=_name(league["name"]),
        created_at=_when(league.get("created_at")),
        players=players,
        members=members,
        games=games,
    )


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
    now = timezone.now()
    with transaction.atomic():
        accounts = _Accounts(owner, trusted=trusted, create_users=create_users)
        ids, reused = _write_players(checked.players, accounts, now)
        league = League.objects.create(
            name=checked.name, owner=owner, created_at=checked.created_at or now
        )
        member_times = dict(checked.members)
        # Everyone seated at a game is a member, as game_create makes them.
        for game in checked.games:
            for pid in game.players:
                member_times.setdefault(pid, game.created_at or now)
        Membership.objects.bulk_create(
            Membership(league=league, player_id=ids[pid], joined_at=joined or now)
            for pid, joined in member_times.items()
        )
        hands = _write_games(league, checked.games, ids, accounts, now)
        stats.league_stats_rebuild(league)
    return ImportResult(
        league=league,
        players_created=len(ids) - reused,
        players_reused=reused,
        games=len(checked.games),
        hands=hands,
        users_created=tuple(accounts.created),
    )


def _write_players(
    players: Sequence[_PlayerIn], accounts: _Accounts, now: datetime
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
                ),
            )
        )
    created = Player.objects.bulk_create([player for _, player in to_create])
    for (file_id, _), player in zip(to_create, created, strict=True):
        ids[file_id] = player.pk
    return ids, reused


def _write_games(
    league: League,
    games: Sequence[_GameIn],
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
    Seat.objects.bulk_create(seats, batch_size=2000)
    Hand.objects.bulk_create(hands, batch_size=2000)
    HandRevision.objects.bulk_create(revisions, batch_size=2000)
    return len(hands)
