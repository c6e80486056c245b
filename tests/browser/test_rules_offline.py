"""The rules in a phone browser: search as you type, a hit opening its paragraph, the
sheet's overlay, and the whole reference with the network switched off after one visit
(service worker)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from scorekeeper import rules_index
from tests.browser.waits import wait_until

pytestmark = pytest.mark.browser

#: Player words the offline search (MiniSearch) answers with the paragraph the server's
#: (SQLite FTS5) does.
SAME_AS_SERVER = [
    ("widow", ""),
    ("knock", ""),
    ("ante", "damn-you"),
    ("skip", "dirt"),
    ("reverse", "dirty-uno"),
    ("left bower", ""),
    ("+2", ""),
    ("exactly 500", ""),
    ("call uno", ""),
    ("partner", ""),
    ("xyzzy", ""),
    ("bower", "dirt"),
]


def _console_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def _wait_for_service_worker(page: Any) -> None:
    wait_until(
        page,
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
        timeout=20_000,
    )


@pytest.mark.production
@pytest.mark.django_db(transaction=True)
def test_search_as_you_type_on_a_rules_page(page: Any, site_url: str) -> None:
    errors = _console_errors(page)
    page.goto(f"{site_url}/rules/dirt/")
    page.fill("#rules-results-q", "draw five")
    first = page.locator("#rules-results .rules-hit").first
    first.wait_for()
    assert first.locator(".rules-hit-title").inner_text() == "Special cards"
    assert first.locator("mark").count() >= 1
    assert page.url == f"{site_url}/rules/dirt/"

    page.fill("#rules-results-q", "jokr")
    page.locator("#rules-results .rules-no-hits").wait_for()
    page.click("#rules-results [data-suggest-q='joker']")
    page.locator("#rules-results .rules-hit").first.wait_for()
    assert page.input_value("#rules-results-q") == "joker"
    assert errors == []


@pytest.mark.django_db(transaction=True)
def test_a_hit_opens_its_paragraph_highlighted(page: Any, site_url: str) -> None:
    """The widow rule sits deep in Damn You's scoring: its hit opens the page scrolled to
    that paragraph, marked, on a small phone."""
    errors = _console_errors(page)
    page.set_viewport_size({"width": 375, "height": 667})
    page.goto(f"{site_url}/rules/")
    page.fill("#rules-results-q", "widow")
    page.locator("#rules-results .rules-hit-link").first.click()
    page.wait_for_url(f"{site_url}/rules/damn-you/#scoring-13")
    widow = page.locator("#scoring-13")
    assert widow.inner_text().startswith("Widow rule")
    assert widow.evaluate("el => el.matches(':target')")
    assert widow.evaluate("el => getComputedStyle(el).backgroundColor") != "rgba(0, 0, 0, 0)"
    box, bar = widow.bounding_box(), page.locator(".topbar").bounding_box()
    assert box is not None
    assert bar is not None
    assert box["y"] >= bar["y"] + bar["height"]  # not under the sticky bar
    assert box["y"] + box["height"] <= 667
    assert errors == []


@pytest.mark.production
@pytest.mark.django_db(transaction=True)
def test_offline_search_finds_what_the_server_finds(page: Any, site_url: str) -> None:
    page.goto(f"{site_url}/rules/")
    page.add_script_tag(url=f"{site_url}/static/vendor/minisearch/index.js")
    found = page.evaluate(
        """async ([queries, indexUrl]) => {
            const index = await (await fetch(indexUrl)).json();
            const engine = RulesSearch.createEngine(index);
            return queries.map(([q, r]) => RulesSearch.search(engine, q, r).map(h => h.url)[0]);
        }""",
        [[list(pair) for pair in SAME_AS_SERVER], f"{site_url}/rules/index.json"],
    )
    # Served under a prefix (SCRIPT_NAME), the index's links carry it; this process's
    # own search reverses without one.
    prefix = urlsplit(site_url).path.rstrip("/")
    for (q, ruleset), url in zip(SAME_AS_SERVER, found, strict=True):
        hits = rules_index.search(q, ruleset)
        assert url == (prefix + hits[0].url if hits else None), q


@pytest.mark.production
@pytest.mark.django_db(transaction=True)
def test_rules_work_offline_after_one_visit(page: Any, context: Any, site_url: str) -> None:
    errors = _console_errors(page)
    page.goto(f"{site_url}/rules/")
    _wait_for_service_worker(page)

    context.set_offline(True)
    try:
        assert page.evaluate("navigator.onLine") is False
        page.goto(f"{site_url}/rules/dirt/")
        assert page.locator("h1").inner_text() == "Dirt on Your Neighbor"
        assert page.locator("#special-cards").is_visible()
        assert page.locator("[data-offline-banner]").is_visible()

        page.fill("#rules-results-q", "draw five")
        first = page.locator("#rules-results .rules-hit").first
        first.wait_for()
        assert first.locator(".rules-hit-title").inner_text() == "Special cards"
        assert "draw 5" in first.inner_text()
        assert page.locator("#rules-results .rules-offline-note").count() == 1

        # A full search page, as a phone without JavaScript help would ask for it.
        page.goto(f"{site_url}/rules/search/?q=ante&ruleset=damn-you")
        assert page.input_value("#rules-results-q") == "ante"
        assert page.locator("#rules-results-ruleset").input_value() == "damn-you"
        hit = page.locator("#rules-results .rules-hit").first
        assert hit.locator(".rules-hit-title").inner_text() == "The deal"

        page.goto(f"{site_url}/rules/search/?q=xyzzy")
        assert "Nothing in the rules matches" in page.locator("#rules-results").inner_text()

        # A page the device never stored: the offline page, pointing at the rules.
        page.goto(f"{site_url}/accounts/login/")
        assert page.locator("h1").inner_text() == "You are offline"
        prefix = urlsplit(site_url).path  # the app's, when it is served under one
        assert page.locator(f"a[href='{prefix}/rules/dirty-uno/']").count() == 1
    finally:
        context.set_offline(False)
    assert [e for e in errors if "ERR_INTERNET_DISCONNECTED" not in e] == []


@pytest.mark.django_db(transaction=True)
def test_rules_overlay_keeps_an_entry_in_progress(page: Any, live_server: Any) -> None:
    """The Rules button opens the rules over the page; closing them (button or back
    gesture) leaves a half-typed form untouched."""
    from django.template import RequestContext, Template
    from django.test import override_settings
    from django.urls import path

    from scorekeeper import urls as root_urls

    def sheet_like(request: Any) -> Any:
        from django.http import HttpResponse

        body = Template(
            "{% extends 'base.html' %}{% load rules_tags %}{% block content %}"
            "<form id='entry'><input id='points' name='points'></form>"
            "<p id='hint'>{% rules_hint_for 'dirt' next_hand %}</p>"
            "{% rules_button 'dirt' %}{% endblock %}"
        ).render(
            RequestContext(request, {"next_hand": {"number": 2, "hands_left": 5, "dirt_rank": "4"}})
        )
        return HttpResponse(body)

    patterns = [path("test-sheet/", sheet_like), *root_urls.urlpatterns]
    module = type("urls", (), {"urlpatterns": patterns})
    with override_settings(ROOT_URLCONF=module):
        page.goto(f"{live_server.url}/test-sheet/")
        assert "4s are dirt" in page.locator("#hint").inner_text()
        page.fill("#points", "42")
        page.click("[data-rules-open]")
        dialog = page.locator("#rules-dialog-dirt")
        dialog.locator("#rp-quick-reference").wait_for()
        assert dialog.is_visible()

        dialog.locator("#rules-panel-results-q").fill("skip")
        first = dialog.locator("#rules-panel-results .rules-hit").first
        first.wait_for()
        assert first.locator("a").get_attribute("href") == "#rp-special-cards-5"
        first.locator("a").click()
        assert dialog.is_visible()
        skip = dialog.locator("#rp-special-cards-5")
        assert "Skips the next player" in skip.inner_text()
        assert skip.evaluate("el => getComputedStyle(el).backgroundColor") != "rgba(0, 0, 0, 0)"
        wait_until(
            page,
            "() => { const r = document.querySelector('#rp-special-cards-5')"
            ".getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }",
        )

        page.click("[data-rules-close]")
        assert not dialog.is_visible()
        assert page.input_value("#points") == "42"
        assert page.url == f"{live_server.url}/test-sheet/"

        page.click("[data-rules-open]")
        assert dialog.is_visible()
        page.go_back()
        wait_until(page, "!document.querySelector('#rules-dialog-dirt').open")
        assert page.url == f"{live_server.url}/test-sheet/"
        assert page.input_value("#points") == "42"


def test_rules_over_a_real_score_sheet(signed_in_page: Any, live_server: Any) -> None:
    """On the sheet itself: the hint names this hand's dirt, and reading the rules in the
    middle of entering a hand loses none of the cards tapped so far."""
    from tests.browser.sheet_ui import pad_points, start_game, tap, watch

    page = signed_in_page()
    problems = watch(page)
    start_game(page, live_server, "dirt", ["Ana", "Bo", "Cy", "Di"])
    sheet_url = page.url
    assert "6s are dirt" in page.locator("#sheet-banner").inner_text()
    tap(page, "Ana", "6", "A")
    assert pad_points(page, "Ana") == "40 pts"

    page.click(".sheet-rules [data-rules-open]")
    dialog = page.locator("#rules-dialog-dirt")
    dialog.locator("#rp-quick-reference").wait_for()
    dialog.locator("#rules-panel-results-q").fill("knock")
    dialog.locator("#rules-panel-results .rules-hit").first.wait_for()
    dialog.locator("[data-rules-close]").click()

    assert not dialog.is_visible()
    assert page.url == sheet_url
    assert pad_points(page, "Ana") == "40 pts"
    assert problems == []
