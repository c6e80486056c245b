"""The standings rows and member links the league page builds in Python are exactly what
its template loops rendered before (whitespace between tags aside)."""

from __future__ import annotations

import re

from django.template import Context, Template
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.ratings.model import PROVISIONAL_GAMES
from scorekeeper.selectors.leagues import Member, _standing_row
from scorekeeper.web.league_html import member_items, one_decimal, player_href, standing_rows

# The template loops as they were (templates/leagues/detail.html).
# ruff: noqa: E501
ROWS = Template(
    """{% for row in standings %}
        <tr>
          <td class="num muted">{{ row.rank }}</td>
          <td class="lg-player"><a href="{{ row.href }}">{{ row.name }}</a></td>
          <td class="num lg-rating">{{ row.rating|floatformat:1 }}{% if row.provisional %}<span class="lg-prov" title="Provisional: fewer than {{ provisional_games }} games">?</span>{% endif %}</td>
          <td class="num">{{ row.games }}</td>
          <td class="num">{{ row.wins }}<span class="lg-rate">{% widthratio row.wins row.games 100 %}%</span></td>
          <td class="num">{{ row.avg_place|floatformat:1 }}</td>
        </tr>
        {% endfor %}"""
)
MEMBERS = Template(
    "{% for p in members_shown %}<li><a href=\"{% url 'player_detail' p.pk %}?league="
    '{{ league.pk }}">{{ p.name }}</a></li>{% endfor %}'
)


def _tight(html: str) -> str:
    return re.sub(r">\s+<", "><", html.strip())


@settings(deadline=None)
@given(
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
    | st.integers(-(10**6), 10**6)
    | st.none()
)
def test_one_decimal_is_floatformat_1(value: float | None) -> None:
    shown = Template("{{ v|floatformat:1 }}").render(Context({"v": value}))
    assert one_decimal(value) == shown
    # The player page's filter.
    assert (
        Template("{% load league_tags %}{{ v|one_decimal }}").render(Context({"v": value})) == shown
    )


NAMES = st.text(min_size=1, max_size=20)
LINES = st.lists(
    st.tuples(
        st.integers(1, 10_000),  # player id
        NAMES,
        st.integers(1, 600),  # games
        st.integers(0, 600),  # wins
        st.integers(0, 4000),  # place_sum
        st.floats(-10, 60, allow_nan=False),  # mu
        st.floats(0, 9, allow_nan=False),  # sigma
        st.floats(-30, 60, allow_nan=False),  # rating
    ),
    max_size=12,
)


@settings(deadline=None)
@given(LINES, st.sampled_from(["", "dirt"]))
def test_standing_rows_are_what_the_template_rendered(lines: list[tuple], scope: str) -> None:  # type: ignore[type-arg]
    standings = [_standing_row(i, *line) for i, line in enumerate(lines, start=1)]
    href = player_href() + "?league=7" + (f"&scope={scope}" if scope else "")
    for row in standings:
        row["href"] = href.format(row["player"])
    old = ROWS.render(Context({"standings": standings, "provisional_games": PROVISIONAL_GAMES}))
    assert _tight(standing_rows(standings, href)) == _tight(old)


class _League:
    pk = 7


@settings(deadline=None)
@given(st.lists(st.tuples(st.integers(1, 10_000), NAMES), max_size=10))
def test_member_items_are_what_the_template_rendered(members: list[tuple[int, str]]) -> None:
    shown = [Member(pk, name) for pk, name in members]
    old = MEMBERS.render(Context({"members_shown": shown, "league": _League()}))
    assert member_items(_League(), shown) == old  # type: ignore[arg-type]
