"""What the score-sheet pages show, read from the engine's :class:`~games.GameState`.

Nothing here scores: every number comes from the state the engine folded (hand points,
running totals, standings, winners, the next hand's dealer and dirt rank…). This module
only arranges it for the templates: the grid, the banner of the hand in play, the final
ranking and the progression chart (the entry panel is ``web.sheet_panel``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import GameState, HandOutcome
from games.cards import (
    SUIT_SYMBOLS,
)
from scorekeeper.models import Game

RULESET_ENTRY_TEMPLATES = {
    "dirt": "games/_entry_left_in_hand.html",
    "dirty-uno": "games/_entry_left_in_hand.html",
    "damn-you": "games/_entry_damn_you.html",
    "dirty-deals": "games/_entry_dirty_deals.html",
    "screw-your-neighbour": "games/_entry_screw.html",
}
MINUS = "\u2212"
RED_SUITS = {"H", "D"}


def signed(n: int) -> str:
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"{MINUS}{-n}"
    return "0"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def goal_text(ruleset: str, options: Mapping[str, Any]) -> str:
    """How a game is won, in a few words, for these options."""
    if ruleset == "dirt":
        return "lowest total wins"
    if ruleset == "damn-you":
        return "most chips win"
    if ruleset == "dirty-deals":
        return "first to win two rubbers takes the match"
    if ruleset == "dirty-uno":
        if options.get("scoring", "standard") == "penalty":
            return "a score past 500 ends it; lowest score wins"
        return "first past 500 wins"
    if ruleset == "screw-your-neighbour":
        target = int(options.get("target_wins", 3) or 0)
        return f"first to {target} hand wins" if target else "most hand wins"
    return ""


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


@dataclass
class FooterRow:
    label: str
    values: list[str]
    css: str = ""


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


#: The sheet shows this many most recent hands unless asked for all of them: a game of
#: hundreds of hands stays a page of a known size.
RECENT_HANDS = 50
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


def columns_for(state: GameState, names: Mapping[int, str]) -> list[Column]:
    config = state.config
    if config.teams:
        return [
            Column(
                key=i,
                label=" & ".join(names[p] for p in team),
                title=f"Team {i + 1}: " + ", ".join(names[p] for p in team),
                players=tuple(team),
                team=i,
            )
            for i, team in enumerate(config.teams)
        ]
    return [Column(key=p, label=names[p], title=names[p], players=(p,)) for p in config.players]


def _hand_tag(ruleset: str, hand: HandOutcome) -> str:
    if ruleset == "dirt":
        return str(hand.extras.get("dirt_rank", ""))
    if ruleset == "dirty-deals":
        suit = str(hand.extras.get("suit", ""))
        return SUIT_SYMBOLS.get(suit, suit)
    return ""


def build_grid(
    game: Game,
    state: GameState,
    names: Mapping[int, str],
    *,
    recent: int | None = None,
) -> Grid:
    """The sheet's table; with ``recent``, rows for only the last ``recent`` hands
    (the totals still count every hand)."""
    ruleset = game.ruleset
    columns = columns_for(state, names)
    rows: list[GridRow] = []
    team_running = [0] * len(columns) if state.config.teams else []
    hidden = max(0, len(state.hands) - recent) if recent is not None else 0
    for index, hand in enumerate(state.hands):
        if index < hidden:
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
            note = ""
            if ruleset == "screw-your-neighbour":
                shown = "✓" if out else ""
            elif ruleset == "damn-you":
                shown = signed(pts)
            else:
                shown = str(pts) if (pts or out or ruleset == "dirt") else "·"
            if ruleset == "dirty-uno" and p in (hand.extras.get("resets") or []):
                note = "500 → 0"
            if ruleset == "dirty-deals" and pts and not out:
                note = "bower"
            cells.append(Cell(points=shown, total=str(total), out=out, note=note))
        divider = ""
        if ruleset == "dirty-deals" and hand.extras.get("rubber_won_by") is not None:
            who = names.get(int(hand.extras["rubber_won_by"]), "?")
            divider = f"Rubber {hand.extras.get('rubber')} to {who}"
            if state.ended_by == "match" and hand is state.hands[-1]:
                divider += ": the match is won"
            else:
                divider += " — scores start again at 0"
        if ruleset == "damn-you" and hand.extras.get("early_end"):
            divider = "Only one player holds chips: the game ends here"
        rows.append(
            GridRow(
                number=hand.number,
                tag=_hand_tag(ruleset, hand),
                dealer=names.get(hand.dealer, "?"),
                winner=names.get(hand.winner, "") if hand.winner is not None else "",
                cells=cells,
                divider=divider,
            )
        )
    footer = _footer(game, state, columns)
    tag_label = {"dirt": "Dirt", "dirty-deals": "Suit"}.get(ruleset, "")
    hints = {
        "dirt": "Points left in hand this hand; small: running total. Lowest total wins.",
        "dirty-uno": "Points scored this hand; small: running total.",
        "damn-you": "Chips won or lost this hand; small: chips held.",
        "dirty-deals": "Points this hand; small: points in the rubber.",
        "screw-your-neighbour": "✓ won the hand; small: hand wins.",
    }
    return Grid(
        columns=columns,
        rows=rows,
        footer=footer,
        tag_label=tag_label,
        points_hint=hints.get(ruleset, ""),
        hidden=hidden,
        total=len(state.hands),
    )


def _standing_by_column(state: GameState, columns: Sequence[Column]) -> dict[int, Any]:
    by_key: dict[int, Any] = {}
    for row in state.standings:
        key = row.team if row.team is not None else row.player
        if key is not None:
            by_key[key] = row
    return {c.key: by_key.get(c.key) for c in columns}


def _footer(game: Game, state: GameState, columns: Sequence[Column]) -> list[FooterRow]:
    standing = _standing_by_column(state, columns)
    label = {
        "damn-you": "Chips",
        "screw-your-neighbour": "Wins",
        "dirty-deals": "Points",
    }.get(game.ruleset, "Total")
    rows = [
        FooterRow(
            label,
            [str(standing[c.key].score) if standing[c.key] else "0" for c in columns],
            "total",
        )
    ]
    if game.ruleset == "dirty-deals":
        rows.insert(
            0,
            FooterRow(
                "Rubbers",
                [
                    str(standing[c.key].extras.get("rubbers", 0)) if standing[c.key] else "0"
                    for c in columns
                ],
                "rubbers",
            ),
        )
    if state.hands:
        rows.append(
            FooterRow(
                "Rank",
                [ordinal(standing[c.key].rank) if standing[c.key] else "" for c in columns],
                "rank",
            )
        )
    return rows


# -- banner, result, chart ----------------------------------------------------------------


@dataclass
class Fact:
    label: str
    value: str
    big: bool = False


@dataclass
class Banner:
    number: int
    of: int | None
    dealer: str
    facts: list[Fact] = field(default_factory=list)


def build_banner(game: Game, state: GameState, names: Mapping[int, str]) -> Banner | None:
    nxt = state.next_hand
    if nxt is None:
        return None
    ruleset = game.ruleset
    number = int(nxt["number"])
    banner = Banner(number=number, of=None, dealer=names.get(int(nxt["dealer"]), "?"))
    if ruleset == "dirt":
        banner.of = len(state.extras.get("dirt_ranks") or []) or None
        banner.facts.append(Fact("Dirt rank", str(nxt.get("dirt_rank", "")), big=True))
    elif ruleset == "damn-you":
        banner.of = int(state.extras.get("hands_total") or 0) or None
        short = [names.get(p, "?") for p in nxt.get("short") or []]
        banner.facts.append(Fact("Short (ante 2)", ", ".join(short) if short else "nobody"))
        ante = sum(int(a["amount"]) for a in nxt.get("ante") or [])
        banner.facts.append(Fact("Ante into the pot", str(ante)))
    elif ruleset == "dirty-deals":
        banner.facts.append(Fact("Rubber", str(nxt.get("rubber", "")), big=True))
        won = [
            f"{names.get(int(r['player']), '?')} {r['rubbers']}"
            for r in state.extras.get("rubbers") or []
            if r.get("rubbers")
        ]
        if won:
            banner.facts.append(Fact("Rubbers won", ", ".join(won)))
    elif ruleset == "dirty-uno":
        scoring = str(state.extras.get("scoring", "standard"))
        banner.facts.append(Fact("Scoring", scoring))
        banner.facts.append(Fact("Ends", "when a score passes 500"))
    elif ruleset == "screw-your-neighbour":
        target = int(state.extras.get("target_wins") or 0)
        banner.facts.append(
            Fact("Target", f"first to {target} wins" if target else "none — end the game by hand")
        )
    return banner


def build_ranking(state: GameState, columns: Sequence[Column], ruleset: str) -> list[RankLine]:
    by_key = {c.key: c for c in columns}
    winners = set(state.winners)
    lines: list[RankLine] = []
    for row in state.standings:
        key = row.team if row.team is not None else row.player
        col = by_key.get(key) if key is not None else None
        if col is None:
            continue
        score, extra = str(row.score), ""
        if ruleset == "dirty-deals":
            # The match is won on rubbers; points only count inside the unfinished one.
            rubbers = int(row.extras.get("rubbers", 0))
            score = f"{rubbers} rubber{'s' if rubbers != 1 else ''}"
            extra = f"{row.score} in the open rubber" if row.score else ""
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
    return {
        "hands": "after the last hand",
        "target": "when a player reached the target",
        "early": "early: only one player still held chips",
        "closed": "by hand, before its natural end",
        "score": "when a score passed 500",
        "match": "when a player won two rubbers",
    }.get(state.ended_by, "")


SERIES_CLASSES = 8


def build_chart(game: Game, state: GameState, columns: Sequence[Column]) -> Chart | None:
    """The running score of every column after each hand, as SVG polylines."""
    if not state.hands:
        return None
    start = int(state.extras.get("starting_chips", 0)) if game.ruleset == "damn-you" else 0
    values: list[list[int]] = []
    team_running = [0] * len(columns)
    for col_index, col in enumerate(columns):
        line = [start]
        for hand in state.hands:
            if state.config.teams and hand.team_points is not None:
                team_running[col_index] += hand.team_points[col_index]
                line.append(team_running[col_index])
            else:
                line.append(int(hand.totals.get(col.key, 0)))
        values.append(line)
    width, height = 340, 200
    # Margins fit axis labels of 16 units: at phone width they show at 14 px or more.
    left, right, top, bottom = 48, 12, 12, 32
    lo = min(min(v) for v in values)
    hi = max(max(v) for v in values)
    lo = min(lo, 0)
    if hi == lo:
        hi = lo + 1
    n = len(state.hands)

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
            )
        )
    step = _nice_step(hi - lo)
    first = (lo // step) * step
    y_ticks = [(y(v), v) for v in range(first, hi + 1, step) if v >= lo]
    x_step = 1 if n <= 12 else (2 if n <= 24 else 5 if n <= 60 else _nice_step(n // 2))
    x_ticks = [(x(i), i) for i in range(0, n + 1, x_step)]
    title = {
        "damn-you": "Chips after each hand",
        "screw-your-neighbour": "Hand wins",
        "dirty-deals": "Points in the rubber after each hand",
    }.get(game.ruleset, "Running totals after each hand")
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
        title=title,
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


def settlement(game: Game, state: GameState, names: Mapping[int, str]) -> dict[str, Any] | None:
    """D$%n You!: the chips paid and received in the last hand, as the engine moved them."""
    if game.ruleset != "damn-you" or not state.hands:
        return None
    last = state.hands[-1]
    rows = [
        {
            "name": names.get(int(c["player"]), "?"),
            "paid": int(c["paid"]),
            "received": int(c["received"]),
            "net": signed(int(c["received"]) - int(c["paid"])),
            "chips": int(last.totals.get(int(c["player"]), 0)),
            "out": int(c["player"]) == last.winner,
        }
        for c in last.extras.get("chips") or []
    ]
    return {
        "number": last.number,
        "rows": rows,
        "winner": names.get(last.winner, "") if last.winner is not None else "",
        "pot": sum(r["received"] for r in rows),
    }


def saved_summary(game: Game, hand: HandOutcome, names: Mapping[int, str]) -> str:
    """One line saying what a hand just saved scored."""
    if game.ruleset == "screw-your-neighbour":
        return f"Hand {hand.number}: {names.get(hand.winner or 0, '?')} won it."
    parts = []
    for p, pts in hand.points.items():
        if pts or p == hand.winner:
            value = signed(pts) if game.ruleset == "damn-you" else str(pts)
            parts.append(f"{names.get(p, '?')} {value}")
    return f"Hand {hand.number} saved: " + ", ".join(parts) + "."
