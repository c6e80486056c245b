"""The score grid's rows built in Python are the HTML the template loop rendered: same
markup, same text, every value escaped, character for character."""

from __future__ import annotations

from dataclasses import dataclass

from django.template import engines
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.web.forms import Entry, PlayerEntry
from scorekeeper.web.scoreboard import BoardLine, Scoreboard
from scorekeeper.web.sheet import Cell, Column, FooterRow, Grid, GridRow
from scorekeeper.web.sheet_panel import PanelPlayer
from scorekeeper.web.sheet_rows import grid_rows, winner_chips

# The loop ``games/sheet.html`` had before the rows were built in Python.
TEMPLATE_LOOP = """\
          {% for row in grid.rows %}
          <tr class="hand-row" data-hand="{{ row.number }}">
            <th scope="row" class="hand-col">
              {% if row.edit_url %}<a href="{{ row.edit_url }}" hx-get="{{ row.edit_url }}" hx-target="#entry" hx-swap="outerHTML show:#entry:top" title="Correct hand {{ row.number }} (dealer {{ row.dealer }})">{{ row.number }}</a>{% else %}<span title="Dealer {{ row.dealer }}">{{ row.number }}</span>{% endif %}
              {% if row.tag %}<span class="hand-tag">{{ row.tag }}</span>{% endif %}
            </th>
            {% for cell in row.cells %}
            <td class="{% if cell.out %}out{% endif %}">
              <span class="pts">{{ cell.points }}</span>
              <span class="run">{{ cell.total }}</span>
              {% if cell.note %}<span class="note">{{ cell.note }}</span>{% endif %}
            </td>
            {% endfor %}
          </tr>
          {% if row.divider %}<tr class="divider"><td colspan="{{ grid.columns|length|add:1 }}">{{ row.divider }}</td></tr>{% endif %}
          {% empty %}
          <tr class="empty"><td colspan="{{ grid.columns|length|add:1 }}">No hands yet.</td></tr>
          {% endfor %}
"""  # noqa: E501
PYTHON_ROWS = "{% load sheet_html %}          {{ grid|grid_rows }}\n"
# And its footer.
TEMPLATE_FOOTER = """\
          {% for row in grid.footer %}
          <tr class="{{ row.css }}"><th scope="row">{{ row.label }}</th>{% for value in row.values %}<td>{{ value }}</td>{% endfor %}</tr>
          {% endfor %}
"""  # noqa: E501
PYTHON_FOOTER = "{% load sheet_html %}          {{ grid|grid_footer }}\n"

text = st.text(alphabet=st.sampled_from("aZ 0<>&\"'/·✓→—é"), max_size=12)
cells = st.builds(Cell, points=text, total=text, out=st.booleans(), note=text)


@st.composite
def grids(draw: st.DrawFn) -> Grid:
    width = draw(st.integers(min_value=2, max_value=6))
    columns = [Column(key=i, label=f"P{i}", title=f"P{i}", players=(i,)) for i in range(width)]
    rows = draw(
        st.lists(
            st.builds(
                GridRow,
                number=st.integers(min_value=1, max_value=5000),
                tag=text,
                dealer=text,
                winner=text,
                cells=st.lists(cells, min_size=width, max_size=width),
                divider=text,
                edit_url=st.sampled_from(["", "/games/7/hands/3/", "/g?a=1&b=<2>"]),
            ),
            max_size=4,
        )
    )
    footer = draw(
        st.lists(
            st.builds(
                FooterRow,
                label=text,
                values=st.lists(text, min_size=width, max_size=width),
                css=st.sampled_from(["", "total", "rank", "rubbers", '"x"']),
            ),
            max_size=3,
        )
    )
    return Grid(columns=columns, rows=rows, footer=footer, tag_label="", points_hint="")


def render(source: str, grid: Grid) -> str:
    return engines["django"].from_string(source).render({"grid": grid})


@settings(max_examples=150, deadline=None)
@given(grids())
def test_python_rows_are_the_template_rows(grid: Grid) -> None:
    assert render(PYTHON_ROWS, grid) == render(TEMPLATE_LOOP, grid)
    assert render(PYTHON_FOOTER, grid) == render(TEMPLATE_FOOTER, grid)


CHIPS_LOOP = """\
    {% for p in panel.players %}
    <label class="chip-radio">
      <input type="radio" name="winner" value="{{ p.id }}"{% if panel.entry.winner == p.id|stringformat:"d" %} checked{% endif %}>
      <span>{{ p.name }}</span>
    </label>
    {% endfor %}
"""  # noqa: E501
BOARD_LOOP = """\
    {% for line in scoreboard.lines %}
    <li class="board-line{% if line.leader %} leader{% endif %}">
      <span class="board-place">{{ line.place }}</span>
      <span class="board-who">
        <span class="board-name">{% if line.marker %}<span class="player-dot {{ line.marker }}" aria-hidden="true"></span>{% endif %}{{ line.label }}</span>
        <span class="board-need">{{ line.need }}</span>
      </span>
      <span class="board-score">
        {% if line.rubbers %}<span class="board-rubbers" title="Rubbers won">{% for won in line.rubbers %}<span class="rubber-mark{% if won %} won{% endif %}" aria-hidden="true"></span>{% endfor %}<span class="visually-hidden">{{ line.rubbers_won }} rubber{{ line.rubbers_won|pluralize }} won,</span></span>{% endif %}
        <strong class="board-number">{{ line.score }}</strong><small class="board-unit">{{ line.unit }}</small>
      </span>
    </li>
    {% endfor %}
"""  # noqa: E501
PYTHON_BOARD = "{% load sheet_html %}    {{ scoreboard.lines|board_lines }}\n"

