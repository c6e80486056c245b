"""A phone in its own language: a browser set to German gets German pages from its first
visit, the rules in German also offline (the service worker kept them in the phone's
language, the offline search speaks it too), and the switch in the footer turns every
page, the scripts' words included, into another language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.browser.closing import close_context
from tests.browser.waits import wait_until

pytestmark = pytest.mark.browser

RULES = Path(settings.BASE_DIR) / "games" / "rules"


def heading(slug: str, language: str, section: str) -> str:
    """A section's title as the rules document of that language has it."""
    text = (RULES / f"{slug}.{language}.md").read_text(encoding="utf-8")
    found = re.search(rf"^## (.+?) \{{#{section}\}}$", text, re.M)
    assert found
    return found[1]


def phone_in(browser: Any, language: str) -> Any:
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        is_mobile=True,
        has_touch=True,
        locale=language,
        service_workers="allow",
    )
    context.set_default_timeout(15_000)
    return context


@pytest.fixture
def german(browser: Any) -> Iterator[Any]:
    context = phone_in(browser, "de")
    yield context
    close_context(context)


def test_a_german_phone_reads_the_rules_in_german_also_offline(
    german: Any, live_server: Any
) -> None:
    page = german.new_page()
    page.goto(f"{live_server.url}/rules/")
    assert page.evaluate("document.documentElement.lang") == "de"
    wait_until(
        page,
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
        timeout=45_000,
    )
    german.set_offline(True)
    try:
        page.goto(f"{live_server.url}/rules/dirt/")
        expect(page.locator("h1")).to_have_text("Dirt on Your Neighbor")
        special = page.locator("#special-cards")
        expect(special).to_contain_text(heading("dirt", "de", "special-cards"))
        expect(page.locator("[data-offline-banner]")).to_be_visible()
        # The offline search (the service worker's) speaks German too: it loaded the
        # catalog of the phone's language.
        english = "Offline: searching the rules saved on this device."
        german_note = page.evaluate("(text) => gettext(text)", english)
        assert german_note != english
        page.fill("#rules-results-q", "Joker")
        note = page.locator("#rules-results .rules-offline-note")
        expect(note).to_have_text(german_note)
    finally:
        german.set_offline(False)


def test_the_switch_turns_the_page_and_its_scripts_into_spanish(
    german: Any, live_server: Any
) -> None:
    page = german.new_page()
    page.goto(f"{live_server.url}/rules/dirt/")
    expect(page.locator("#special-cards")).to_contain_text(heading("dirt", "de", "special-cards"))
    page.locator(".language-switch button[lang=es]").click()
    page.wait_for_url(f"{live_server.url}/rules/dirt/")
    assert page.evaluate("document.documentElement.lang") == "es"
    expect(page.locator("#special-cards")).to_contain_text(heading("dirt", "es", "special-cards"))
    expect(page.locator(".language-switch button[lang=es]")).to_be_disabled()
    # The static catalog of the new language is the one loaded.
    catalog = page.evaluate(
        "[...document.scripts].map(s => s.src).find(s => s.includes('/jsi18n/'))"
    )
    assert "/jsi18n/es/" in catalog
