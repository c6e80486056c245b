"""Writes about players and leagues.

Players belong to someone: an account may seat in its games, or add to its leagues, only
the players it may use (``selectors.games.players_usable_by``): its own, those it
created, and the members of the leagues it may change. Anyone else's player is refused
by name, as if it did not exist, so ids do not reveal who plays where.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from games import RuleError
from scorekeeper.models import League, Membership, Player
from scorekeeper.selectors.access import league_access
from scorekeeper.selectors.games import players_usable_by
from scorekeeper.validation import clean_name, parse_id

#: Keys of a (normalised) hand input that hold a player id, at any depth: what the
#: league import remaps and the backup check verifies. The one list of them.
PLAYER_KEYS = frozenset({"winner", "bower_holder", "player", "last_chip"})

MAX_NAME = 60
MAX_LEAGUE_NAME = 80


def player_create(*, name: object, created_by: User | None, user: User | None = None) -> Player:
    return Player.objects.create(
        name=clean_name(name, "name", MAX_NAME), created_by=created_by, user=user
    )


def league_create(*, name: object, owner: User) -> League:
    """A new league, with no members yet (as the API promises). Its owner sees and runs
    it as the owner; their own player joins when added or seated at one of its games."""
    return League.objects.create(name=clean_name(name, "name", MAX_LEAGUE_NAME), owner=owner)


def check_players_usable(
    user: User | AnonymousUser, ids: Iterable[int], field: str, *, extra: Iterable[int] = ()
) -> None:
    """Refuse (:class:`RuleError` on ``field``) the first id that is not a player the
    user may use; ``extra`` are ids usable anyway (the members of the game's league)."""
    wanted = list(dict.fromkeys(ids))
    allowed = set(extra)
    todo = [pid for pid in wanted if pid not in allowed]
    if todo:
        allowed |= set(players_usable_by(user).filter(pk__in=todo).values_list("pk", flat=True))
    for pid in wanted:
        if pid not in allowed:
            raise RuleError(
                _("player %(player)s does not exist or is not one of your players")
                % {"player": pid},
                field,
            )


def league_add_member(*, league: League, player: Player | int | str, user: User) -> Membership:
    if not league_access(user, league).may_manage:
        raise PermissionDenied(_("Only the league's owner and admins may add members."))
    player_id = player.pk if isinstance(player, Player) else parse_id(player, "player")
    check_players_usable(user, [player_id], "player")
    membership, _created = Membership.objects.get_or_create(league=league, player_id=player_id)
    return membership
