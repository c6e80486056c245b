"""Game nights read back: the nights a user may see, a night's games, and its standings
across its finished games (games won, then placings summed; see the README)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from scorekeeper.models import Game, GameStatus, Guest, InviteRole, Night, Seat
from scorekeeper.selectors.games import leagues_visible_to
from scorekeeper.selectors.invites import live_night_invites
from scorekeeper.selectors.league_roles import LeagueRole, league_role


def nights_visible_to(user: User | AnonymousUser) -> QuerySet[Night]:
    """Nights a user may see: their own and their leagues'."""
    if not user.is_authenticated:
        return Night.objects.none()
    if getattr(user, "is_superuser", False):
        return Night.objects.all()
    return Night.objects.filter(
        Q(owner_id=user.pk) | Q(league_id__in=leagues_visible_to(user).values("id"))
    )


def night_for_viewer(
    pk: int, user: User | AnonymousUser, held: tuple[int, int | None] | None
) -> Night | None:
    """Night ``pk`` if this viewer may see it: an account's own or its leagues', or one
    its browser joined by a link (``held``: the invite and the guest it named) that still
    works, and whose guest was not removed. None otherwise."""
    night = nights_visible_to(user).filter(pk=pk).first()
    if night is not None or held is None:
        return night
    invite_id, guest_id = held
    invite = live_night_invites(pk).filter(pk=invite_id).only("id", "role").first()
    if invite is None:
        return None
    if invite.role == InviteRole.SCORE and guest_id is not None:
        guest = Guest.objects.filter(pk=guest_id, invite_id=invite.pk).only("removed_at").first()
        if guest is not None and guest.removed_at is not None:
            # Removed from the night: shut out of its page as of its games.
            return None
    return Night.objects.filter(pk=pk).first()


def may_manage_night(user: User | AnonymousUser, night: Night) -> bool:
    """Share the night, revoke its links: its owner, its league's owner and admins."""
    if not user.is_authenticated:
        return False
    if night.owner_id == user.pk or getattr(user, "is_superuser", False):
        return True
    return night.league_id is not None and league_role(user, night.league_id) in (
        LeagueRole.OWNER,
        LeagueRole.ADMIN,
    )


@dataclass(frozen=True)
class NightPointer:
    """Where a game of a night stands in it: the night, and the night's newer current
    game when there is one (the game its phones move on to)."""

    night: Night
    next_game: Game | None

    @property
    def listening(self) -> bool:
        """Whether a sheet of the game keeps asking for news after the game is over:
        until the night's next game starts."""
        return self.next_game is None


def night_pointer(game: Game) -> NightPointer | None:
    """None for a game outside any night (asking nothing)."""
    if game.night_id is None:
        return None
    night = Night.objects.filter(pk=game.night_id).only("id", "name").first()
    if night is None:
        return None
    current = current_game(night, fields=("id", "ruleset", "options"))
    newer = current if current is not None and current.pk != game.pk else None
    return NightPointer(night, newer)


def night_games(night: Night) -> list[Game]:
    """The night's games, oldest first."""
    return list(night.games.order_by("created_at", "id"))


def current_game(night: Night, fields: tuple[str, ...] = ()) -> Game | None:
    """The night's newest game: the one its phones follow (only ``fields`` of it, when
    given)."""
    games = night.games.order_by("-created_at", "-id")
    return (games.only(*fields) if fields else games).first()


@dataclass(frozen=True)
class NightRow:
    """One player's line of a night's standings."""

    player: int
    name: str
    games: int
    wins: int
    placings: int
    rank: int


def night_standings(night: Night) -> list[NightRow]:
    """Per player over the night's finished games: games won (most first), then the
    placings summed (lowest first); players equal on both share the rank."""
    seats = Seat.objects.filter(game__night=night, game__status=GameStatus.FINISHED).select_related(
        "player"
    )
    totals: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for seat in seats:
        row = totals.setdefault(seat.player_id, [0, 0, 0])
        row[0] += 1
        row[1] += int(seat.won)
        row[2] += seat.place or 0
        names[seat.player_id] = seat.player.name
    order = sorted(totals, key=lambda pid: (-totals[pid][1], totals[pid][2], names[pid].lower()))
    rows: list[NightRow] = []
    for i, pid in enumerate(order):
        games, wins, placings = totals[pid]
        rank = i + 1
        if rows and (rows[-1].wins, rows[-1].placings) == (wins, placings):
            rank = rows[-1].rank
        rows.append(NightRow(pid, names[pid], games, wins, placings, rank))
    return rows
