"""Every page, at 360 px, in the light and the dark theme and in every language (the
browser's own, as a phone set to German sends it): no axe-core violation of any impact,
nothing wider than the screen however long the names (or German words), text of 14 px
or more (12 px for footnotes), and every control at least 44×44 px.

To check a new page, add one line to :data:`PAGES`: its path may name anything
:func:`seed` made (``{dirt_live}``, ``{league}``…); add to :func:`seed` what it needs.

Set ``SCOREKEEPER_SCREENSHOTS=/some/dir`` to keep a screenshot of every page, theme and
language."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from games import get_ruleset
from scorekeeper.models import League, Membership, Player
from scorekeeper.selectors.games import game_config, game_state
from scorekeeper.services.games import game_close, game_create, hand_record
from scorekeeper.services.invites import guest_join, invite_create, night_invite_create
from scorekeeper.services.nights import night_create
from scorekeeper.services.results import result_publish
from scorekeeper.simulate import next_hand
from tests.browser.closing import close_context, quiet_page

SMALL = {"width": 360, "height": 740}
THEMES = ("light", "dark")
#: (theme, language): English in both themes, each other language in one of them (German
#: words are long: what overflows in one theme overflows in the other).
LOOKS = (("light", "en"), ("dark", "en"), ("light", "de"), ("dark", "es"))
PASSWORD = "table-talk-42"
#: The longest name a player may have, with no space to break at.
LONG = "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaf"[:60]


@dataclass(frozen=True)
class Page:
    """One page to check: ``path`` is formatted with the ids :func:`seed` returns;
    ``click`` (a selector) is tapped first, to check what it opens."""

    name: str
    path: str
    signed_in: bool = True
    click: str | None = None


#: A league import's page as it goes, and as it ends.
IMPORT_STAGES: dict[str, dict[str, Any]] = {
    "checking": {"status": "checking", "games": 120, "games_checked": 30},
    "done": {"status": "done", "games": 120, "games_checked": 120},
    "failed": {
        "status": "failed",
        "error": "games[118] (game 4021).hands[12] (hand 13).input.results[0].cards[3]: "
        "'1Z' is not a card of this deck",
    },
}

PAGES: list[Page] = [
    Page("home-signed-out", "/", signed_in=False),
    Page("home", "/"),
    Page("sign-in", "/accounts/login/", signed_in=False),
    Page("sign-up", "/accounts/signup/", signed_in=False),
    Page("password-reset", "/accounts/password/reset/", signed_in=False),
    Page("account", "/accounts/"),
    Page("password-change", "/accounts/password/"),
    Page("account-delete", "/accounts/delete/"),
    Page("new-game", "/games/new/"),
    Page("new-game-dirt", "/games/new/?ruleset=dirt"),
    Page("games-list", "/games/"),
    *(
        Page(f"sheet-{slug}-{stage}", f"/games/{{{slug.replace('-', '_')}_{stage}}}/")
        for slug in ("dirt", "dirty-uno", "damn-you", "screw-your-neighbour", "dirty-deals")
        for stage in ("live", "done")
    ),
    Page("sheet-dirt-pad-open", "/games/{dirt_live}/", click="#entry .pad-head >> nth=1"),
    Page("sheet-uno-pad-open", "/games/{dirty_uno_live}/", click="#entry .pad-head >> nth=1"),
    Page("hand-correction", "/games/{dirt_live}/hands/1/"),
    Page("share", "/games/{dirt_live}/share/"),
    Page("display-dirt-live", "/games/{dirt_live}/display/"),
    Page("display-dirt-done", "/games/{dirt_done}/display/"),
    Page("join-name", "/join/{score_token}/", signed_in=False),
    Page("guest-remove", "/games/{dirt_live}/share/guests/{guest}/remove/"),
    Page("night", "/nights/{night}/"),
    Page("night-guest-remove", "/nights/{night}/guests/{night_guest}/remove/"),
    Page("token-revoke", "/accounts/token/revoke/"),
    Page("rules-index", "/rules/"),
    Page("rules-page", "/rules/dirt/"),
    Page("rules-search", "/rules/search/?q=dirt+rank"),
    Page("rules-offline", "/offline/"),
    Page("leagues", "/leagues/"),
    Page("league", "/leagues/{league}/"),
    Page("league-leave", "/leagues/{member_league}/leave/"),
    Page("league-history", "/leagues/{league}/?player={long_player}#history"),
    Page("head-to-head", "/leagues/{league}/head-to-head/?a={long_player}&b={joe}"),
    Page(
        "head-to-head-line-forward",
        "/leagues/{league}/head-to-head/?a={long_player}&b={joe}",
        click="figure.ch .ch-key-item >> nth=0",
    ),
    Page("player", "/players/{long_player}/?league={league}"),
    Page("import", "/leagues/import/"),
    *(Page(f"import-{stage}", f"/leagues/imports/{{import_{stage}}}/") for stage in IMPORT_STAGES),
    Page("players", "/players/"),
    Page("result-public", "/r/{public_token}/", signed_in=False),
]

RULESET_OPTIONS: dict[str, dict[str, Any]] = {
    "screw-your-neighbour": {"target_wins": 3},
}


def _play(owner: User, league: League, slug: str, players: list[Player], hands: int | None,
          rng: random.Random) -> int:  # fmt: skip
    """A game through the services: ``hands`` hands, or (None) to its end."""
    seated = players[:4] if slug == "dirty-deals" else players
    game = game_create(
        owner=owner, ruleset=slug, players=[p.pk for p in seated], league=league,
        options=RULESET_OPTIONS.get(slug, {}),
    )  # fmt: skip
    config = game_config(game)
    state = get_ruleset(slug).play(config, [])
    skill = {p.pk: 0.0 for p in seated}
    played = 0
    while not state.finished and played < (hands if hands is not None else 80):
        state = hand_record(
            game=game, user=owner, hand_input=next_hand(rng, config, state, skill)
        ).state
        played += 1
    if hands is None and not state.finished:
        game_close(game=game, user=owner)
    return int(game.pk)


def seed() -> dict[str, Any]:
    """One table for every page: the signed-in "ana", a player with the longest name there
    is and no space in it, "Grandpa Joe", a league with a long name, and each game both
    in progress and finished."""
    rng = random.Random(11)
    owner = User.objects.create_user("ana", password=PASSWORD)
    ana = Player.objects.create(name="Ana", created_by=owner, user=owner)
    long_player = Player.objects.create(name=LONG, created_by=owner)
    joe = Player.objects.create(name="Grandpa Joe", created_by=owner)
    bo = Player.objects.create(name="Bo", created_by=owner)
    cy = Player.objects.create(name="Cy", created_by=owner)
    players = [long_player, joe, ana, bo, cy]
    league = League.objects.create(name=("Thursday" * 10)[:80], owner=owner)
    for p in players:
        Membership.objects.create(league=league, player=p)
    ids: dict[str, Any] = {"league": league.pk, "long_player": long_player.pk, "joe": joe.pk}
    for slug in ("dirt", "dirty-uno", "damn-you", "screw-your-neighbour", "dirty-deals"):
        key = slug.replace("-", "_")
        ids[f"{key}_done"] = _play(owner, league, slug, players, None, rng)
        ids[f"{key}_live"] = _play(owner, league, slug, players, 2, rng)
    from scorekeeper.models import Game

    live = Game.objects.get(pk=ids["dirt_live"])
    score = invite_create(game=live, user=owner, role="score")
    ids["score_token"] = score.token
    ids["guest"] = guest_join(invite=score, name=LONG[:40]).pk
    # A night with a game in it and a score link one guest joined by.
    night = night_create(owner=owner, name=("Friday at " + LONG)[:80], league=league.pk)
    ids["night"] = night.pk
    finished = game_create(
        owner=owner, ruleset="screw-your-neighbour", players=[p.pk for p in players],
        options={"target_wins": 1}, night=night.pk,
    )  # fmt: skip
    hand_record(game=finished, user=owner, hand_input={"winner": long_player.pk})
    game_create(owner=owner, ruleset="dirt", players=[p.pk for p in players], night=night.pk)
    by_night = night_invite_create(night=night, user=owner, role="score")
    ids["night_guest"] = guest_join(invite=by_night, name=LONG[:40]).pk
    Token.objects.get_or_create(user=owner)
    done = Game.objects.get(pk=ids["dirt_done"])
    ids["public_token"] = result_publish(game=done, state=game_state(done))
    Player.objects.create(name="Test X", created_by=owner, hidden=True)
    from scorekeeper.models import LeagueImport

    for stage, fields in IMPORT_STAGES.items():
        made = LeagueImport.objects.create(owner=owner, size=2_400_000, **fields)
        ids[f"import_{stage}"] = made.pk
    LeagueImport.objects.filter(status="done").update(league=league)
    # A league ana is a member of (not its owner): its page has a role list and "Leave".
    lou = User.objects.create_user("lou", password=PASSWORD)
    theirs = League.objects.create(name="Lou's Friday", owner=lou)
    Membership.objects.create(league=theirs, player=ana, role="viewer")
    ids["member_league"] = theirs.pk
    return ids


@pytest.fixture(autouse=True)
def _live_server_helper(request: pytest.FixtureRequest) -> Iterator[None]:
    """pytest-django's helper of this name gives each live-server test a database of
    its own (``transactional_db``, flushed after the test). These tests only read, so
    they share the module's data: the same helper without the flush."""
    if "live_server" not in request.fixturenames:
        yield
        return
    server = request.getfixturevalue("live_server")
    server._live_server_modified_settings.enable()
    yield
    server._live_server_modified_settings.disable()


