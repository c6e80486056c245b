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


def test_a_german_phone_keeps_a_hand_offline_in_german(german: Any, live_server: Any) -> None:
    """Offline, the sheet's own scripts speak the page's language: the hand kept on the
    phone and the standings counting it are said in German."""
    from django.contrib.auth.models import User

    from scorekeeper.services.games import game_create
    from scorekeeper.services.players import player_create
    from tests.browser.sheet_ui import counted, went_out
    from tests.browser.test_table_tools import players

    user = User.objects.create_user("ana", password="table-talk-42")
    player_create(name="Ana", created_by=user, user=user)
    page = german.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "ana")
    page.fill("#id_password", "table-talk-42")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    game = game_create(owner=user, ruleset="dirt", players=players("Bo", "Cy"))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#entry[data-layout]")).to_be_visible()
    went_out(page, "Bo")
    counted(page, "Ana", 5)
    counted(page, "Cy", 12)
    page.locator("#entry .entry-save").first.click()
    expect(page.locator(".hand-row[data-hand='1']")).to_be_visible()

    page.context.set_offline(True)
    went_out(page, "Cy")
    counted(page, "Bo", 30)
    counted(page, "Ana", 5)
    page.locator("#entry .entry-save").click()
    expect(page.locator("#entry")).to_have_attribute("data-number", "3")
    expect(page.locator("#sheet-standings")).to_contain_text(js_said("de", "If sent:"))
    expect(page.locator("#sheet-standings")).not_to_contain_text("If sent:")
    outbox = page.locator("#sheet-outbox")
    expect(outbox).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "de"
    assert "hand" not in outbox.inner_text().lower().split(), outbox.inner_text()
    page.context.set_offline(False)
    expect(page.locator(".hand-row[data-hand='2']")).to_be_visible()


def js_said(language: str, english: str) -> str:
    """``english`` as the scripts' catalog of ``language`` says it."""
    import polib

    catalog = Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "djangojs.po"
    entry = polib.pofile(str(catalog)).find(english)
    assert entry is not None
    assert entry.msgstr
    assert entry.msgstr != english
    return str(entry.msgstr)
