"""What the score-sheet pages show, read from the engine's :class:`~games.GameState`.

Nothing here scores: every number comes from the state the engine folded (hand points,
running totals, standings, winners, the next hand's dealer and dirt rank…). This module
only arranges it for the templates: the grid, the banner of the hand in play, the final
ranking and the progression chart (the entry panel is ``web.sheet_panel``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import GameState
from scorekeeper.models import Game
from scorekeeper.presenters import presenter_for
from scorekeeper.presenters.base import Fact, FooterRow, ordinal
from scorekeeper.selectors.rows import Running, running_of
from scorekeeper.web.charts import label_room, short_label, spread_labels

# -- the grid -----------------------------------------------------------------------------


@dataclass
class Column:
    """A column of the grid: one player, or one team in partner play."""

    key: int
    label: str
    title: str
    players: tuple[int, ...]
    team: int | None = None
    #: The player's colour class (``player-c3``, players.css); a team's: its first
    #: player's. Set by ``services.player_admin.apply_markers``.
    marker: str = ""


@dataclass
class Cell:
    points: str
    total: str
    out: bool = False
    note: str = ""


@dataclass
class GridRow:
    number: int
    tag: str
    dealer: str
    winner: str
    cells: list[Cell]
    divider: str = ""
    #: Corrected since it was first saved (``Game.corrected_hands``).
    corrected: bool = False
    #: The hand number's link to its correction, and the words on it: made here, once a
    #: grid, rather than by ``{% url %}`` and ``{% blocktranslate %}`` in every row (the
    #: grid shows up to 50 rows; the two tags were a third of a row's render).
    edit_url: str = ""
    edit_title: str = ""
    dealer_title: str = ""


@dataclass
class Grid:
    columns: list[Column]
    rows: list[GridRow]
    footer: list[FooterRow]
    tag_label: str
    points_hint: str
    #: Earlier hands left out (the sheet shows the most recent ones), and all of them.
    hidden: int = 0
    total: int = 0

    @property
    def shown(self) -> int:
        """The hands the sheet shows (a live answer's rows may be only the changed ones)."""
        return self.total - self.hidden


#: The chart draws at most this many points per line, however many hands were played.
CHART_POINTS = 120


@dataclass
class RankLine:
    rank: int
    place: str
    label: str
    score: str
    extra: str
    won: bool


@dataclass
class Series:
    label: str
    css: str
    points: str
    values: list[int]
    last_x: float = 0
    last_y: float = 0
    #: The end label: the name (cut when long) and its height, nudged off the others.
    short: str = ""
    label_y: float = 0


@dataclass
class Chart:
    width: int
    height: int
    series: list[Series]
    y_ticks: list[tuple[float, int]]
    x_ticks: list[tuple[float, int]]
    left: int
    right: int
    top: int
    bottom: int
    title: str

    @property
    def y_label_x(self) -> int:
        return self.left - 5

    @property
    def x_label_y(self) -> int:
        return self.bottom + 20

    @property
    def label_x(self) -> int:
        return self.right + 12


def columns_for(state: GameState, names: Mapping[int, str]) -> list[Column]:
    config = state.config
    if config.teams:
        return [
            Column(
                key=i,
                label=" & ".join(names[p] for p in team),
                title=_("Team %(number)s: %(players)s")
                % {"number": i + 1, "players": ", ".join(names[p] for p in team)},
                players=tuple(team),
                team=i,
            )
            for i, team in enumerate(config.teams)
        ]
    return [Column(key=p, label=names[p], title=names[p], players=(p,)) for p in config.players]


def hand_urls(game_pk: int) -> Callable[[int], str]:
    """The correction link of each hand of a game, from one ``reverse()``: the number is
    the URL's last part (``games/<pk>/hands/<number>/``)."""
    head, tail = reverse("game_hand_edit", args=[game_pk, 1]).rsplit("/1/", 1)
    return lambda number: f"{head}/{number}/{tail}"


def build_grid(
    game: Game,
    state: GameState,
    names: Mapping[int, str],
    *,
    recent: int | None = None,
    since: int | None = None,
) -> Grid:
    """The sheet's table; with ``recent``, rows for only the last ``recent`` hands
    (the totals still count every hand); with ``since``, of those only the rows of hands
    ``since`` onwards (what changed, for a phone that has the others)."""
    shows = presenter_for(state.config.ruleset)
    columns = columns_for(state, names)
    corrected = set(game.corrected_hands or ())
    edit_url = hand_urls(game.pk)
    edit_title = _("Correct hand %(number)s (dealer %(dealer)s)")
    dealer_title = _("Dealer %(dealer)s")
    rows: list[GridRow] = []
    team_running = _team_start(state, len(columns))
    # ``state.hands`` may hold only the last hands (the sheet's rows, read in SQL).
    skip = _skipped(state, recent)
    for index, hand in enumerate(state.hands):
        if index < skip or (since is not None and hand.number < since):
            if state.config.teams and hand.team_points is not None:
                for i in range(len(columns)):
                    team_running[i] += hand.team_points[i]
            continue
        cells: list[Cell] = []
        for i, col in enumerate(columns):
            out = hand.winner in col.players
            if state.config.teams and hand.team_points is not None:
                team_running[i] += hand.team_points[i]
                cells.append(
                    Cell(points=str(hand.team_points[i]), total=str(team_running[i]), out=out)
                )
                continue
            p = col.key
            pts = int(hand.points.get(p, 0))
            total = int(hand.totals.get(p, 0))
            cells.append(
                Cell(
                    points=shows.cell_points(pts, out),
                    total=str(total),
                    out=out,
                    note=shows.cell_note(hand, p, pts, out),
                )
            )
        dealer = names.get(hand.dealer, "?")
        rows.append(
            GridRow(
                number=hand.number,
                tag=shows.hand_tag(hand),
                dealer=dealer,
                winner=names.get(hand.winner, "") if hand.winner is not None else "",
                cells=cells,
                divider=shows.divider(state, hand, names),
                corrected=hand.number in corrected,
                edit_url=edit_url(hand.number),
                edit_title=edit_title % {"number": hand.number, "dealer": dealer},
                dealer_title=dealer_title % {"dealer": dealer},
            )
        )
    return Grid(
        columns=columns,
        rows=rows,
        footer=_footer(state, columns),
        tag_label=str(shows.tag_label),
        points_hint=str(shows.points_hint),
        hidden=hidden_rows(state, recent),
        total=state.played,
    )


def _skipped(state: GameState, recent: int | None) -> int:
    """The hands of ``state.hands`` the grid leaves out, to show only ``recent``."""
    return max(0, len(state.hands) - recent) if recent is not None else 0


def hidden_rows(state: GameState, recent: int | None) -> int:
    """The earlier hands a grid of the ``recent`` last ones leaves out (the ``hidden``
    of :func:`build_grid`'s grid, without building it)."""
    return state.played - len(state.hands) + _skipped(state, recent)


def _team_start(state: GameState, count: int) -> list[int]:
    """Partner play: each team's score before ``state.hands`` (0 when they start at
    the first hand): its score now less what those hands gave it."""
    if not state.config.teams:
        return []
    if not state.hands or state.hands[0].number == 1:
        return [0] * count
    now = {row.team: row.score for row in state.standings if row.team is not None}
    return [
        now.get(i, 0) - sum(h.team_points[i] for h in state.hands if h.team_points is not None)
        for i in range(count)
    ]


def _standing_by_column(state: GameState, columns: Sequence[Column]) -> dict[int, Any]:
    by_key: dict[int, Any] = {}
    for row in state.standings:
        key = row.team if row.team is not None else row.player
        if key is not None:
            by_key[key] = row
    return {c.key: by_key.get(c.key) for c in columns}


def _footer(state: GameState, columns: Sequence[Column]) -> list[FooterRow]:
    by_column = _standing_by_column(state, columns)
    standing = [by_column[c.key] for c in columns]
    shows = presenter_for(state.config.ruleset)
    rows = [
        *shows.footer_rows(standing),
        FooterRow(str(shows.total_label), [str(r.score) if r else "0" for r in standing], "total"),
    ]
    if state.hands:
        rows.append(FooterRow(_("Rank"), [ordinal(r.rank) if r else "" for r in standing], "rank"))
    return rows


# -- banner, result, chart ----------------------------------------------------------------


@dataclass
class Banner:
    number: int
    of: int | None
    dealer: str
    facts: list[Fact] = field(default_factory=list)


def build_banner(state: GameState, names: Mapping[int, str]) -> Banner | None:
    nxt = state.next_hand
    if nxt is None:
        return None
    shows = presenter_for(state.config.ruleset)
    return Banner(
        number=int(nxt["number"]),
        of=shows.hands_total(state),
        dealer=names.get(int(nxt["dealer"]), "?"),
        facts=shows.banner_facts(state, nxt, names),
    )


def build_ranking(state: GameState, columns: Sequence[Column]) -> list[RankLine]:
    shows = presenter_for(state.config.ruleset)
    by_key = {c.key: c for c in columns}
    winners = set(state.winners)
    lines: list[RankLine] = []
    for row in state.standings:
        key = row.team if row.team is not None else row.player
        col = by_key.get(key) if key is not None else None
        if col is None:
            continue
        score, extra = shows.ranking_score(row)
        lines.append(
            RankLine(
                rank=row.rank,
                place=ordinal(row.rank),
                label=col.label,
                score=score,
                extra=extra,
                won=bool(set(row.players) & winners),
            )
        )
    return lines


def ended_by_text(state: GameState, names: Mapping[int, str]) -> str:
    said = {
        "hands": gettext_noop("after the last hand"),
        "target": gettext_noop("when a player reached the target"),
        "early": gettext_noop("early: only one player still held chips"),
        "closed": gettext_noop("by hand, before its natural end"),
        "score": gettext_noop("when a score passed 500"),
        "match": gettext_noop("when a player won two rubbers"),
    }.get(state.ended_by or "", "")
    return _(said) if said else ""


SERIES_CLASSES = 8
#: The end labels' font size (as the axis labels: 14 px or more on a phone).
END_LABEL = 16


def build_chart(
    state: GameState, columns: Sequence[Column], running: Sequence[Running] | None = None
) -> Chart | None:
    """The running score of every column after each hand, as SVG polylines: of every
    hand in ``running``, or in ``state`` (whole) without it."""
    hands = running_of(state) if running is None else running
    if not hands:
        return None
    shows = presenter_for(state.config.ruleset)
    start = shows.chart_start(state)
    values: list[list[int]] = []
    team_running = [0] * len(columns)
    for col_index, col in enumerate(columns):
        line = [start]
        for hand in hands:
            if state.config.teams and hand.team_points is not None:
                team_running[col_index] += hand.team_points[col_index]
                line.append(team_running[col_index])
            else:
                line.append(int(hand.totals.get(col.key, 0)))
        values.append(line)
    width, height = 340, 200
    # Margins fit axis labels of 16 units: at phone width they show at 14 px or more;
    # at the right, each line's end label (the name).
    left, right, top, bottom = 48, label_room([c.label for c in columns], END_LABEL), 12, 32
    lo = min(min(v) for v in values)
    hi = max(max(v) for v in values)
    lo = min(lo, 0)
    if hi == lo:
        hi = lo + 1
    n = len(hands)

    def x(i: int) -> float:
        return round(left + (width - left - right) * i / n, 1)

    def y(v: int) -> float:
        return round(top + (height - top - bottom) * (hi - v) / (hi - lo), 1)

    # A long game is drawn through evenly spread hands (the last one always): a line of
    # a thousand points is no clearer than one of a hundred, only heavier.
    shown = _spread(n + 1, CHART_POINTS)
    series: list[Series] = []
    for index, (col, line) in enumerate(zip(columns, values, strict=True)):
        pts = " ".join(f"{x(i)},{y(line[i])}" for i in shown)
        series.append(
            Series(
                label=col.label,
                css=col.marker or f"series-{index % SERIES_CLASSES}",
                points=pts,
                values=[line[i] for i in shown],
                last_x=x(n),
                last_y=y(line[-1]),
                short=short_label(col.label),
            )
        )
    placed = spread_labels([ser.last_y for ser in series], END_LABEL + 2, top + 4, height - 8)
    for ser, label_y in zip(series, placed, strict=True):
        ser.label_y = label_y
    step = _nice_step(hi - lo)
    first = (lo // step) * step
    y_ticks = [(y(v), v) for v in range(first, hi + 1, step) if v >= lo]
    x_step = 1 if n <= 12 else (2 if n <= 24 else 5 if n <= 60 else _nice_step(n // 2))
    x_ticks = [(x(i), i) for i in range(0, n + 1, x_step)]
    return Chart(
        width=width,
        height=height,
        series=series,
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        left=left,
        right=width - right,
        top=top,
        bottom=height - bottom,
        title=str(shows.chart_title),
    )


def _spread(count: int, most: int) -> list[int]:
    """At most ``most`` indexes of ``range(count)``, evenly spread, first and last kept."""
    if count <= most:
        return list(range(count))
    last = count - 1
    return sorted({round(i * last / (most - 1)) for i in range(most)})


def _nice_step(span: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if span / step <= 5:
            return step
    return 10000
