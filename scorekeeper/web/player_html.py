"""Pieces of the player page built in Python rather than by template loops: the player's
standings lines (one per scope they played) and their latest games. Each is what its
template loop rendered, whitespace between tags kept as one line break
(tests/scorekeeper/test_player_rows.py); the loops' variable lookups and filters cost
more than the rest of the page's template."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape as html_escape
from typing import Any

from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime

from scorekeeper.web.league_html import one_decimal


def _plural(n: int) -> str:
    return "" if n == 1 else "s"


def standing_lines(lines: Sequence[dict[str, Any]], scope: str, provisional: int) -> SafeString:
    """The ``<li>`` of each standings line (``query`` set, as the view sets it);
    ``scope``: the one shown (marked current); ``provisional``: the games a rating
    stays provisional for."""
    prov = f'<span class="lg-prov" title="Provisional: fewer than {provisional} games">?</span>'
    items = []
    # Every text is escaped here; the rest are numbers.
    for line in lines:
        current = line["ruleset"] == scope
        query = html_escape(line["query"])
        games, wins = line["games"], line["wins"]
        rate = round(wins / games * 100) if games else 0  # as {% widthratio %}
        li = '<li class="lg-current">' if current else "<li>"
        aria = ' aria-current="true"' if current else ""
        items.append(
            f"{li}\n"
            f'<a href="{query}#rating" hx-get="{query}" hx-target="#rating" hx-swap="outerHTML"'
            f' hx-push-url="true"{aria}>\n'
            f'<span class="lg-line-name">{html_escape(line["ruleset_name"])}</span>\n'
            f'<span class="lg-line-rating">{one_decimal(line["rating"])}'
            f"{prov if line['provisional'] else ''}</span>\n"
            f'<span class="small muted">#{line["rank"]} of {line["of"]} · {games}'
            f" game{_plural(games)} · {wins} win{_plural(wins)} ({rate}%) · avg place"
            f" {one_decimal(line['avg_place'])}</span>\n"
            "</a>\n</li>"
        )
    return mark_safe("\n".join(items))


def recent_items(recent: Sequence[dict[str, Any]]) -> SafeString:
    """The ``<li>`` of each of the latest games (rating points with their game's
    ``name``)."""
    items = []
    for p in recent:
        change = p["change"]
        trend = "up" if change > 0 else "down" if change < 0 else ""
        items.append(
            "<li>\n"
            f'<a href="/games/{p["game"]}/">{html_escape(p["name"])}</a>\n'
            f'<span class="small muted">{date_format(localtime(p["played_at"]), "j M")}'
            f" · place {p['place']}{' · won' if p['won'] else ''}</span>\n"
            f'<span class="lg-recent-rating"><span class="lg-change {trend}">'
            f"{'+' if change > 0 else ''}{one_decimal(change)}</span> →"
            f" {one_decimal(p['rating'])}</span>\n"
            "</li>"
        )
    return mark_safe("\n".join(items))
