"""The new-game form's house rules (D$%n You!'s game length, the readings of the
originals, Partner Dirt at six) and the Dirty Deals sheet refusing a bower in nobody's
hand, as a user sees them."""

from __future__ import annotations

import html as htmllib
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Game, Hand, Player
from tests.scorekeeper.factories import make_game, make_players


@pytest.fixture
def ana_client(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


@pytest.fixture
def six(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", "Di", "Ed", "Flo", created_by=user)


def text(response: Any) -> str:
    html = response.content.decode()
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return htmllib.unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


def new_game(players: list[Player], ruleset: str, **fields: str) -> dict[str, str]:
    return {
        "ruleset": ruleset,
        "seat_count": str(len(players)),
        **{f"seat-{i}-player": str(p.pk) for i, p in enumerate(players)},
        "first_dealer": "0",
        **fields,
    }


def test_the_form_offers_damn_you_game_lengths(ana_client: Client, six: list[Player]) -> None:
    page = ana_client.get("/games/new/?ruleset=damn-you")
    assert page.status_code == 200
    body = text(page)
    assert "Game length" in body
    assert "One deal by each player (default)" in body
    assert "A number of rounds" in body
    assert "Until one player has all chips" in body
    assert "Default: One deal by each player." in body
    html = page.content.decode()
    assert '<option value="one-deal-each" selected>' in html
    assert re.search(
        r'<input type="number" id="option-rounds" name="option-rounds" value="2"', html
    )


@pytest.mark.parametrize(
    ("fields", "options", "hands_shown"),
    [
        (
            {"option-game_length": "rounds", "option-rounds": "3"},
            {"game_length": "rounds", "rounds": 3},
            "Hand 1 of 12",
        ),
        ({"option-game_length": "all-chips"}, {"game_length": "all-chips"}, "Hand 1"),
        ({}, {"game_length": "one-deal-each"}, "Hand 1 of 4"),
    ],
)
def test_a_damn_you_game_starts_with_its_length(
    ana_client: Client,
    six: list[Player],
    fields: dict[str, str],
    options: dict[str, Any],
    hands_shown: str,
) -> None:
    response = ana_client.post("/games/new/", new_game(six[:4], "damn-you", **fields))
    assert response.status_code == 302
    game = Game.objects.get()
    assert {k: game.options[k] for k in options} == options
    # The sheet's banner counts the hands the game lasts (none for all-chips).
    sheet = text(ana_client.get(f"/games/{game.pk}/"))
    assert hands_shown in sheet
    if hands_shown == "Hand 1":
        assert "Hand 1 of" not in sheet


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        (
            {"option-game_length": "rounds", "option-rounds": "0"},
            "Rounds: must be between 1 and 20",
        ),
        ({"option-game_length": "forever"}, "Game length: must be one of"),
    ],
)
def test_a_bad_game_length_is_a_form_message(
    ana_client: Client, six: list[Player], fields: dict[str, str], words: str
) -> None:
    response = ana_client.post("/games/new/", new_game(six[:4], "damn-you", **fields))
    assert response.status_code == 422
    assert words in text(response)
    assert not Game.objects.exists()


def test_screw_keeps_its_target_words_and_offers_the_readings(ana_client: Client) -> None:
    body = text(ana_client.get("/games/new/?ruleset=screw-your-neighbour"))
    assert "0 — no target, end by hand" in body
    assert "Joker laid alone: Switch swap" in body
    assert "2 + joker Match: cards picked up" in body
    dirt = text(ana_client.get("/games/new/?ruleset=dirt"))
    assert "Nothing to lay" in dirt
    assert "until-playable" in dirt


@pytest.mark.parametrize(
    ("teams", "expected"),
    [(["1", "2", "3", "1", "2", "3"], 3), (["1", "2", "1", "2", "1", "2"], 2)],
)
def test_partner_dirt_at_six_as_three_pairs_or_two_threes(
    ana_client: Client, six: list[Player], teams: list[str], expected: int
) -> None:
    fields = {f"seat-{i}-team": t for i, t in enumerate(teams)}
    response = ana_client.post(
        "/games/new/", new_game(six, "dirt", partners="1", variant="baby", **fields)
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert len(game.teams) == expected
    assert {len(team) for team in game.teams} == {6 // expected}


def test_dirty_deals_sheet_refuses_a_bower_in_nobodys_hand(
    ana_client: Client, user: User, six: list[Player]
) -> None:
    game = make_game(user, "dirty-deals", six[:4])
    a, _b, c, _d = six[:4]
    claim = {"number": "1", "winner": str(a.pk), "suit": "S", "surplus": ["10H"]}
    refused = ana_client.post(f"/games/{game.pk}/hands/", {**claim, "bower_holder": ""})
    assert refused.status_code == 422
    page = text(refused)
    assert (
        "The bower JC is not in the claimant's surplus, so another player holds it: say who "
        "(or, if the claimant holds it, add it to the surplus)"
    ) in page
    html = refused.content.decode()
    assert 'class="field-error" id="problems-bower_holder"' in html
    assert "Nobody else: it is in the surplus" in page
    assert not Hand.objects.exists()
    saved = ana_client.post(f"/games/{game.pk}/hands/", {**claim, "bower_holder": str(c.pk)})
    assert saved.status_code == 302
    assert Hand.objects.count() == 1