@pytest.fixture(scope="module")
def seeded(
    live_server: Any, django_db_setup: None, django_db_blocker: Any
) -> Iterator[dict[str, Any]]:
    """The module's data, made once and flushed afterwards, as ``transactional_db``
    would; the database stays open meanwhile, for the live server's thread."""
    with django_db_blocker.unblock():
        yield seed()
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture(scope="module")
def contexts(browser: Any, live_server: Any, seeded: dict[str, Any]) -> Iterator[dict[Any, Any]]:
    """A 360 px phone per (theme, language, signed in): the theme comes from its cookie,
    as a browser that chose it would send, the language from the browser's own
    Accept-Language; signed in once, through the real form."""
    made: dict[Any, Any] = {}
    for theme, language in LOOKS:
        for signed_in in (False, True):
            ctx = browser.new_context(
                viewport=SMALL, is_mobile=True, has_touch=True, locale=language
            )
            ctx.set_default_timeout(15_000)
            ctx.add_cookies([{"name": "theme", "value": theme, "url": live_server.url}])
            if signed_in:
                page = ctx.new_page()
                page.goto(f"{live_server.url}/accounts/login/")
                page.fill("#id_username", "ana")
                page.fill("#id_password", PASSWORD)
                page.click("main button[type=submit]")
                page.wait_for_url(f"{live_server.url}/")
                page.close()
            made[theme, language, signed_in] = ctx
    yield made
    for ctx in made.values():
        close_context(ctx)


