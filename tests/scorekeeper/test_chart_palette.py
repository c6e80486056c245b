"""The players' colours (static/css/players.css) keep ten lines on one chart apart, in
the light theme and the dark one: any two are far apart as the eye sees colour
(CIEDE2000), and each stands out from the page (3:1, as for any graphic)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from scorekeeper.models import PLAYER_COLOURS
from tests.scorekeeper.colour_math import ciede2000, contrast, lab

STATIC = Path(__file__).resolve().parents[2] / "static" / "css"
#: The least CIEDE2000 difference between two of the palette's colours. About 2 is
#: "just noticeable"; the palette as it was before Nov 2026 had teal and cyan 11.9 apart
#: and amber and orange 13.0 on a white page, and looked alike as thin lines.
LEAST_DIFFERENCE = 18


def _blocks(css: str) -> tuple[str, str, str]:
    """The light block, the dark block under the system's choice and the dark block of
    the switch, as text."""
    media = css.index("@media (prefers-color-scheme: dark)")
    switch = re.compile(r':root\[data-theme="?dark"?\]\s*\{').search(css, media)
    assert switch is not None
    return (
        css[:media],
        css[media : switch.start()],
        css[switch.start() : css.index("}", switch.start())],
    )


def _vars(block: str, prefix: str) -> dict[str, str]:
    return dict(re.findall(rf"--({prefix}[\w-]*):\s*(#[0-9a-fA-F]{{6}})", block))


def _palette(block: str) -> list[str]:
    found = _vars(block, "player-")
    return [found[f"player-{i}"] for i in range(1, PLAYER_COLOURS + 1)]


PLAYERS = (STATIC / "players.css").read_text()
APP = (STATIC / "app.css").read_text()


def _themes() -> dict[str, tuple[list[str], list[str]]]:
    """Each theme's ten colours and the backgrounds a chart sits on (page and card)."""
    p_light, p_system, p_switch = _blocks(PLAYERS)
    a_light, a_system, a_switch = _blocks(APP)
    assert _palette(p_system) == _palette(p_switch), "the two dark blocks differ"
    assert _vars(a_system, "bg") == _vars(a_switch, "bg")
    grounds = ("bg", "surface")
    return {
        "light": (_palette(p_light), [_vars(a_light, g)[g] for g in grounds]),
        "dark": (_palette(p_switch), [_vars(a_switch, g)[g] for g in grounds]),
    }


THEMES = _themes()


def test_the_colour_difference_is_the_published_one() -> None:
    """Pairs from Sharma, Wu and Dalal's test data for CIEDE2000."""
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, -1.3802, -84.2814), (50, 0, -82.7485)) == pytest.approx(1.0, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)
    assert ciede2000((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514)) == pytest.approx(
        0.9082, abs=1e-4
    )


@pytest.mark.parametrize("theme", list(THEMES))
def test_every_two_player_colours_are_far_apart(theme: str) -> None:
    colours, _ = THEMES[theme]
    assert len(set(colours)) == PLAYER_COLOURS
    closest = min(
        (ciede2000(lab(one), lab(two)), i + 1, j + 1)
        for (i, one), (j, two) in itertools.combinations(enumerate(colours), 2)
    )
    assert closest[0] >= LEAST_DIFFERENCE, (
        f"colours {closest[1]} and {closest[2]}: {closest[0]:.1f}"
    )


@pytest.mark.parametrize("theme", list(THEMES))
def test_every_player_colour_stands_out_from_the_page(theme: str) -> None:
    colours, grounds = THEMES[theme]
    low = [(c, g, round(contrast(c, g), 2)) for c in colours for g in grounds if contrast(c, g) < 3]
    assert low == []


def test_half_the_colours_also_draw_a_dashed_line() -> None:
    """Lines of similar hues differ in pattern too (a colour-blind reader, a grey print)."""
    dashed = re.findall(r"\.player-c(\d+) \{[^}]*--player-dash:", PLAYERS)
    assert len(dashed) == PLAYER_COLOURS // 2