lines = st.builds(
    BoardLine,
    rank=st.integers(min_value=1, max_value=9),
    place=text,
    label=text,
    score=text,
    unit=text,
    need=text,
    leader=st.booleans(),
    rubbers=st.lists(st.booleans(), max_size=3),
    rubbers_won=st.integers(min_value=0, max_value=3),
)


@settings(max_examples=100, deadline=None)
@given(st.lists(lines, max_size=6))
def test_python_scoreboard_lines_are_the_template_lines(board: list[BoardLine]) -> None:
    engine = engines["django"]
    context = {"scoreboard": Scoreboard(title="t", goal="g", lines=board)}
    old = engine.from_string(BOARD_LOOP).render(context)
    assert engine.from_string(PYTHON_BOARD).render(context) == old


PYTHON_CHIPS = "{% load sheet_html %}    {% winner_chips panel %}\n"


@dataclass
class FakePanel:
    players: list[PanelPlayer]
    entry: Entry


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(min_value=1, max_value=10**6), text), max_size=6),
    st.one_of(text, st.integers(min_value=1, max_value=10**6).map(str)),
)
def test_python_winner_chips_are_the_template_chips(
    players: list[tuple[int, str]], chosen: str
) -> None:
    seated = [
        PanelPlayer(id=i, name=name, dealer=False, entry=PlayerEntry()) for i, name in players
    ]
    if players and chosen == "":
        chosen = str(players[0][0])
    panel = FakePanel(seated, Entry(winner=chosen))
    engine = engines["django"]
    old = engine.from_string(CHIPS_LOOP).render({"panel": panel})
    assert engine.from_string(PYTHON_CHIPS).render({"panel": panel}) == old
    assert winner_chips(seated, chosen) in old


def test_rows_escape_what_players_typed() -> None:
    row = GridRow(
        number=3,
        tag="<b>",
        dealer='Al "x" <script>',
        winner="",
        cells=[Cell(points="5", total="10", out=True, note="a&b")],
        edit_url="/games/1/hands/3/",
    )
    html = grid_rows(Grid(columns=[], rows=[row], footer=[], tag_label="", points_hint=""))
    assert "<script>" not in html
    assert "(dealer Al &quot;x&quot; &lt;script&gt;)" in html
    assert '<span class="hand-tag">&lt;b&gt;</span>' in html
    assert '<td class="out">' in html
    assert '<span class="note">a&amp;b</span>' in html


def test_a_kept_blank_pad_is_the_pad_rendered_afresh() -> None:
    from scorekeeper.templatetags import sheet_html

    player = PanelPlayer(id=41, name="Zoë <3", dealer=False, entry=PlayerEntry())
    panel = FakePanel([player], Entry())
    panel.pad = {"kind": "uno"}  # type: ignore[attr-defined]
    panel.scoring = "standard"  # type: ignore[attr-defined]
    kept = sheet_html.cards_pad(player, panel)  # type: ignore[arg-type]
    assert sheet_html.cards_pad(player, panel) is kept  # type: ignore[arg-type]
    fresh = sheet_html._render_pad({"p": player, "kind": "uno", "scoring": "standard"})
    assert kept == fresh
    assert 'data-name="Zoë &lt;3"' in kept
    assert "e.g. G7 BS W+4" in kept
    assert "scores everyone else&#x27;s cards" in kept or "scores everyone else's cards" in kept
    typed = PanelPlayer(
        id=41,
        name="Zoë <3",
        dealer=False,
        entry=PlayerEntry(cards="R7"),
        error="Bad card",
        problems=["Bad card"],
    )
    shown = sheet_html.cards_pad(typed, panel)  # type: ignore[arg-type]
    assert 'value="R7"' in shown
    assert '<span class="pad-problem">Bad card</span>' in shown
    assert 'aria-describedby="problems-41"' in shown


def test_the_sheet_url_and_static_tags_give_what_django_gives() -> None:
    engine = engines["django"]
    source = (
        "{% url 'game_hand_edit' 12 3 %} {% url 'game_sheet' 12 %} {% url 'home' %} "
        "{% url 'rules_detail' 'dirt' %} {% url 'game_live' 7 as live %}[{{ live }}] "
        "{% static 'css/sheet.css' %} {% static 'js/sheet.js' as js %}[{{ js }}]"
    )
    django_tags = engine.from_string("{% load static %}" + source).render({})
    ours = "{% load static sheet_html %}" + source
    assert engine.from_string(ours).render({}) == django_tags
    assert engine.from_string(ours).render({}) == django_tags  # and once kept
    assert "/games/12/hands/3/" in django_tags