# -- what is measured -------------------------------------------------------------------

#: Everything a finger can tap. A radio or checkbox drawn as a chip is measured by the
#: chip (its label), the invisible input itself is not.
TARGETS = """() => {
    const small = [];
    const selector = "a[href], button, summary, select, textarea, [role=button], [tabindex]:not([tabindex='-1']), "
        + "input:not([type=hidden])";
    for (const el of document.querySelectorAll(selector)) {
        if (el.closest("[hidden], [inert], .visually-hidden")) continue;
        let target = el;
        if (el.matches("input[type=radio], input[type=checkbox]")) {
            target = el.closest("label") || el;
        }
        const box = target.getBoundingClientRect();
        const style = getComputedStyle(target);
        if (!box.width || !box.height || style.visibility === "hidden") continue;
        // WCAG 2.5.8's exception, taken narrowly: a link inside a sentence, with words
        // of that sentence on either side in the same block.
        if (el.matches("a[href]") && style.display === "inline") {
            const block = el.parentElement.closest("p, li, dd, td, figcaption, span.help");
            if (block && block.textContent.trim().length > el.textContent.trim().length + 2) continue;
        }
        if (box.width >= 43.5 && box.height >= 43.5) continue;
        const label = (el.getAttribute("aria-label") || el.textContent || el.name || "").trim().slice(0, 30);
        small.push(`${el.tagName.toLowerCase()}.${el.className} "${label}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
    return small;
}"""  # noqa: E501 (JavaScript)

