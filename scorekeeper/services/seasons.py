"""Writes about a league's seasons: its owner or an admin starts a new one, which closes
the current.

Closing a season keeps its final table as it is at that moment
(:func:`scorekeeper.selectors.league_seasons.final_table`): a correction to one of its
games later changes its games, not how it ended. The first time a league with games
starts a season, the games before it become a closed season of their own
(:data:`EARLIER_SEASON`), so no history is left outside one.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import RuleError
from scorekeeper.models import Game, League, Season
from scorekeeper.ratings.replay import lock_league
from scorekeeper.selectors.access import league_access
from scorekeeper.selectors.league_seasons import (
    day_start,
    final_table,
    league_seasons,
    season_span,
    today,
)
from scorekeeper.validation import clean_name

MAX_SEASON_NAME = 80
#: The name of the season the games before a league's first season make.
EARLIER_SEASON = "Season 1"
#: Why anyone else is refused.
SEASON_REFUSED = gettext_noop("Only the league's owner and admins may start a new season.")


def parse_day(value: object, field: str = "start") -> date:
    """A day from a form or a request: a ``date``, or text written ``YYYY-MM-DD``."""
    if isinstance(value, date):
        return value
    if isinstance(value, str) and value.strip().isascii():
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise RuleError(_("give the first day as a date, written YYYY-MM-DD"), field)


def season_start(
    *, league: League, user: User | AnonymousUser, name: object, start: object = None
) -> Season:
    """Start a new season of ``league`` named ``name`` on the day ``start`` (today when
    left out), closing the current one on the day before with its final table.
    :class:`PermissionDenied` unless ``user`` may
    (:attr:`~scorekeeper.selectors.league_roles.LeagueAccess.may_start_season`: the
    league's owner and admins); :class:`RuleError` on ``name``
    or ``start`` (nothing written) for a bad name, a name taken, a day in the future or
    not after the latest season's first day."""
    if not league_access(user, league).may_start_season:
        raise PermissionDenied(_(SEASON_REFUSED))
    clean = clean_name(name, "name", MAX_SEASON_NAME)
    first = today() if start is None or start == "" else parse_day(start)
    if first > today():
        raise RuleError(_("a season cannot start after today"), "start")
    with transaction.atomic():
        lock_league(league.pk)
        seasons = league_seasons(league)
        if any(s.name.casefold() == clean.casefold() for s in seasons):
            raise RuleError(
                _("this league already has a season called “%(season)s”") % {"season": clean},
                "name",
            )
        latest = seasons[0] if seasons else None
        if latest is not None:
            last_day = latest.end or latest.start
            if first <= last_day:
                raise RuleError(
                    (
                        _("the new season must start after %(day)s (“%(season)s” began then)")
                        if latest.end is None
                        else _("the new season must start after %(day)s (“%(season)s” ended then)")
                    )
                    % {"day": f"{last_day.day} {last_day:%b %Y}", "season": latest.name},
                    "start",
                )
            if latest.end is None:
                latest.end = first - timedelta(days=1)
                latest.final_table = final_table(league, season_span(latest))
                latest.save(update_fields=["end", "final_table"])
        else:
            _close_earlier_games(league, first, taken=clean)
        return Season.objects.create(league=league, name=clean, start=first)


def _close_earlier_games(league: League, first: date, *, taken: str) -> None:
    """A league's first season: the games before ``first`` become a closed season of
    their own, from the first of them (none: nothing)."""
    earliest = (
        Game.objects.filter(league=league, created_at__lt=day_start(first))
        .order_by("created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    if earliest is None:
        return
    name = EARLIER_SEASON if EARLIER_SEASON.casefold() != taken.casefold() else "Earlier games"
    season = Season(
        league=league,
        name=name,
        start=timezone.localdate(earliest),
        end=first - timedelta(days=1),
    )
    season.final_table = final_table(league, season_span(season))
    season.save()
