"""Game nights written: starting a night (optionally in a league the owner may record in),
and moving the night on to its next game."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games import RuleError
from scorekeeper.live import notify as live
from scorekeeper.models import Game, League, Night
from scorekeeper.selectors.games import can_change_league
from scorekeeper.services.league_members import league_to_record_in

MAX_NAME = 80


def night_create(*, owner: User, name: str, league: int | None = None) -> Night:
    """Start a game night. ``league`` must be one the owner may start games in."""
    name = name.strip()
    if not name:
        raise RuleError(_("a night needs a name"), "name")
    if len(name) > MAX_NAME:
        raise RuleError(
            _("a night's name is at most %(limit)s characters") % {"limit": MAX_NAME}, "name"
        )
    league_obj: League | None = None
    if league is not None:
        league_obj = league_to_record_in(owner, league)
    return Night.objects.create(name=name, owner=owner, league=league_obj)


def night_usable(owner: User, night_id: int) -> Night:
    """The night ``owner`` may add a game to (theirs, or of a league they record in)."""
    night = Night.objects.filter(pk=night_id).select_related("league").first()
    if night is not None and (
        night.owner_id == owner.pk
        or (night.league is not None and can_change_league(owner, night.league))
    ):
        return night
    raise RuleError(
        _("night %(night)s does not exist or is not yours") % {"night": night_id}, "night"
    )


def night_moved_on(night: Night, game: Game) -> None:
    """``game`` is the night's new current game: its earlier games' sheets now point to
    it ("next game of the night"), so each gets a new version, told to its phones (on
    commit), which then follow the night to it."""
    earlier = Game.objects.filter(night=night).exclude(pk=game.pk)
    now = timezone.now()
    earlier.update(version=F("version") + 1, updated_at=now)
    for pk, version in earlier.values_list("pk", "version"):
        live.game_changed(pk, version, None, f"{now.timestamp()}")
