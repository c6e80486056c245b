"""Pieces of the league pages built in Python rather than by template loops (a league
has up to a thousand players): the standings table's rows and the members list. Each is
exactly what its template loop rendered (tests/scorekeeper/test_league_rows.py)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from html import escape as html_escape
from typing import Any

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from scorekeeper.models import League
from scorekeeper.ratings.model import PROVISIONAL_GAMES
from scorekeeper.selectors.leagues import Member


def player_href() -> str:
    """``/players/{}/`` as routed: one ``reverse`` per page instead of one per name."""
    return reverse("player_detail", args=[0]).replace("/0/", "/{}/")


_TENTH = Decimal("0.1")


def one_decimal(value: float | None) -> str:
    """``value|floatformat:1`` as the templates show it (half away from zero, no
    "-0.0", the site's English number format), several times faster: a thousand standings
    rows have two each."""
    if value is None:
        return ""
    exact = Decimal(repr(value))
    _, digits, exponent = exact.as_tuple()
    if len(digits) + abs(int(exponent)) > 200:
        return repr(value)  # as floatformat: such a number is shown as it is
    rounded = exact.quantize(_TENTH, ROUND_HALF_UP)
    return str(rounded) if rounded else "0.0"


def standing_rows(standings: Sequence[dict[str, Any]], href: str) -> SafeString:
    """The standings table's rows (``<tr>``), built here rather than by a template loop
    (up to a thousand rows with "Show everyone"; the loop's variable lookups and filters
    cost several times this). ``href``: a player's link, ``{}`` for their id. Numbers
    exactly as the template's ``floatformat``/``widthratio`` showed them
    (:func:`one_decimal`)."""
    prov = (
        f'<span class="lg-prov" title="Provisional: fewer than {PROVISIONAL_GAMES} games">?</span>'
    )
    rows = []
    # Every name is escaped here; the rest are numbers.
    for row in standings:
        games = row["games"]
        rate = round(row["wins"] / games * 100) if games else 0  # as {% widthratio %}
        rows.append(
            f'<tr><td class="num muted">{row["rank"]}</td>'
            f'<td class="lg-player"><a href="{html_escape(href.format(row["player"]))}">'
            f"{html_escape(row['name'])}</a></td>"
            f'<td class="num lg-rating">{one_decimal(row["rating"])}'
            f"{prov if row['provisional'] else ''}</td>"
            f'<td class="num">{games}</td>'
            f'<td class="num">{row["wins"]}<span class="lg-rate">{rate}%</span></td>'
            f'<td class="num">{one_decimal(row["avg_place"])}</td></tr>'
        )
    return mark_safe("\n".join(rows))


def member_items(league: League, members: Sequence[Member]) -> SafeString:
    """The members list's items (``<li>``), each linking to the player's page in this
    league."""
    href = player_href() + f"?league={league.pk}"
    return mark_safe(
        "".join(
            f'<li><a href="{href.format(p.pk)}">{html_escape(p.name)}</a></li>' for p in members
        )
    )
