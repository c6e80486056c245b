"""A league with seasons on a phone (360×740): the current season's standings, the
switcher (swapped in place with JavaScript, plain links without), past seasons with
their champions, and the owner's form to start a new one, its messages on bad input.

Set ``SCOREKEEPER_SCREENSHOTS=/some/dir`` to keep screenshots of the page."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from scorekeeper.models import League, Player, Season
from scorekeeper.selectors.league_seasons import champion, season_standings
from scorekeeper.services.seasons import season_start
from tests.browser.closing import close_context
from tests.browser.test_accessibility import SMALL, TARGETS, TOO_WIDE, _axe_violations
from tests.browser.test_leagues import _shoot
from tests.scorekeeper.season_factories import days_ago, play, schedule

NAMES = ["Bobby", "Cyril", "Dinah", "Evelyn", "Finn"]


def _league(owner: User) -> League:
    league = League.objects.create(name="Thursday table", owner=owner)
    players = [Player.objects.get(user=owner)] + [
        Player.objects.create(name=n, created_by=owner) for n in NAMES
    ]
    season_start(league=league, user=owner, name="Autumn", start=days_ago(20))
    play(owner, league, schedule(players, [days_ago(n) for n in (18, 15, 12)], seed=3))
    season_start(league=league, user=owner, name="Winter", start=days_ago(10))
    play(owner, league, schedule(players, [days_ago(n) for n in (8, 5, 2)], seed=4))
    return league


def _fits(page: Any) -> None:
    assert page.evaluate(TOO_WIDE, SMALL["width"]) == []
    assert page.evaluate(TARGETS) == []
    assert _axe_violations(page) == []


def test_league_seasons_on_a_phone(signed_in_page: Any, live_server: Any, browser: Any) -> None:
    page = signed_in_page()
    page.set_viewport_size(SMALL)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    owner = User.objects.get(username="ana")
    league = _league(owner)
    autumn = Season.objects.get(name="Autumn")
    winter = Season.objects.get(name="Winter")
    url = f"{live_server.url}/leagues/{league.pk}/"

    page.goto(url)
    page.wait_for_load_state("networkidle")
    assert "Winter" in page.locator("#standings-title").inner_text()
    rows = page.locator("#standings .lg-standings tbody tr")
    assert rows.count() == len(season_standings(winter))
    champ = champion(autumn)
    assert champ is not None
    assert f"Champion: {champ['name']}" in page.locator("#seasons").inner_text()
    _fits(page)
    _shoot(page, "league-seasons")

    # The switcher swaps the standings in place; the address follows.
    page.locator("#standings .lg-seasons-nav a", has_text="Autumn").click()
    page.wait_for_url(f"**season={autumn.pk}**")
    assert "Autumn" in page.locator("#standings-title").inner_text()
    assert "kept as it stood" in page.locator("#standings").inner_text()
    first = page.locator("#standings .lg-standings tbody tr").first.inner_text()
    assert champ["name"] in first
    page.locator("#standings .lg-seasons-nav a", has_text="All time").click()
    page.wait_for_url("**season=all**")
    assert "All time" in page.locator("#standings-title").inner_text()

    # Starting a season: a taken name comes back as a message, nothing changes.
    page.goto(url)
    page.locator("#seasons summary", has_text="Start a new season").click()
    page.fill("#season-name", "winter")
    page.click("#seasons button[type=submit]")
    page.wait_for_url("**#seasons")
    assert "already has a season called" in page.locator(".messages").inner_text()
    assert Season.objects.filter(league=league).count() == 2
    page.locator("#seasons summary", has_text="Start a new season").click()
    page.fill("#season-name", "Spring")
    page.click("#seasons button[type=submit]")
    page.wait_for_url("**#standings")
    page.wait_for_load_state("networkidle")
    assert "“Spring” has started" in page.locator(".messages").inner_text()
    assert "Spring" in page.locator("#standings-title").inner_text()
    assert "Winter" in page.locator("#seasons .lg-seasons").inner_text()
    _fits(page)
    assert errors == []

    # In the dark theme, the page with seasons is as readable.
    cookies = page.context.cookies()
    dark = browser.new_context(viewport=SMALL, is_mobile=True, has_touch=True)
    try:
        dark.add_cookies([*cookies, {"name": "theme", "value": "dark", "url": live_server.url}])
        night = dark.new_page()
        night.goto(url)
        night.wait_for_load_state("networkidle")
        assert night.evaluate("document.documentElement.dataset.theme") == "dark"
        _fits(night)
        _shoot(night, "league-seasons-dark")
    finally:
        close_context(dark)

    # Without JavaScript the switcher is plain links.
    quiet = browser.new_context(viewport=SMALL, java_script_enabled=False)
    try:
        quiet.add_cookies(cookies)
        bare = quiet.new_page()
        bare.goto(url)
        bare.locator("#standings .lg-seasons-nav a", has_text="Autumn").click()
        bare.wait_for_url(f"**season={autumn.pk}**")
        assert "Autumn" in bare.locator("#standings-title").inner_text()
    finally:
        close_context(quiet)
