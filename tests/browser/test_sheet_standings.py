"""After a save the score is in view (issue 29): a line of standings, rank, name, total
and what each needs, stays above the next hand's first question at 360×740, online and
offline (then with the totals of the hands waiting to send, marked so). Dirty UNO's
waiting hands count its rule that a score of exactly 500 drops back to 0."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.services.games import game_create
from tests.browser.sheet_ui import counted, footer, save, watch, went_out
from tests.browser.test_sheet_first_screen import on_screen
from tests.browser.test_table_tools import players

pytestmark = pytest.mark.browser
SCREENSHOTS = os.environ.get("SCOREKEEPER_SCREENSHOTS")


def snap(page: Any, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"))


def standings(page: Any) -> list[str]:
    return [
        " ".join(str(t).split())
        for t in page.locator("#sheet-standings .standing").all_inner_texts()
    ]


def score_and_question_in_view(page: Any) -> None:
    expect(page.locator("#sheet-standings .standing").first).to_be_visible()
    expect(page.locator("#entry .winner-pick")).to_be_focused()
    on_screen(page, "#sheet-standings")
    on_screen(page, "#entry .winner-pick")


def sheet(page: Any, live_server: Any, ruleset: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    owner = User.objects.get(username="ana")
    game = game_create(owner=owner, ruleset=ruleset, players=players("Bo", "Cy"))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#entry[data-layout]")).to_be_visible()


def test_dirt_the_standings_stay_beside_the_next_question(
    signed_in_page: Any, live_server: Any
) -> None:
    page = signed_in_page()
    problems = watch(page)
    sheet(page, live_server, "dirt")
    expect(page.locator("#sheet-standings .standing")).to_have_count(0)
    went_out(page, "Bo")
    counted(page, "Ana", 5)
    counted(page, "Cy", 12)
    save(page, 1)
    score_and_question_in_view(page)
    assert standings(page)[0].startswith("1 Bo 0")
    assert standings(page)[-1].startswith("3 Cy 12")
    snap(page, "standings-dirt-online")

    # Offline: the hand waits on the phone, the line counts it, marked as waiting.
    page.context.set_offline(True)
    went_out(page, "Cy")
    counted(page, "Bo", 30)
    counted(page, "Ana", 5)
    page.locator("#entry .entry-save").click()
    expect(page.locator("#sheet-standings")).to_have_class(re.compile(r"\bwaiting\b"))
    expect(page.locator("#sheet-standings")).to_contain_text("If sent:")
    score_and_question_in_view(page)
    expect(page.locator("#entry")).to_have_attribute("data-number", "3")
    assert standings(page) == ["1 Ana 10", "2 Cy 12", "3 Bo 30"], standings(page)
    snap(page, "standings-dirt-offline")
    page.context.set_offline(False)
    assert problems == []


def test_dirty_uno_standings_and_totals_offline_count_the_500_rule(
    signed_in_page: Any, live_server: Any
) -> None:
    page = signed_in_page()
    problems = watch(page)
    sheet(page, live_server, "dirty-uno")
    went_out(page, "Bo")
    counted(page, "Ana", 150)
    counted(page, "Cy", 100)
    save(page, 1)
    score_and_question_in_view(page)
    assert standings(page)[0] == "1 Bo 250 needs 251 to pass 500"
    snap(page, "standings-dirty-uno-online")

    # Offline, Bo lands on exactly 500: back to 0, as the server will have it.
    page.context.set_offline(True)
    went_out(page, "Bo")
    counted(page, "Ana", 150)
    counted(page, "Cy", 100)
    page.locator("#entry .entry-save").click()
    expect(page.locator("#entry")).to_have_attribute("data-number", "3")
    score_and_question_in_view(page)
    went_out(page, "Ana")
    counted(page, "Bo", 10)
    counted(page, "Cy", 5)
    page.locator("#entry .entry-save").click()
    expect(page.locator("#entry")).to_have_attribute("data-number", "4")
    score_and_question_in_view(page)
    expect(page.locator("#sheet-standings")).to_contain_text("If sent:")
    assert standings(page) == ["1 Ana 15", "2 Bo 0", "2 Cy 0"], standings(page)
    # One totals row, counting the two hands waiting: Bo's 500 went back to 0.
    expect(page.locator("tfoot tr.total.has-waiting th")).to_contain_text("with waiting")
    assert footer(page) == ["15", "0", "0"]
    running = page.locator("tr.provisional[data-waiting='2'] td .run").all_inner_texts()
    assert [str(t).strip() for t in running] == ["0", "0", "0"]
    snap(page, "standings-dirty-uno-offline")

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator(".hand-row[data-hand='3']")).to_be_visible()
    expect(page.locator("tr.provisional")).to_have_count(0)
    assert footer(page) == ["15", "0", "0"]
    expect(page.locator("#sheet-standings")).not_to_contain_text("If sent")
    assert standings(page)[0] == "1 Ana 15 needs 486 to pass 500"
    assert problems == []
