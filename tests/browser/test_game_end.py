"""The end of a game, where the table looks: the table display at 1280x720 turns into the
final standings when the last hand is in (live, no reload), winner first and big enough
to read across the table, filling the screen; a finished sheet at 390x844 has the
winner, the standings and "Play again" in its first screen. Light and dark, axe clean.
Screenshots go to $SCREENSHOTS when set."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games import get_ruleset
from scorekeeper.models import Game, Player
from scorekeeper.selectors.games import game_config
from scorekeeper.services.games import game_close, game_create, hand_record
from scorekeeper.simulate import next_hand
from tests.browser.sheet_ui import watch
from tests.browser.test_accessibility import _axe_violations

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("SCREENSHOTS", "")
NAMES = ("Bo", "Cy", "Dmitri Alexandrovich", "Eve")


def table(slug: str, hands: int | None) -> Game:
    """A game of ana and four others through the services: ``hands`` hands, or to its end."""
    owner = User.objects.get(username="ana")
    seated = [Player.objects.get(user=owner).pk]
    seated += [Player.objects.create(name=n, created_by=owner).pk for n in NAMES]
    game = game_create(owner=owner, ruleset=slug, players=seated)
    config = game_config(game)
    state = get_ruleset(slug).play(config, [])
    rng = random.Random(7)
    skill = dict.fromkeys(seated, 0.0)
    while not state.finished and state.played < (hands or 80):
        state = hand_record(
            game=game, user=owner, hand_input=next_hand(rng, config, state, skill)
        ).state
    if hands is None and not state.finished:
        game_close(game=game, user=owner)
    return game


def themed(page: Any, name: str) -> None:
    """Axe in the light and the dark theme (and a screenshot of each when asked)."""
    for theme in ("light", "dark"):
        page.evaluate("t => document.documentElement.setAttribute('data-theme', t)", theme)
        assert _axe_violations(page) == [], theme
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/{name}-{theme}.png", full_page=False)
    page.evaluate("() => document.documentElement.setAttribute('data-theme', 'auto')")


FITS = """() => {
    const doc = document.documentElement;
    const board = document.querySelector('#display-board').getBoundingClientRect();
    const names = [...document.querySelectorAll('.final-name, .board-name')].map(
        (n) => parseFloat(getComputedStyle(n).fontSize));
    const places = [...document.querySelectorAll('.final-place, .board-place')].map(
        (n) => parseFloat(getComputedStyle(n).fontSize));
    const cut = [...document.querySelectorAll('.final-name, .board-name')].filter(
        (n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent);
    return {width: doc.scrollWidth, height: doc.scrollHeight, boardBottom: board.bottom,
            boardHeight: board.height, boardWidth: board.width, names, places, cut};
}"""


def test_the_display_shows_the_final_standings_when_the_game_ends(
    signed_in_page: Any, live_server: Any
) -> None:
    tv = signed_in_page()
    game = table("dirt", 3)
    tv.set_viewport_size({"width": 1280, "height": 720})
    problems = watch(tv)
    tv.goto(f"{live_server.url}/games/{game.pk}/display/")
    expect(tv.locator(".board-line")).to_have_count(5)
    during = tv.evaluate(FITS)
    assert during["width"] <= 1280, during
    assert during["height"] <= 720, during
    assert during["boardHeight"] >= 0.75 * 720, during  # the scoreboard uses the height
    assert min(during["names"]) >= 32, during
    assert min(during["places"]) >= 32, during
    themed(tv, "display-playing")

    game_close(game=game, user=User.objects.get(username="ana"))
    # The display follows the game: the end arrives without a reload.
    expect(tv.locator(".final-line")).to_have_count(5, timeout=15_000)
    expect(tv.get_by_text("No hands yet")).to_have_count(0)
    expect(tv.locator(".final-title")).to_contain_text("Game over")
    expect(tv.locator(".final-meta")).to_contain_text("after 3 hands")
    expect(tv.locator(".final-line").first).to_have_class("final-line won")
    expect(tv.locator(".final-line .final-unit").first).to_have_text("pts")
    end = tv.evaluate(FITS)
    assert end["width"] <= 1280, end  # nothing cut off
    assert end["height"] <= 720, end
    assert end["boardWidth"] >= 0.9 * 1280 - 48, end  # the whole screen
    assert end["boardHeight"] >= 0.75 * 720, end
    assert min(end["names"]) >= 32, end
    assert min(end["places"]) >= 32, end
    assert end["cut"] == [], end
    themed(tv, "display-final")
    assert problems == []


def test_play_again_is_in_the_first_screen_of_a_finished_sheet(
    signed_in_page: Any, live_server: Any
) -> None:
    page = signed_in_page()
    page.set_viewport_size({"width": 390, "height": 844})
    game = table("dirt", None)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    again = page.get_by_role("link", name="Play again")
    expect(again).to_be_visible()
    box = again.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= 844, box
    expect(page.locator(".result-card .ranking li")).to_have_count(5)
    assert page.locator(".result-card .ranking").bounding_box()["y"] < 844
    expect(page.get_by_role("link", name="New game")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    themed(page, "sheet-finished-390")
