"""Each game's own table tools, as its document describes its play (issue 27, item 6):
a tool the game does not have is refused with a 400 naming ``action`` (on the sheet's
``games/<pk>/table/`` and on the API) and changes nothing; where play has a direction a
card reverses, the direction is a shared tool; who plays first is shown; Screw Your
Neighbour's "Q♠ with 2♠" variation is an option."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games import get_ruleset
from games.rules import rules_for
from games.table_tools import ACTION_TOOLS, table_kit
from scorekeeper.models import Game, TableState
from scorekeeper.services.games import hand_record
from tests.scorekeeper.factories import make_game, make_player, make_user

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Bo", "Cy", "Di")
#: One body for each action (the ones that need more than the action say it).
BODIES: dict[str, dict[str, Any]] = {
    "timer-start": {},
    "timer-pause": {},
    "timer-reset": {},
    "penalty-add": {"amount": 5},
    "penalty-clear": {},
    "direction-flip": {},
    "leader": {"player": None},
}
#: The tools each document calls for.
HAS = {
    "dirt": {"penalty", "direction"},
    "screw-your-neighbour": {"direction"},
    "damn-you": {"leader"},
    "dirty-uno": {"direction"},
    "dirty-deals": {"timer", "leader"},
}
FOREIGN = [
    (slug, action)
    for slug, tools in HAS.items()
    for action, tool in ACTION_TOOLS.items()
    if tool not in tools
]


def _game(slug: str, n: int = 4) -> tuple[Game, User]:
    owner = make_user("ana")
    seated = [make_player(name, created_by=owner) for name in NAMES[:n]]
    return make_game(owner, slug, seated), owner


def _page(owner: User) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def _api(owner: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(owner)
    return client


def test_the_kits_are_the_documents() -> None:
    assert {slug: set(table_kit(slug).tools()) for slug in HAS} == HAS


@pytest.mark.parametrize("slug", list(HAS))
def test_the_api_says_which_actions_the_game_takes(slug: str) -> None:
    game, owner = _game(slug)
    read = _api(owner).get(f"/api/v1/games/{game.pk}/table/").json()
    assert read["actions"] == [a for a, tool in ACTION_TOOLS.items() if tool in HAS[slug]]


@pytest.mark.parametrize(("slug", "action"), FOREIGN)
def test_the_api_refuses_a_tool_the_game_does_not_have(slug: str, action: str) -> None:
    game, owner = _game(slug)
    body = {"action": action, **BODIES[action]}
    answer = _api(owner).post(f"/api/v1/games/{game.pk}/table/", body, format="json")
    assert answer.status_code == 400, answer.content
    message = answer.json()["action"][0]
    assert message.startswith(f"action: {get_ruleset(slug).name} has no ")
    assert not TableState.objects.filter(game=game, revision__gt=0).exists()


@pytest.mark.parametrize(
    ("slug", "action", "says"),
    [
        ("dirty-deals", "penalty-add", "Dirty Deals has no draw penalty"),
        ("dirt", "leader", "Dirt on Your Neighbor has no leader to name"),
        ("damn-you", "direction-flip", "D$%n You! has no direction of play to reverse"),
        ("dirty-uno", "timer-start", "Dirty UNO has no timer"),
    ],
)
def test_the_sheet_refuses_it_too_and_says_what_the_game_has(
    slug: str, action: str, says: str
) -> None:
    game, owner = _game(slug)
    answer = _page(owner).post(
        reverse("game_table", args=[game.pk]), {"action": action, "amount": "5"}
    )
    assert answer.status_code == 400
    message = answer.json()["action"][0]
    assert says in message
    assert "its actions: " in message


@pytest.mark.parametrize(
    ("slug", "action"),
    [
        (slug, action)
        for slug, tools in HAS.items()
        for action, t in ACTION_TOOLS.items()
        if t in tools
    ],
)
def test_the_api_takes_every_tool_the_game_has(slug: str, action: str) -> None:
    game, owner = _game(slug)
    body = {"action": action, **BODIES[action]}
    answer = _api(owner).post(f"/api/v1/games/{game.pk}/table/", body, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["revision"] == 1


@pytest.mark.parametrize(
    ("slug", "reverses", "follows"),
    [
        # "Jack - Reverse direction of play"; black aces pass "in the direction of play".
        ("screw-your-neighbour", "a jack", "Black aces pass every hand this way"),
        # A 0: "pass their entire hand to the person next to them in the current direction".
        ("dirty-uno", "a Reverse", "A 0 passes every hand to the next player this way"),
    ],
)
def test_where_a_card_reverses_play_the_direction_is_shared(
    slug: str, reverses: str, follows: str
) -> None:
    game, owner = _game(slug)
    ana, bo, cy, di = (s.player for s in game.seats.order_by("position"))
    page = _page(owner)
    sheet = page.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert f"Reverse direction ({reverses} played)" in sheet
    assert follows in sheet
    flipped = _api(owner).post(
        f"/api/v1/games/{game.pk}/table/", {"action": "direction-flip"}, format="json"
    )
    assert flipped.json()["clockwise"] is False
    assert page.get(reverse("game_table", args=[game.pk])).json()["clockwise"] is False
    # Like Dirt's, the direction belongs to the hand in play: the next starts clockwise.
    if slug == "screw-your-neighbour":
        hand: dict[str, Any] = {"winner": ana.pk}
    else:
        others = [{"player": p.pk, "points": 10} for p in (bo, cy, di)]
        hand = {"winner": ana.pk, "results": others}
    hand_record(game=game, user=owner, hand_input=hand)
    after = _api(owner).get(f"/api/v1/games/{game.pk}/table/").json()
    assert (after["hand"], after["clockwise"]) == (2, True)


def test_damn_you_asks_who_holds_the_seven_of_diamonds() -> None:
    # "Play proceeds clockwise, beginning with the player who has the Seven of Diamonds.
    # This player lays the seven in the center of the table."
    game, owner = _game("damn-you")
    bo = game.seats.order_by("position")[1].player
    sheet = _page(owner).get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "Who holds the 7♦? They lays it in the centre" not in sheet
    assert "Who holds the 7♦? They lay it in the centre and play first." in sheet
    assert "Plays first: <strong data-leader-name>whoever holds the 7♦</strong>" in sheet
    assert "Reverse direction" not in sheet  # play only ever goes clockwise
    said = _api(owner).post(
        f"/api/v1/games/{game.pk}/table/", {"action": "leader", "player": bo.pk}, format="json"
    )
    assert (said.json()["leader"], said.json()["leader_name"]) == (bo.pk, "Bo")


def test_dirt_shows_who_plays_first_from_the_dealer() -> None:
    # "The play begins with the player to the left of the dealer"; a first card turned
    # up: an "ace switches direction (from the dealer)", a "seven skips (the person to
    # the left of the dealer)".
    game, owner = _game("dirt")
    ana, bo, cy, di = (s.player for s in game.seats.order_by("position"))
    page = _page(owner)
    sheet = unescape(page.get(reverse("game_sheet", args=[game.pk])).content.decode())
    assert "Plays first: <strong data-first-player>Bo</strong> (on the dealer's left)" in sheet
    assert (
        "An ace turned up: Di (on the dealer's right) plays first and play goes "
        "counter-clockwise." in sheet
    )
    assert (
        "A seven turned up: Cy (two seats to the dealer's left) plays first (the player on "
        "the dealer's left is skipped)." in sheet
    )
    others = [{"player": p.pk, "points": 10} for p in (bo, cy, di)]
    hand_record(game=game, user=owner, hand_input={"winner": ana.pk, "results": others})
    # Bo deals the second hand: Cy plays first.
    tools = page.get(reverse("game_table", args=[game.pk])).json()["tools"]
    assert (tools["first_player"], tools["first_player_seat"]) == ("Cy", "on the dealer's left")


def test_screw_has_the_queen_with_two_of_spades_variation_as_an_option() -> None:
    # "Note: Queen of spades can be combined with the 2 of Spades in a variation."
    rules = get_ruleset("screw-your-neighbour")
    assert rules.default_options(4)["queen_two_spades"] == "no"
    option = rules.metadata()["options"]["queen_two_spades"]
    assert option["choices"] == ["no", "yes"]
    assert "House reading:" in option["help"]
    # A variation of the play: the sheet scores a hand win as a hand win either way.
    config = rules.configure(players=[1, 2, 3], options={"queen_two_spades": "yes"})
    assert rules.play(config, [{"winner": 2}]).scores[2] == 1
    house = next(s for s in rules_for("screw-your-neighbour").sections if s.slug == "house-rules")
    assert "(`queen_two_spades`)" in house.body
    owner = make_user("ana")
    page = _page(owner)
    form = page.get(reverse("game_new"), {"ruleset": "screw-your-neighbour"}).content.decode()
    assert 'name="option-queen_two_spades"' in form
    seated = [make_player(n, created_by=owner) for n in NAMES[:3]]
    game = make_game(owner, "screw-your-neighbour", seated, options={"queen_two_spades": "yes"})
    display = page.get(reverse("game_display", args=[game.pk])).content.decode()
    assert "Q♠ with 2♠" in display
