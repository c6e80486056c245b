"""Writes about players and leagues."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from games import RuleError
from scorekeeper.models import League, Membership, Player
from scorekeeper.selectors.games import can_change_league

MAX_NAME = 60


def _clean_name(name: object, field: str, limit: int) -> str:
    if not isinstance(name, str) or not name.strip():
        raise RuleError("a name is required", field)
    cleaned = " ".join(name.split())
    if len(cleaned) > limit:
        raise RuleError(f"a name can have at most {limit} characters", field)
    return cleaned


def player_create(*, name: object, created_by: User | None, user: User | None = None) -> Player:
    return Player.objects.create(
        name=_clean_name(name, "name", MAX_NAME), created_by=created_by, user=user
    )


def league_create(*, name: object, owner: User) -> League:
    """A new league, with no members yet (as the API promises). Its owner sees and runs
    it as the owner; their own player joins when added or seated at one of its games."""
    return League.objects.create(name=_clean_name(name, "name", 80), owner=owner)


def league_add_member(*, league: League, player: Player | int, user: User) -> Membership:
    if not can_change_league(user, league):
        raise PermissionDenied("Only the league's owner and members may add members.")
    player_id = player.pk if isinstance(player, Player) else player
    if isinstance(player_id, bool) or not isinstance(player_id, int):
        raise RuleError(f"{player!r} is not a player id", "player")
    if not Player.objects.filter(pk=player_id).exists():
        raise RuleError(f"player {player_id} does not exist", "player")
    membership, _ = Membership.objects.get_or_create(league=league, player_id=player_id)
    return membership
