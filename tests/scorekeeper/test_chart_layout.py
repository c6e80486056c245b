"""Where the charts put things: end labels never overlap, keep the order of the lines
they name and stay in the picture; lines start where their player's history starts."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.web.charts import (
    LABEL_CHARS,
    LABEL_GAP,
    PlotSeries,
    label_room,
    line_chart,
    short_label,
    spread_labels,
)


def _apart(ys: list[float], gap: float) -> bool:
    ordered = sorted(ys)
    return all(b - a >= gap - 0.11 for a, b in itertools.pairwise(ordered))


def test_labels_far_enough_apart_stay_where_their_lines_end() -> None:
    assert spread_labels([20, 100, 60], 16, 0, 200) == [20, 100, 60]


def test_labels_of_lines_ending_together_are_nudged_apart_in_order() -> None:
    placed = spread_labels([100, 101, 99, 100.5], 16, 0, 200)
    assert _apart(placed, 16)
    # The top-to-bottom order of the line ends is the order of their names.
    assert sorted(range(4), key=lambda i: placed[i]) == [2, 0, 3, 1]
    # They share the nudge around where the lines end, not all pushed one way.
    assert min(placed) < 99 < 101 < max(placed)


def test_labels_at_the_bottom_edge_are_pushed_up_not_out_of_the_picture() -> None:
    placed = spread_labels([195, 196, 197], 16, 0, 200)
    assert max(placed) <= 200
    assert _apart(placed, 16)


def test_more_labels_than_fit_share_the_space_evenly() -> None:
    placed = spread_labels([50] * 12, 16, 0, 110)
    assert min(placed) >= 0
    assert max(placed) <= 110
    assert _apart(placed, 10)


@given(
    st.lists(st.floats(min_value=-50, max_value=300, allow_nan=False), max_size=12),
)
def test_labels_never_overlap_and_stay_inside(wanted: list[float]) -> None:
    placed = spread_labels(wanted, LABEL_GAP, 10, 250)
    assert len(placed) == len(wanted)
    assert all(10 - 0.1 <= y <= 250 + 0.1 for y in placed)
    assert _apart(placed, LABEL_GAP)
    # A label whose line ends lower is never written higher.
    for i, j in itertools.combinations(range(len(wanted)), 2):
        if wanted[i] < wanted[j]:
            assert placed[i] <= placed[j]


def test_long_names_are_cut_and_the_plot_leaves_room_for_them() -> None:
    assert short_label("Ana") == "Ana"
    cut = short_label("Grandpa Joe Senior")
    assert len(cut) <= LABEL_CHARS
    assert cut.endswith("…")
    assert label_room(["Ana"]) < label_room(["Grandpa Joe Senior"])
    # However long a name, its label is no wider than the longest one kept.
    assert label_room(["x" * 40]) == label_room(["x" * LABEL_CHARS])


def test_a_line_chart_of_three_players_ends_in_three_names() -> None:
    chart = line_chart(
        [
            PlotSeries("Ana", "player-c1", [1, 2, 3]),
            PlotSeries("Bo", "player-c2", [None, 3, 3]),
            PlotSeries("Cy", "player-c3", [0, 0, 3]),
        ],
        ["1 Nov", "2 Nov", "3 Nov"],
        title="t",
        x_name="nights",
        y_name="rating",
    )
    assert chart is not None
    assert [ln.short for ln in chart.lines] == ["Ana", "Bo", "Cy"]
    # All three end at 3: their names are nudged apart.
    assert len({ln.end_y for ln in chart.lines}) == 1
    assert _apart([ln.label_y for ln in chart.lines], LABEL_GAP)
    # Bo's line starts on the second night; the names sit right of the plot.
    assert chart.lines[1].points.count(",") == 2
    assert all(ln.end_x == chart.right < chart.label_x for ln in chart.lines)
    assert chart.label_x + label_room(["Ana"]) <= chart.width + 14
    assert [label for _, label in chart.x_ticks] == ["1 Nov", "2 Nov", "3 Nov"]


@pytest.mark.parametrize("values", [[], [None, None]])
def test_nothing_to_draw_is_no_chart(values: list[float | None]) -> None:
    assert (
        line_chart([PlotSeries("Ana", "", values)], ["a", "b"], title="t", x_name="x", y_name="y")
        is None
    )


def test_counts_are_ticked_in_whole_numbers() -> None:
    chart = line_chart(
        [PlotSeries("Ana", "", [0, 1, 2]), PlotSeries("Bo", "", [0, 0, 1])],
        ["0", "1", "2"],
        title="t",
        x_name="games",
        y_name="wins",
        whole=True,
    )
    assert chart is not None
    assert [label for _, label in chart.y_ticks] == ["0", "1", "2"]


def test_a_long_name_ends_its_line_as_its_first_word_unless_another_line_has_it() -> None:
    from scorekeeper.web.charts import end_labels

    assert end_labels(["Ana", "Grandpa Joe Senior", "Kit"]) == ["Ana", "Grandpa", "Kit"]
    # Two lines would end alike: the long names are cut instead, as before the key.
    both = end_labels(["Grandpa Joe Senior", "Grandpa Bill", "Grandpa"])
    assert both == [short_label("Grandpa Joe Senior"), short_label("Grandpa Bill"), "Grandpa"]
    assert all(len(b) <= LABEL_CHARS for b in both)
    assert end_labels(["Bartholomew-Smythe"]) == [short_label("Bartholomew-Smythe")]
