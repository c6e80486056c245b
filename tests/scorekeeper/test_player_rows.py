"""The player page's standings lines and latest games, built in Python
(scorekeeper/web/player_html.py), are exactly what its template loops rendered (runs of
whitespace aside, which HTML shows as one space either way)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from django.template import Context, Template
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.ratings.model import PROVISIONAL_GAMES
from scorekeeper.selectors.leagues import _standing_row
from scorekeeper.web.player_html import recent_items, standing_lines

# The template loops as they were (templates/leagues/player.html).
# ruff: noqa: E501
LINES = Template(
    """{% load league_tags %}{% for line in lines %}
    <li{% if line.ruleset == scope %} class="lg-current"{% endif %}>
      <a href="{{ line.query }}#rating" hx-get="{{ line.query }}" hx-target="#rating" hx-swap="outerHTML" hx-push-url="true"{% if line.ruleset == scope %} aria-current="true"{% endif %}>
        <span class="lg-line-name">{{ line.ruleset_name }}</span>
        <span class="lg-line-rating">{{ line.rating|one_decimal }}{% if line.provisional %}<span class="lg-prov" title="Provisional: fewer than {{ provisional_games }} games">?</span>{% endif %}</span>
        <span class="small muted">#{{ line.rank }} of {{ line.of }} · {{ line.games }} game{{ line.games|pluralize }} · {{ line.wins }} win{{ line.wins|pluralize }} ({% widthratio line.wins line.games 100 %}%) · avg place {{ line.avg_place|one_decimal }}</span>
      </a>
    </li>
    {% endfor %}"""
)
RECENT = Template(
    """{% load league_tags %}{% for p in recent %}
    <li>
      <a href="/games/{{ p.game }}/">{{ p.name }}</a>
      <span class="small muted">{{ p.played_at|date:"j M" }} · place {{ p.place }}{% if p.won %} · won{% endif %}</span>
      <span class="lg-recent-rating"><span class="lg-change {% if p.change > 0 %}up{% elif p.change < 0 %}down{% endif %}">{% if p.change > 0 %}+{% endif %}{{ p.change|one_decimal }}</span> → {{ p.rating|one_decimal }}</span>
    </li>
    {% endfor %}"""
)


def _spaces(html: str) -> str:
    return re.sub(r"\s+", " ", html).strip()


TEXT = st.text(min_size=1, max_size=20)
SCOPES = st.sampled_from(["", "dirt", "damn-you", "screw-your-neighbour"])


@settings(deadline=None, max_examples=60)
@given(
    st.lists(
        st.tuples(
            SCOPES,
            TEXT,  # the scope's name
            TEXT,  # the query string
            st.integers(1, 600),  # games
            st.integers(0, 600),  # wins
            st.integers(1, 1000),  # rank
            st.floats(-50, 60, allow_nan=False),  # rating
            st.floats(1, 4, allow_nan=False),  # average place
        ),
        max_size=6,
    ),
    SCOPES,
)
def test_standing_lines_are_the_template_loop(lines: list[tuple], scope: str) -> None:  # type: ignore[type-arg]
    rows = []
    for ruleset, name, query, games, wins, rank, rating, avg in lines:
        wins = min(wins, games)
        row = _standing_row(rank, 1, "", games, wins, round(avg * games), 25.0, 8.0, rating)
        row.update({"ruleset": ruleset, "ruleset_name": name, "query": query, "of": rank + 3})
        rows.append(row)
    expected = LINES.render(
        Context({"lines": rows, "scope": scope, "provisional_games": PROVISIONAL_GAMES})
    )
    assert _spaces(standing_lines(rows, scope, PROVISIONAL_GAMES)) == _spaces(expected)


@settings(deadline=None, max_examples=60)
@given(
    st.lists(
        st.tuples(
            st.integers(1, 10**6),  # game
            TEXT,  # its ruleset's name
            st.datetimes(
                min_value=datetime(2000, 1, 1),
                max_value=datetime(2100, 1, 1),
                timezones=st.just(UTC),
            ),
            st.integers(1, 8),  # place
            st.booleans(),  # won
            st.floats(-10, 10, allow_nan=False).map(lambda v: round(v, 2)),  # change
            st.floats(-50, 60, allow_nan=False).map(lambda v: round(v, 2)),  # rating
        ),
        max_size=5,
    )
)
def test_recent_items_are_the_template_loop(points: list[tuple]) -> None:  # type: ignore[type-arg]
    recent = [
        {"game": g, "name": n, "played_at": at, "place": pl, "won": w, "change": c, "rating": r}
        for g, n, at, pl, w, c, r in points
    ]
    expected = RECENT.render(Context({"recent": recent}))
    assert _spaces(recent_items(recent)) == _spaces(expected)
