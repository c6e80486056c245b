"""Driving a score sheet like a scorekeeper with a phone: start a game through the form,
tap cards and passes, pick who went out, save, and read the grid back.

Shared by the ``test_sheet_*`` browser tests. Set ``SCOREKEEPER_SCREENSHOTS=/some/dir``
to keep full-page screenshots at the points the tests call :func:`shoot`."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

Page = Any


def watch(page: Page) -> list[str]:
    """Collect script errors and CSP violations (a refused 422/409 is expected noise)."""
    problems: list[str] = []

    # Playwright's own screenshots inject a style (to hide the caret): not the page's.
    shooting = bool(os.environ.get("SCOREKEEPER_SCREENSHOTS"))

    def on_console(msg: Any) -> None:
        if msg.type != "error" or "status of 4" in msg.text:
            return
        if shooting and msg.text.startswith("Applying inline style"):
            return
        problems.append(msg.text)

    page.on("console", on_console)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    return problems


#: What the phone's outbox holds for a game (IndexedDB "scorekeeper-offline", made by
#: static/js/offline-queue.js), oldest first.
OUTBOX = """async (game) => {
    const db = await new Promise((done, fail) => {
        const asked = indexedDB.open("scorekeeper-offline");
        asked.onsuccess = () => done(asked.result);
        asked.onerror = () => fail(asked.error);
    });
    const items = await new Promise((done, fail) => {
        const store = db.transaction("hands").objectStore("hands");
        const asked = store.index("game").getAll(String(game));
        asked.onsuccess = () => done(asked.result);
        asked.onerror = () => fail(asked.error);
    });
    db.close();
    return items.sort((a, b) => a.seq - b.seq);
}"""


def kept_on_phone(page: Page, game: int) -> list[dict[str, Any]]:
    return page.evaluate(OUTBOX, game)  # type: ignore[no-any-return]


def shoot(page: Page, name: str) -> None:
    folder = os.environ.get("SCOREKEEPER_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"


def start_game(
    page: Page,
    live_server: Any,
    ruleset: str,
    names: list[str],
    *,
    variant: str | None = None,
    options: dict[str, str] | None = None,
    teams: list[int] | None = None,
) -> str:
    """Start a game through the new-game form: the signed-in user's own player sits in
    seat 1, the others are typed as new names. Returns the sheet's URL."""
    page.goto(f"{live_server.url}/games/new/")
    page.click(f"a[href='/games/new/?ruleset={ruleset}']")
    page.wait_for_selector("#new-game-form")
    for index in range(4, len(names)):
        page.click("button.add-seat")
        page.wait_for_selector(f"input[name='seat-{index}-name']")
    own = page.locator("select[name='seat-0-player'] option:checked").inner_text()
    assert own == names[0], f"seat 1 starts as {own!r}"
    for index, name in enumerate(names[1:], start=1):
        page.fill(f"input[name='seat-{index}-name']", name)
    if variant:
        page.check(f"input[name='variant'][value='{variant}']")
    for option, value in (options or {}).items():
        page.select_option(f"#option-{option}", value)
    if teams:
        page.check("input[name='partners']")
        for index, team in enumerate(teams):
            page.select_option(f"select[name='seat-{index}-team']", str(team))
    page.click("button.start-game")
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 1")
    return str(page.url)


def pad(page: Page, name: str) -> Any:
    return page.locator(f".pad[data-name='{name}']")


def open_pad(page: Page, name: str) -> Any:
    """Unfold a player's pad (one is open at a time; the others show a summary line)."""
    # Once sheet-layout.js has set the panel up: until then every pad is open.
    found = page.locator(f"#entry[data-layout] .pad[data-name='{name}']")
    if found.get_attribute("open") is None:
        found.locator("summary").click()
    expect(found).to_have_attribute("open", "")
    return found


def tap(page: Page, name: str, *keys: str) -> None:
    """Tap card buttons on a player's pad; ``"♥:4"`` picks the suit (or colour) first."""
    open_pad(page, name)
    for key in keys:
        if ":" in key and key != ":":
            suit, key = key.split(":", 1)
            pad(page, name).locator(f".pad-suit[data-suit='{suit}']").click()
        pad(page, name).locator(f".pad-key[data-key='{key}']").click()


def counted(page: Page, name: str, points: int) -> None:
    """Switch a player's pad to the numeric total and type it."""
    open_pad(page, name)
    pad(page, name).locator(".mode-button[data-mode='points']").click()
    pad(page, name).locator(".points-input").fill(str(points))


def pad_points(page: Page, name: str) -> str:
    """The live points on a player's pad, as shown now."""
    return str(pad(page, name).locator(".pad-points").inner_text())


def pad_shows(page: Page, name: str, points: str) -> None:
    """The live points on a player's pad (retried: the pads are built by script)."""
    expect(pad(page, name).locator(".pad-points")).to_have_text(points)


def went_out(page: Page, name: str, group: str = ".winner-pick") -> None:
    page.locator(f"#entry {group} .chip-radio").filter(
        has_text=re.compile(rf"^\s*{re.escape(name)}\b")
    ).first.click()


def save(page: Page, number: int) -> None:
    """Save hand ``number`` and wait for the sheet to show it."""
    page.locator("#entry .entry-save").first.click()
    expect(page.locator(f".hand-row[data-hand='{number}']")).to_be_visible()
    expect(page.locator("#sheet-notice .flash")).to_contain_text(f"Hand {number}")


def cells(page: Page, number: int) -> list[str]:
    """The points shown for hand ``number``, one per column."""
    return [
        str(t).strip()
        for t in page.locator(f".hand-row[data-hand='{number}'] td .pts").all_inner_texts()
    ]


def running(page: Page, number: int) -> list[str]:
    return [
        str(t).strip()
        for t in page.locator(f".hand-row[data-hand='{number}'] td .run").all_inner_texts()
    ]


def footer(page: Page, row: str = "total") -> list[str]:
    return [str(t).strip() for t in page.locator(f"tfoot tr.{row} td").all_inner_texts()]


def ranking(page: Page) -> list[str]:
    return [" ".join(str(t).split()) for t in page.locator(".ranking li").all_inner_texts()]


def open_tools(page: Page) -> None:
    """Unfold the table tools (folded on a phone until it opened them once)."""
    fold = page.locator("details.tools-fold")
    expect(fold).to_be_visible()
    if fold.get_attribute("open") is None:
        fold.locator("summary").click()
    expect(fold).to_have_attribute("open", "")
