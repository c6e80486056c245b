"""Line charts drawn on the server: coordinates for ``templates/_line_chart.html``.

A chart here is an inline SVG the template writes out (no script, no style attribute:
the CSP holds). Each line ends in its player's name, written at the right of the plot;
names whose lines end close together are nudged apart (:func:`spread_labels`) and a
short leader joins each name to its line's end; a long name ends its line as its first
word (:func:`end_labels`; the chart's key under it names every line in full). Colours
and dash patterns come from the player's colour class (``player-c3``, players.css); the
text is that colour mixed with the ink (charts.css), since a marker colour alone is
only 3:1 against the page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

#: The labels' and ticks' font size and the least distance between two end labels'
#: middles, in viewBox units. The plot is 360 units wide and shown ~306 px wide on a
#: 360 px phone (the card's padding): 17 units show at 14 px.
LABEL_SIZE = 17
LABEL_GAP = 19
#: End labels longer than this many characters are cut, with an ellipsis.
LABEL_CHARS = 9
#: A generous width of a character of the labels' (bold) font, in font sizes: a
#: ten-letter name measured 6.5 font sizes in Chromium.
CHAR_WIDTH = 0.66
#: Ticks along the x axis (dates of ~6 letters: more would run into each other).
X_TICKS = 3


def short_label(name: str, limit: int = LABEL_CHARS) -> str:
    """``name`` cut to ``limit`` characters (the last one an ellipsis) when longer."""
    name = " ".join(name.split())
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "…"


def end_labels(names: Sequence[str], limit: int = LABEL_CHARS) -> list[str]:
    """The end labels of lines named ``names``: each name whole when it fits in
    ``limit`` characters, else its first word when that fits and no other line's label
    is the same (the chart's key names it in full), else cut (:func:`short_label`)."""
    wanted = []
    for name in names:
        name = " ".join(name.split())
        first = name.split(" ", 1)[0] if name else name
        wanted.append(name if len(name) <= limit else first if len(first) <= limit else None)
    taken = [w for w in wanted if w is not None]
    return [
        w if w is not None and taken.count(w) == 1 else short_label(n, limit)
        for n, w in zip(names, wanted, strict=True)
    ]


def label_room(labels: Sequence[str], size: float = LABEL_SIZE) -> int:
    """The width, in viewBox units, that end labels of ``labels`` in a font of ``size``
    need past the plot (the leader included)."""
    longest = max((len(short_label(s)) for s in labels), default=0)
    return math.ceil(14 + longest * CHAR_WIDTH * size)


def spread_labels(wanted: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Where to write labels that would sit at heights ``wanted`` (SVG y, down is
    larger) so that no two are closer than ``gap`` and all lie in ``[low, high]``.
    Labels keep their top-to-bottom order; a run of labels too close together is
    spread around where its lines end (centred on them, so it moves as little as it
    must), then kept inside. When they cannot all fit at ``gap``, they share the space
    evenly. Returned in the order of ``wanted``."""
    n = len(wanted)
    if n == 0:
        return []
    if n > 1 and (high - low) / (n - 1) < gap:
        gap = (high - low) / (n - 1)
    order = sorted(range(n), key=lambda i: (wanted[i], i))
    # Runs of neighbouring labels written ``gap`` apart: [first label's y, indices].
    runs: list[tuple[float, list[int]]] = []

    def place(members: list[int]) -> float:
        top = sum(wanted[i] - gap * k for k, i in enumerate(members)) / len(members)
        return min(max(top, low), high - gap * (len(members) - 1))

    for i in order:
        members = [i]
        top = place(members)
        # Merge with the run above while they overlap (a merged run may reach higher).
        while runs and runs[-1][0] + gap * len(runs[-1][1]) > top + 1e-9:
            members = runs.pop()[1] + members
            top = place(members)
        runs.append((top, members))
    placed = [0.0] * n
    for top, members in runs:
        for k, i in enumerate(members):
            placed[i] = round(top + gap * k, 1)
    return placed


def nice_step(span: float, most: int = 5) -> float:
    """A round tick step (1, 2, 2.5 or 5 times a power of ten) giving at most ``most``
    steps across ``span``."""
    if span <= 0:
        return 1.0
    raw = span / most
    power = 10 ** math.floor(math.log10(raw))
    for unit in (1, 2, 2.5, 5, 10):
        if unit * power >= raw:
            return float(unit * power)
    return float(10 * power)


def fmt(value: float) -> str:
    """A tick or value as people write it: ``3``, ``-2.5``."""
    return f"{value:g}" if value == int(value) else f"{value:.1f}"


@dataclass(frozen=True)
class PlotSeries:
    """A line to draw: its name, its colour class and its value at each point along
    the x axis (``None`` where it has none yet: the line starts at its first value)."""

    label: str
    css: str
    values: Sequence[float | None]


@dataclass
class ChartLine:
    label: str
    short: str
    css: str
    points: str
    end_x: float
    end_y: float
    label_y: float
    first: str
    last: str
    #: Whether the line has a single point (drawn as a dot only).
    single: bool = False


@dataclass
class LineChart:
    title: str
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    lines: list[ChartLine]
    y_ticks: list[tuple[float, str]]
    x_ticks: list[tuple[float, str]]
    #: Across and up, in words (under the chart and in its description).
    x_name: str
    y_name: str
    zero: float | None = None
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def label_x(self) -> int:
        return self.right + 12

    @property
    def y_label_x(self) -> int:
        return self.left - 5

    @property
    def x_label_y(self) -> int:
        return self.bottom + 22


def line_chart(
    series: Sequence[PlotSeries],
    x_labels: Sequence[str],
    *,
    title: str,
    x_name: str,
    y_name: str,
    width: int = 360,
    height: int = 230,
    whole: bool = False,
) -> LineChart | None:
    """The coordinates of ``series`` drawn over ``len(x_labels)`` points across, with
    end labels; ``None`` when there is nothing to draw. ``whole``: the values are
    counts (no tick between two whole numbers)."""
    count = len(x_labels)
    known = [v for s in series for v in s.values if v is not None]
    if count == 0 or not known:
        return None
    room = label_room([s.label for s in series])
    # Axis labels at the left and below; end labels at the right.
    left, top = 48, 12
    right, bottom = width - room, height - 32
    lo, hi = min(known), max(known)
    step = nice_step(hi - lo or 1, 4)
    if whole:
        step = max(step, 1.0)
    low = math.floor(lo / step) * step
    high = max(math.ceil(hi / step) * step, low + step)

    def x(i: int) -> float:
        return round(left + (right - left) * (i / (count - 1) if count > 1 else 1), 1)

    def y(v: float) -> float:
        return round(bottom - (bottom - top) * (v - low) / (high - low), 1)

    lines: list[ChartLine] = []
    shorts = end_labels([s.label for s in series])
    for s, short in zip(series, shorts, strict=True):
        at = [(i, v) for i, v in enumerate(s.values) if v is not None]
        if not at:
            continue
        last_i, last_v = at[-1]
        lines.append(
            ChartLine(
                label=s.label,
                short=short,
                css=s.css,
                points=" ".join(f"{x(i)},{y(v)}" for i, v in at),
                end_x=x(last_i),
                end_y=y(last_v),
                label_y=0,
                first=fmt(round(at[0][1], 1)),
                last=fmt(round(last_v, 1)),
                single=len(at) == 1,
            )
        )
    placed = spread_labels([ln.end_y for ln in lines], LABEL_GAP, top + 4, height - 8)
    for ln, label_y in zip(lines, placed, strict=True):
        ln.label_y = label_y
    y_ticks = []
    tick = low
    while tick <= high + step / 1000:
        y_ticks.append((y(tick), fmt(tick)))
        tick += step
    shown = min(count, X_TICKS)
    x_index = (
        sorted({round(i * (count - 1) / (shown - 1)) for i in range(shown)}) if shown > 1 else [0]
    )
    return LineChart(
        title=title,
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        lines=lines,
        y_ticks=y_ticks,
        x_ticks=[(x(i), x_labels[i]) for i in x_index],
        x_name=x_name,
        y_name=y_name,
        zero=y(0) if low < 0 < high else None,
    )
