"""The colour switch in a real browser: it follows the system until chosen, changes the
page at once with JavaScript, works as a plain form without it, and is remembered."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.closing import close_context

DARK_BG = "rgb(18, 22, 25)"  # --bg in the dark theme
LIGHT_BG = "rgb(246, 244, 239)"


def _bg(page: Any) -> str:
    return str(page.evaluate("getComputedStyle(document.body).backgroundColor"))


def _cookie(context: Any) -> str | None:
    return next((c["value"] for c in context.cookies() if c["name"] == "theme"), None)


@pytest.mark.parametrize(("scheme", "background"), [("light", LIGHT_BG), ("dark", DARK_BG)])
def test_auto_follows_the_system(
    browser: Any, live_server: Any, scheme: str, background: str
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{live_server.url}/rules/")
    assert page.evaluate("document.documentElement.dataset.theme") == "auto"
    assert _bg(page) == background
    close_context(context)


def test_the_switch_is_instant_and_remembered(page: Any, live_server: Any) -> None:
    page.emulate_media(color_scheme="light")
    page.goto(f"{live_server.url}/rules/dirt/")
    switch = page.locator(".theme-switch")
    box = switch.bounding_box()
    assert box is not None
    assert box["width"] >= 44
    assert box["height"] >= 44
    assert switch.inner_text().strip().endswith("Auto")
    url = page.url
    switch.click()  # auto → light
    switch.click()  # light → dark
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.url == url  # no navigation: the page changed in place
    assert _bg(page) == DARK_BG
    assert switch.inner_text().strip().endswith("Dark")
    assert _cookie(page.context) == "dark"
    # The browser bar follows, read from the CSS.
    assert page.evaluate(
        "[...document.querySelectorAll('meta[name=theme-color]')].map(m => m.content)"
    ) == ["#0f2a23"]
    page.goto(f"{live_server.url}/")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert _bg(page) == DARK_BG


def test_without_javascript_the_switch_is_a_form(browser: Any, live_server: Any) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, java_script_enabled=False, color_scheme="light"
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/rules/search/?q=dirt")
    page.locator(".theme-switch").click()
    page.wait_for_load_state()
    assert page.url == f"{live_server.url}/rules/search/?q=dirt"
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    page.locator(".theme-switch").click()
    page.wait_for_load_state()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert _bg(page) == DARK_BG
    assert _cookie(context) == "dark"
    close_context(context)
