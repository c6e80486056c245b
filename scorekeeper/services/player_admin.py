"""Managing players: rename, colour, hide from the pickers, merge two into one.

Who may manage a player (:func:`players_managed_by`): the account that created it, the
account it is (a user's own player), and the owner of a league it is a member of when
the player has no account of its own. Everybody else may at most see the player: the
API answers 403 then, and 404 when they may not even see it.

Names are referenced, never copied: hands, hand revisions, exports and the API carry
player ids and read the name when they show it, so a rename shows everywhere at once,
past games included. A merge rewrites the ids instead: seats, first dealers, teams,
hand inputs and their revisions, league memberships, and then the league statistics,
replayed from the merged player's first league game through :mod:`scorekeeper.ratings`
(a long replay is left to its background task).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import F, ProtectedError, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext_lazy

from games import RuleError
from scorekeeper.models import (
    ALL_GAMES,
    PLAYER_COLOURS,
    Game,
    GameStatus,
    Hand,
    HandRevision,
    League,
    Membership,
    Player,
    PlayerMerge,
    Seat,
)
from scorekeeper.ratings.backlog import has_backlog
from scorekeeper.ratings.hooks import rerate
from scorekeeper.ratings.rebuild import game_derived_rebuild
from scorekeeper.ratings.replay import lock_league
from scorekeeper.retry import once_more_on_deadlock
from scorekeeper.services.players import MAX_NAME, PLAYER_KEYS
from scorekeeper.validation import clean_name, parse_id

#: What the palette's colours are called (players.css ``--player-1`` …), for the forms.
COLOUR_NAMES = (
    pgettext_lazy("player colour", "Teal"),
    pgettext_lazy("player colour", "Red"),
    pgettext_lazy("player colour", "Blue"),
    pgettext_lazy("player colour", "Amber"),
    pgettext_lazy("player colour", "Purple"),
    pgettext_lazy("player colour", "Orange"),
    pgettext_lazy("player colour", "Cyan"),
    pgettext_lazy("player colour", "Slate"),
    pgettext_lazy("player colour", "Pink"),
    pgettext_lazy("player colour", "Olive"),
)
assert len(COLOUR_NAMES) == PLAYER_COLOURS


#: Who may manage a player, in the refusals.
MAY_MANAGE = gettext_noop(
    "only the players you created, your own player, and the members without an "
    "account of the leagues you own"
)


class NotManageable(Exception):
    """The user may see the player but not manage it (the API's 403)."""


class NoSuchPlayer(Exception):
    """The player does not exist, or the user may not see it (the API's 404)."""


# -- who may manage -------------------------------------------------------------------


def players_managed_by(user: User | AnonymousUser) -> QuerySet[Player]:
    """Players a user may rename, colour, hide and merge: their own, those they
    created, and the members without an account of the leagues they own."""
    if not user.is_authenticated:
        return Player.objects.none()
    if getattr(user, "is_superuser", False):
        return Player.objects.all()
    owned = League.objects.filter(owner_id=user.pk).values("id")
    members = Membership.objects.filter(league_id__in=owned).values("player_id")
    return Player.objects.filter(
        Q(user_id=user.pk) | Q(created_by_id=user.pk) | (Q(pk__in=members) & Q(user__isnull=True))
    )


def can_manage_player(user: User | AnonymousUser, player: Player | int) -> bool:
    pk = player.pk if isinstance(player, Player) else player
    return players_managed_by(user).filter(pk=pk).exists()


# -- rename, colour, hide -------------------------------------------------------------


def _managed(user: User | AnonymousUser, player: Player | int | str, field: str) -> Player:
    """The player (locked for the change), if the user may manage it. A player they may
    not even see is refused as if it did not exist: :class:`NoSuchPlayer` for the
    player being changed (``field == "player"``), a :class:`RuleError` on ``field`` for
    another one (the player to merge into)."""
    from scorekeeper.selectors.games import player_visible_to

    pk = player.pk if isinstance(player, Player) else parse_id(player, field)
    found = players_managed_by(user).select_for_update(no_key=True).filter(pk=pk).first()
    if found is not None:
        return found
    if player_visible_to(user, pk) is not None:
        if field != "player":
            raise RuleError(
                _("you may not manage player %(player)s: %(who)s")
                % {"player": pk, "who": _(MAY_MANAGE)},
                field,
            )
        raise NotManageable(_("You may not manage this player: %(who)s") % {"who": _(MAY_MANAGE)})
    if field == "player":
        raise NoSuchPlayer(f"player {pk} does not exist")
    raise RuleError(
        _("player %(player)s does not exist or is not one of your players") % {"player": pk},
        field,
    )


def parse_colour(value: object, field: str = "colour") -> int | None:
    """A palette slot (1 to 10), or None (empty, null, "auto": chosen from the id)."""
    if value is None or value == "" or value == "auto":
        return None
    from games.base import whole_number

    number = whole_number(value) if not isinstance(value, bool) else None
    if number is None or not 1 <= number <= PLAYER_COLOURS:
        raise RuleError(
            _("a colour is a number from 1 to %(most)s, or null") % {"most": PLAYER_COLOURS}, field
        )
    return number


def _touch_games(player_id: int) -> None:
    """Phones showing a game of the player see a new version and refresh."""
    Game.objects.filter(seats__player_id=player_id).update(version=F("version") + 1)


@transaction.atomic
def player_update(
    *,
    user: User | AnonymousUser,
    player: Player | int | str,
    name: object = None,
    colour: object = ...,
    hidden: bool | None = None,
) -> Player:
    """Rename, recolour or hide/unhide a player (any of them; ``colour=None`` goes back
    to the automatic one). Only the fields given change."""
    target = _managed(user, player, "player")
    fields: list[str] = []
    if name is not None:
        new = clean_name(name, "name", MAX_NAME)
        if new != target.name:
            target.name = new
            fields.append("name")
    if colour is not ...:
        chosen = parse_colour(colour)
        if chosen != target.colour:
            target.colour = chosen
            fields.append("colour")
    if hidden is not None and bool(hidden) != target.hidden:
        target.hidden = bool(hidden)
        fields.append("hidden")
    if fields:
        target.save(update_fields=fields)
        if "name" in fields or "colour" in fields:
            _touch_games(target.pk)
    return target


# -- merge ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Merged:
    into: Player
    merge: PlayerMerge
    games: int
    #: League scopes whose ratings were left to the background task.
    deferred: int


def _swap_ids(value: Any, old: int, new: int) -> Any:
    """A hand input with the player id ``old`` replaced by ``new`` (under the keys that
    hold player ids only: a score of the same number stays)."""
    if isinstance(value, dict):
        return {
            key: (
                new
                if key in PLAYER_KEYS and item == old and not isinstance(item, bool)
                else _swap_ids(item, old, new)
            )
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_swap_ids(item, old, new) for item in value]
    return value


def _shared_game(a: int, b: int) -> Game | None:
    both = Seat.objects.filter(player_id=b).values("game_id")
    seat = Seat.objects.filter(player_id=a, game_id__in=both).select_related("game").first()
    return seat.game if seat is not None else None


@once_more_on_deadlock
def _mergeable(
    user: User | AnonymousUser, source: Player | int | str, into: Player | int | str
) -> tuple[Player, Player]:
    """The two players (locked), if ``source`` may be merged into ``into``."""
    a = _managed(user, source, "player")
    b = _managed(user, into, "into")
    if a.pk == b.pk:
        raise RuleError(_("a player cannot be merged into themselves"), "into")
    if a.user_id is not None and b.user_id is not None:
        raise RuleError(
            _("%(a)s and %(b)s each have an account: they cannot be merged")
            % {"a": a.name, "b": b.name},
            "into",
        )
    shared = _shared_game(a.pk, b.pk)
    if shared is not None:
        raise RuleError(
            _(
                "%(a)s and %(b)s sat at the same game (%(game)s, %(day)s): "
                "they are two people, not one"
            )
            % {"a": a.name, "b": b.name, "game": shared, "day": f"{shared.created_at:%d %b %Y}"},
            "into",
        )
    return a, b


@dataclass(frozen=True)
class MergePlan:
    """What a merge would do, for the page that asks before it is done."""

    source: Player
    into: Player
    games: int
    leagues: int


def merge_plan(
    *, user: User | AnonymousUser, source: Player | int | str, into: Player | int | str
) -> MergePlan:
    """Checks the merge as :func:`player_merge` does (the same refusals) and says what
    it would move; changes nothing."""
    with transaction.atomic():
        a, b = _mergeable(user, source, into)
        return MergePlan(
            source=a,
            into=b,
            games=Seat.objects.filter(player_id=a.pk).count(),
            leagues=Membership.objects.filter(player_id=a.pk).count(),
        )


def player_merge(
    *, user: User | AnonymousUser, source: Player | int | str, into: Player | int | str
) -> Merged:
    """Merge ``source`` into ``into``: every game, seat, hand, revision, league
    membership and statistic of ``source`` becomes ``into``'s, the merge is recorded
    and ``source`` goes. All or nothing. Refused (:class:`RuleError` on ``into``) when
    the two sat at the same game, are the same, or both have an account."""
    with transaction.atomic():
        a, b = _mergeable(user, source, into)
        game_ids = sorted(Seat.objects.filter(player_id=a.pk).values_list("game_id", flat=True))
        league_ids = set(
            Game.objects.filter(pk__in=game_ids, league__isnull=False).values_list(
                "league_id", flat=True
            )
        ) | set(Membership.objects.filter(player_id=a.pk).values_list("league_id", flat=True))
        # The games first, then their leagues: the order a hand's write takes them.
        games = list(
            Game.objects.select_for_update(no_key=True)
            .filter(pk__in=game_ids)
            .order_by("pk")
            .values_list("pk", "teams")
        )
        for league_id in sorted(league_ids):
            lock_league(league_id)
        # Rating order of the source's finished league games, before the seats move.
        starts = _rating_starts(a.pk)

        Seat.objects.filter(player_id=a.pk).update(player_id=b.pk)
        Game.objects.filter(first_dealer_id=a.pk).update(first_dealer_id=b.pk)
        for pk, teams in games:
            if teams and any(a.pk in team for team in teams):
                swapped = [[b.pk if p == a.pk else p for p in team] for team in teams]
                Game.objects.filter(pk=pk).update(teams=swapped)
        hands = [h for h in Hand.objects.filter(game_id__in=game_ids) if _has(h.input, a.pk)]
        for hand in hands:
            hand.input = _swap_ids(hand.input, a.pk, b.pk)
        Hand.objects.bulk_update(hands, ["input"], batch_size=500)
        revisions = [
            r for r in HandRevision.objects.filter(game_id__in=game_ids) if _has(r.input, a.pk)
        ]
        for revision in revisions:
            revision.input = _swap_ids(revision.input, a.pk, b.pk)
        HandRevision.objects.bulk_update(revisions, ["input"], batch_size=500)
        for game in (
            Game.objects.filter(pk__in=game_ids).prefetch_related("seats", "hands").order_by("pk")
        ):
            game_derived_rebuild(game)  # the stored outcomes name players by id
        Game.objects.filter(pk__in=game_ids).update(version=F("version") + 1)

        already = set(Membership.objects.filter(player_id=b.pk).values_list("league_id", flat=True))
        Membership.objects.filter(player_id=a.pk).exclude(league_id__in=already).update(
            player_id=b.pk
        )
        Membership.objects.filter(player_id=a.pk).delete()

        deferred = 0
        for (league_id, scope), since in sorted(starts.items()):
            rerate(league_id, scope, since, game_id=None)
            deferred += int(has_backlog(league_id, scope))

        if a.user_id is not None:
            account = a.user_id
            Player.objects.filter(pk=a.pk).update(user=None)
            Player.objects.filter(pk=b.pk).update(user_id=account)
        PlayerMerge.objects.filter(into_id=a.pk).update(into_id=b.pk)
        record = PlayerMerge.objects.create(
            from_player_id=a.pk, from_name=a.name, into=b, by=_account(user), games=len(games)
        )
        try:
            a.delete()
        except ProtectedError:
            # A game seating the player was started while this merge ran.
            raise RuleError(
                _("a game with %(player)s was started meanwhile: try the merge again")
                % {"player": a.name},
                "into",
            ) from None
        b.refresh_from_db()
        return Merged(into=b, merge=record, games=len(games), deferred=deferred)


def _account(user: User | AnonymousUser) -> User | None:
    return user if isinstance(user, User) else None


def _has(value: Any, pid: int) -> bool:
    return _swap_ids(value, pid, -1) != value


def _rating_starts(player_id: int) -> dict[tuple[int, str], tuple[Any, int]]:
    """Where each league scope's ratings must be replayed from: the player's first
    finished game in it (in rating order: start time, then id)."""
    starts: dict[tuple[int, str], tuple[Any, int]] = {}
    rows = (
        Game.objects.filter(
            seats__player_id=player_id, status=GameStatus.FINISHED, league__isnull=False
        )
        .order_by("created_at", "pk")
        .values_list("league_id", "ruleset", "created_at", "pk")
    )
    for league_id, ruleset, created_at, pk in rows:
        for scope in (ruleset, ALL_GAMES):
            starts.setdefault((league_id, scope), (created_at, pk))
    return starts


def merges_into(players: Iterable[int]) -> QuerySet[PlayerMerge]:
    """The merges recorded into these players, newest first."""
    return PlayerMerge.objects.filter(into_id__in=list(players)).select_related("into")


__all__ = [
    "COLOUR_NAMES",
    "Merged",
    "NoSuchPlayer",
    "NotManageable",
    "can_manage_player",
    "merges_into",
    "parse_colour",
    "player_merge",
    "player_update",
    "players_managed_by",
]