#: The page's width when wider than the screen, and the innermost elements that stick out.
TOO_WIDE = """(width) => {
    const total = document.scrollingElement.scrollWidth;
    if (total <= width) return [];
    // Inside a box that scrolls or clips and itself fits: not the page's width.
    const contained = (el) => {
        for (let up = el; up && up !== document.body; up = up.parentElement) {
            if (getComputedStyle(up).overflowX !== "visible"
                && up.getBoundingClientRect().right <= width + 1) return true;
        }
        return false;
    };
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node && out.length < 6; node = walker.nextNode()) {
        if (!node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const right = range.getBoundingClientRect().right;
        const el = node.parentElement;
        if (right > width + 1 && !contained(el)) {
            out.push(`${el.tagName.toLowerCase()}.${el.className.baseVal ?? el.className} "${node.textContent.trim().slice(0, 20)}" right=${Math.round(right)}`);
        }
    }
    return [`${total}px`, ...out];
}"""  # noqa: E501 (JavaScript)

#: Text shown at under 14 px (12 px inside an element marked ``.footnote``). SVG text is
#: measured as drawn, after the chart's scaling.
TINY_TEXT = """() => {
    const tiny = [];
    for (const node of document.body.querySelectorAll("*")) {
        const own = [...node.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
        if (!own || !node.getClientRects().length) continue;
        if (node.closest(".visually-hidden, [hidden], script, style, title, desc")) continue;
        const style = getComputedStyle(node);
        if (style.visibility === "hidden") continue;
        let size = parseFloat(style.fontSize);
        const svg = node.closest("svg");
        if (svg && svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width) {
            size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        }
        const least = node.closest(".footnote") ? 12 : 14;
        if (size < least - 0.05) {
            const text = node.textContent.trim().slice(0, 20);
            tiny.push(`${node.tagName.toLowerCase()}.${node.className.baseVal ?? node.className} "${text}" ${size.toFixed(1)}px`);
        }
    }
    return tiny;
}"""  # noqa: E501 (JavaScript)


def _axe_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    # Every rule axe has, the experimental ones too (label-content-name-mismatch).
    result = Axe().run(page, options={"rules": {"label-content-name-mismatch": {"enabled": True}}})
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
        for v in result.response["violations"]
    ]


@pytest.mark.parametrize(("theme", "language"), LOOKS, ids=["-".join(look) for look in LOOKS])
@pytest.mark.parametrize("spec", PAGES, ids=lambda p: p.name)
def test_page_is_usable_at_360_px(
    spec: Page,
    theme: str,
    language: str,
    contexts: dict[Any, Any],
    live_server: Any,
    seeded: dict[str, Any],
) -> None:
    page = contexts[theme, language, spec.signed_in].new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        url = live_server.url + spec.path.format(**seeded)
        response = page.goto(url)
        assert response is not None
        assert response.status == 200, response.status
        assert page.url == url, "redirected"
        page.wait_for_load_state("networkidle")
        if spec.click:
            page.locator(spec.click).click()
            page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.dataset.theme") == theme
        assert page.evaluate("document.documentElement.lang") == language
        folder = os.environ.get("SCOREKEEPER_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(
                path=str(Path(folder) / f"a11y-{spec.name}-{theme}-{language}.png"),
                full_page=True,
            )
        problems = {
            "axe": _axe_violations(page),
            "wider than the screen": page.evaluate(TOO_WIDE, SMALL["width"]),
            "text under 14 px": page.evaluate(TINY_TEXT),
            "targets under 44x44 px": page.evaluate(TARGETS),
            "script errors": errors,
        }
        failures = {k: v for k, v in problems.items() if v}
        if failures:
            pytest.fail(f"{spec.name} ({theme}, {language}):\n" + json.dumps(failures, indent=1))
    finally:
        quiet_page(page)
