"""Hand after hand at a table without signal: each hand entered offline shows its own
number, dealer and dirt rank, its pad scores by its own dirt rank, and the hands waiting
to send show on the grid as provisional rows and totals, marked so, until the server's
sheet replaces them — with the same totals."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Hand, Player
from scorekeeper.selectors.games import game_state
from scorekeeper.services.games import game_create
from tests.browser.conftest import CHROMIUM_ARGS  # noqa: F401  (the same browser set-up)
from tests.browser.sheet_ui import footer, pad_shows, shoot, tap, watch, went_out
from tests.browser.test_sheet_offline import offline_problems, open_kept, outbox, phone

__all__ = ["phone"]


def banner(page: Any) -> Any:
    return page.locator("#sheet-banner .banner")


def hand_shows(page: Any, number: int, dealer: str, dirt: str) -> None:
    """The banner, the entry and its save bar are all about hand ``number``."""
    expect(banner(page).locator(".banner-hand")).to_contain_text(f"Hand {number}")
    expect(banner(page).locator(".banner-dealer")).to_have_text(f"Dealer: {dealer}")
    expect(banner(page).locator(".banner-facts")).to_contain_text(f"Dirt rank{dirt}")
    expect(page.locator("#entry-heading")).to_contain_text(f"Enter hand {number}")
    expect(page.locator("#entry-heading")).to_contain_text(f"dealer {dealer}")
    expect(page.locator("#entry .callout-value")).to_have_text(dirt)
    expect(page.locator("#entry .savebar-hand")).to_have_text(f"Hand {number}")


def provisional(page: Any, number: int) -> list[str]:
    row = page.locator(f"tr.provisional[data-waiting='{number}']")
    expect(row).to_contain_text("waiting to send")
    return [" ".join(str(t).split()) for t in row.locator("td").all_inner_texts()]


def if_sent(page: Any) -> list[str]:
    """The totals row, counting the hands waiting to send (marked so)."""
    expect(page.locator("tfoot tr.total.has-waiting th")).to_contain_text("with waiting")
    return footer(page, "total")


def test_three_dirt_hands_entered_offline_score_by_their_own_dirt_rank(
    phone: Any, live_server: Any
) -> None:
    page = phone
    owner = User.objects.get(username="ana")
    ana = Player.objects.get(user=owner)
    bo, cy = (Player.objects.create(name=n, created_by=owner) for n in ("Bo", "Cy"))
    # Baby Dirt: dirt ranks 6 4 2 3 5 7; Ana deals first.
    game = game_create(owner=owner, ruleset="dirt", players=[ana.pk, bo.pk, cy.pk])
    problems = watch(page)
    open_kept(page, f"{live_server.url}/games/{game.pk}/")
    page.context.set_offline(True)

    hand_shows(page, 1, "Ana", "6")
    went_out(page, "Ana")
    tap(page, "Bo", "4", "6")
    pad_shows(page, "Bo", "29 pts")
    tap(page, "Cy", "K")
    page.locator("#entry .entry-save").first.click()
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    assert provisional(page, 1) == ["0 0", "29 29", "1 1"]
    assert if_sent(page) == ["0", "29", "1"]

    # Hand 2: Bo deals, 4s are dirt: the same 4 and 6 now score 31.
    hand_shows(page, 2, "Bo", "4")
    went_out(page, "Bo")
    tap(page, "Cy", "4", "6")
    pad_shows(page, "Cy", "31 pts")
    tap(page, "Ana", "JK")
    page.locator("#entry .entry-save").first.click()
    expect(outbox(page)).to_contain_text("2 hands waiting to send")
    assert provisional(page, 2) == ["50 50", "0 29", "31 32"]
    assert if_sent(page) == ["50", "29", "32"]

    # Hand 3: Cy deals, 2s are dirt.
    hand_shows(page, 3, "Cy", "2")
    went_out(page, "Cy")
    tap(page, "Ana", "2")
    pad_shows(page, "Ana", "25 pts")
    tap(page, "Bo", "A")
    page.locator("#entry .entry-save").first.click()
    expect(outbox(page)).to_contain_text("3 hands waiting to send")
    assert provisional(page, 3) == ["25 75", "15 44", "0 32"]
    assert if_sent(page) == ["75", "44", "32"]
    # One totals row: no server's "0 0 0" above the totals with the hands waiting.
    expect(page.locator("tfoot tr.total")).to_have_count(1)
    hand_shows(page, 4, "Ana", "3")
    assert not Hand.objects.filter(game=game).exists()
    page.locator("#sheet-grid").scroll_into_view_if_needed()
    shoot(page, "offline-ahead-1-three-waiting")
    page.emulate_media(color_scheme="dark")
    shoot(page, "offline-ahead-2-three-waiting-dark")
    page.emulate_media(color_scheme="light")

    # A reload offline keeps it all.
    page.reload()
    expect(outbox(page)).to_contain_text("3 hands waiting to send")
    hand_shows(page, 4, "Ana", "3")
    assert if_sent(page) == ["75", "44", "32"]

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(outbox(page)).to_contain_text("3 hands kept on this phone were sent and saved.")
    expect(page.locator("tr.provisional")).to_have_count(0)
    expect(page.locator(".hand-row[data-hand='3']")).to_be_visible()
    assert footer(page) == ["75", "44", "32"]
    hand_shows(page, 4, "Ana", "3")
    assert Hand.objects.filter(game=game).count() == 3
    state = game_state(game)
    assert dict(state.scores) == {ana.pk: 75, bo.pk: 44, cy.pk: 32}
    assert [h.extras["dirt_rank"] for h in state.hands] == ["6", "4", "2"]
    shoot(page, "offline-ahead-3-sent")
    assert not offline_problems(problems), problems


def table(ruleset: str) -> tuple[Any, dict[str, Player]]:
    owner = User.objects.get(username="ana")
    ana = Player.objects.get(user=owner)
    bo, cy = (Player.objects.create(name=n, created_by=owner) for n in ("Bo", "Cy"))
    game = game_create(owner=owner, ruleset=ruleset, players=[ana.pk, bo.pk, cy.pk])
    return game, {"Ana": ana, "Bo": bo, "Cy": cy}


def test_screw_your_neighbour_hands_kept_offline_count_their_wins(
    phone: Any, live_server: Any
) -> None:
    page = phone
    game, players = table("screw-your-neighbour")
    problems = watch(page)
    open_kept(page, f"{live_server.url}/games/{game.pk}/")
    page.context.set_offline(True)
    winner = page.locator("#entry .winner-button")
    winner.filter(has_text="Bo").click()
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 2")
    expect(banner(page).locator(".banner-dealer")).to_have_text("Dealer: Bo")
    expect(banner(page).locator(".banner-facts")).to_contain_text("Target")
    expect(page.locator("#entry legend")).to_contain_text("Who won hand 2?")
    winner.filter(has_text="Bo").click()
    expect(outbox(page)).to_contain_text("2 hands waiting to send")
    expect(banner(page).locator(".banner-hand")).to_contain_text("Hand 3")
    expect(banner(page).locator(".banner-dealer")).to_have_text("Dealer: Cy")
    assert provisional(page, 1) == ["0", "✓ 1", "0"]
    assert provisional(page, 2) == ["0", "✓ 2", "0"]
    assert if_sent(page) == ["0", "2", "0"]
    shoot(page, "offline-ahead-4-screw")

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(outbox(page)).to_contain_text("2 hands kept on this phone were sent and saved.")
    expect(page.locator("tr.provisional")).to_have_count(0)
    assert footer(page) == ["0", "2", "0"]
    assert [h.input["winner"] for h in Hand.objects.filter(game=game).order_by("number")] == [
        players["Bo"].pk
    ] * 2
    assert not offline_problems(problems), problems


def test_damn_you_hands_kept_offline_are_numbered_and_wait_for_their_chips(
    phone: Any, live_server: Any
) -> None:
    page = phone
    game, _ = table("damn-you")
    open_kept(page, f"{live_server.url}/games/{game.pk}/")
    page.context.set_offline(True)
    went_out(page, "Bo")
    for name, count in {"Ana": 5, "Cy": 3}.items():
        row = page.locator("#entry .dy-row").filter(has=page.locator(f"strong:text-is('{name}')"))
        row.locator(".cards-left-input").fill(str(count))
    page.locator("#entry .entry-save").first.click()
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    # The next hand's dealer is known; its antes hang on the chips the server counts.
    expect(banner(page).locator(".banner-hand")).to_contain_text("Hand 2")
    expect(banner(page).locator(".banner-dealer")).to_have_text("Dealer: Bo")
    expect(banner(page).locator(".banner-later")).to_contain_text("once the hands waiting are sent")
    expect(page.locator("#entry .savebar-hand")).to_have_text("Hand 2")
    row = page.locator("tr.provisional[data-waiting='1']")
    expect(row).to_contain_text("waiting to send")
    expect(row).to_contain_text("Bo went out")
    expect(page.locator("tr.total.has-waiting")).to_have_count(0)
    expect(page.locator("#entry .ahead-note")).to_contain_text("as before the hands waiting")
    shoot(page, "offline-ahead-5-damn-you")

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator(".hand-row[data-hand='1']")).to_be_visible()
    expect(page.locator("tr.provisional")).to_have_count(0)
    assert Hand.objects.filter(game=game).count() == 1


def test_dirty_uno_hands_kept_offline_show_their_points_and_wait_for_totals(
    phone: Any, live_server: Any
) -> None:
    page = phone
    game, _ = table("dirty-uno")
    open_kept(page, f"{live_server.url}/games/{game.pk}/")
    page.context.set_offline(True)
    went_out(page, "Ana")
    tap(page, "Bo", "G:5")
    tap(page, "Cy", "W")
    page.locator("#entry .entry-save").first.click()
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    expect(banner(page).locator(".banner-dealer")).to_have_text("Dealer: Bo")
    expect(page.locator("#entry .savebar-hand")).to_have_text("Hand 2")
    # Standard scoring: whoever went out scores the others' cards.
    assert provisional(page, 1) == ["55 55", "· 0", "· 0"]
    assert if_sent(page) == ["55", "0", "0"]

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator(".hand-row[data-hand='1']")).to_be_visible()
    assert footer(page) == ["55", "0", "0"]


def test_the_last_hand_kept_offline_leaves_no_entry_for_a_hand_after_it(
    phone: Any, live_server: Any
) -> None:
    page = phone
    owner = User.objects.get(username="ana")
    ana = Player.objects.get(user=owner)
    bo, cy = (Player.objects.create(name=n, created_by=owner) for n in ("Bo", "Cy"))
    game = game_create(
        owner=owner, ruleset="dirt", variant="tiny-baby-up", players=[ana.pk, bo.pk, cy.pk]
    )
    open_kept(page, f"{live_server.url}/games/{game.pk}/")
    page.context.set_offline(True)
    for number, (out, dirt) in enumerate([("Ana", "3"), ("Bo", "5"), ("Cy", "7")], start=1):
        hand_shows(page, number, ["Ana", "Bo", "Cy"][number - 1], dirt)
        went_out(page, out)
        for name in ("Ana", "Bo", "Cy"):
            if name != out:
                tap(page, name, dirt)
        page.locator("#entry .entry-save").first.click()
        expect(outbox(page)).to_contain_text(f"{number} hand")
    expect(page.locator("#entry")).to_contain_text("Hand 3 is the game's last")
    expect(page.locator("#entry form")).to_have_count(0)
    expect(banner(page)).to_be_hidden()
    assert if_sent(page) == ["50", "50", "50"]

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator("#sheet-result")).to_contain_text("Game over")
    assert Hand.objects.filter(game=game).count() == 3
    assert dict(game_state(game).scores) == {ana.pk: 50, bo.pk: 50, cy.pk: 50}
