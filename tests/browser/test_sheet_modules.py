"""The sheet's scripts as a phone runs them: ES modules that import what they use (no
classic script but the two that must stay, no ``window.SK…`` names; in production, by
their hashed names, imports included), and what they do after a live answer shared by
every phone (one cached fragment, with no form token, no entry key and no stream ticket
of its own): the page fills in its own."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Hand, Player
from scorekeeper.services.games import game_create, hand_record
from tests.browser.sheet_ui import watch

pytestmark = pytest.mark.browser


def screw_game() -> tuple[Any, dict[str, Player]]:
    owner = User.objects.get(username="ana")
    ana = Player.objects.get(user=owner)
    bo, cy = (Player.objects.create(name=n, created_by=owner) for n in ("Bo", "Cy"))
    game = game_create(
        owner=owner, ruleset="screw-your-neighbour", players=[ana.pk, bo.pk, cy.pk],
        options={"target_wins": 0},
    )  # fmt: skip
    return game, {"Ana": ana, "Bo": bo, "Cy": cy}


SCRIPTS = """() => Array.from(document.scripts).map(s => ({
    src: s.src ? new URL(s.src).pathname : "", type: s.type
}))"""


def test_the_sheet_runs_modules_and_no_classic_script_but_two(
    signed_in_page: Any, live_server: Any
) -> None:
    page = signed_in_page()
    game, _ = screw_game()
    problems = watch(page)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#entry.js")).to_be_visible()  # sheet.js ran
    scripts = page.evaluate(SCRIPTS)
    classic = [s["src"] for s in scripts if s["type"] in ("", "text/javascript")]
    # The scripts' words first (a static catalog, which every script may use); theme.js
    # runs before the page is painted; htmx (django-htmx's copy) is no module.
    assert classic == [
        "/static/jsi18n/en/djangojs.js",
        "/static/js/theme.js",
        "/static/django_htmx/htmx-2.min.js",
    ], classic
    modules = {s["src"] for s in scripts if s["type"] == "module"}
    assert {"/static/js/offline-sheet.js", "/static/js/live.js"} <= modules
    # What the modules import is no tag of the page: the outbox, the drafts…
    assert "/static/js/offline-queue.js" not in modules
    # Only data in the page, no script of its own (the CSP forbids it anyway).
    assert {s["type"] for s in scripts if not s["src"]} <= {"application/json"}
    assert page.evaluate("Object.keys(window).filter(k => /^SK/.test(k))") == []
    # The modules work together: the outbox keeps a hand while offline.
    page.context.set_offline(True)
    page.locator("#entry .winner-button").filter(has_text="Cy").click()
    expect(page.locator("#sheet-outbox")).to_contain_text("1 hand waiting to send")
    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator(".hand-row[data-hand='1']")).to_be_visible()
    assert Hand.objects.filter(game=game).count() == 1
    assert [p for p in problems if "ERR_INTERNET_DISCONNECTED" not in p] == []


def shared(body: str) -> str:
    """The live answer as one cached fragment for every phone would be: without the
    phone's form token, entry key and stream ticket."""
    body = re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]*"', r'\1"', body)
    body = re.sub(r'(name="idempotency_key" value=")[^"]*"', r'\1"', body)
    return re.sub(r' data-events="[^"]*"', "", body)


def test_a_shared_live_answer_gets_this_phones_token_key_and_ticket(
    events: str, signed_in_page: Any, live_server: Any
) -> None:
    page = signed_in_page()
    page.set_default_timeout(30_000)
    game, players = screw_game()
    owner = User.objects.get(username="ana")
    problems = watch(page)
    stripped: list[str] = []

    def route(route: Any) -> None:
        response = route.fetch()
        body = response.text()
        if response.status == 200 and 'id="entry"' in body:
            stripped.append(route.request.url)
        route.fulfill(response=response, body=shared(body))

    page.route(re.compile(rf"/games/{game.pk}/live/"), route)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("html")).to_have_attribute("data-live", "events", timeout=15_000)
    ticket = page.locator("#sheet-poller").get_attribute("data-events")
    token = page.evaluate("JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken']")
    key = page.locator("#entry input[name=idempotency_key]").input_value()
    assert ticket
    assert token
    assert key
    # The events server (SQLite: a version poll a second) first learns of the game.
    page.wait_for_timeout(1500)

    # Another phone saves hand 1: this one hears of it and asks for the new parts,
    # the entry panel of hand 2 among them.
    hand_record(game=game, user=owner, hand_input={"winner": players["Bo"].pk})
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 2", timeout=15_000)
    assert stripped, "no live answer with the entry panel came"
    # The shared answer's forms carry no token of their own (htmx sends the page's in a
    # header); an empty one left in a form is filled in with the page's.
    inputs = page.locator("#entry input[name=csrfmiddlewaretoken]")
    assert all(inputs.nth(i).input_value() == token for i in range(inputs.count()))
    # (The page's script fills the key just after the swap: wait for it.)
    expect(page.locator("#entry input[name=idempotency_key]")).not_to_have_value("")
    fresh = page.locator("#entry input[name=idempotency_key]").input_value()
    assert fresh
    assert fresh != key
    expect(page.locator("#sheet-poller")).to_have_attribute("data-events", ticket)
    expect(page.locator("html")).to_have_attribute("data-live", "events")

    # And the phone saves the next hand with them.
    page.locator("#entry .winner-button").filter(has_text="Cy").click()
    expect(page.locator(".hand-row[data-hand='2']")).to_be_visible()
    assert [h.input["winner"] for h in Hand.objects.filter(game=game).order_by("number")] == [
        players["Bo"].pk,
        players["Cy"].pk,
    ]
    assert problems == []


HASHED_JS = re.compile(r"/static/[\w/.-]+\.[0-9a-f]{12}\.js")
FETCHED_JS = """() => performance.getEntriesByType("resource")
    .map(e => new URL(e.name).pathname).filter(p => p.endsWith(".js"))"""


@pytest.mark.production
@pytest.mark.django_db(transaction=True)
def test_a_sheet_loads_every_module_it_imports(page: Any, site_url: str) -> None:
    """Against the production smoke (collectstatic'd files, hashed names): the modules
    the sheet's tags name import hashed files, which load; nothing unhashed is asked.
    Run locally, the same sheet from the test server."""
    external = bool(os.environ.get("SCOREKEEPER_BASE_URL"))
    if not external:  # the production smoke's demo account, made here
        owner = User.objects.create_user("demo", password="demo")
        demo = Player.objects.create(name="Demo", user=owner, created_by=owner)
        bo, cy = (Player.objects.create(name=n, created_by=owner) for n in ("Bo", "Cy"))
        game_create(owner=owner, ruleset="dirt", players=[demo.pk, bo.pk, cy.pk])
    problems = watch(page)
    page.goto(f"{site_url}/accounts/login/")
    page.fill("#id_username", "demo")
    page.fill("#id_password", "demo")
    page.click("button[type=submit]")
    page.wait_for_url(f"{site_url}/")
    games = page.request.get(f"{site_url}/api/v1/games/").json()["results"]
    page.goto(f"{site_url}/games/{games[0]['id']}/")
    page.wait_for_load_state("load")
    fetched = page.evaluate(FETCHED_JS)
    names = {path.rsplit("/", 1)[-1].split(".")[0] for path in fetched}
    # Imported by offline-sheet.js and table-tools.js, named by no tag of the page.
    assert {"offline-queue", "offline-drafts", "offline-ahead", "sheet"} <= names, fetched
    if external:
        assert [p for p in fetched if not HASHED_JS.search(p)] == []
    assert problems == []
