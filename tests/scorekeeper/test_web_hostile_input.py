"""Hostile input to the pages answers a page with a message (or a 4xx), never a 500
(issue 9): ids in other digits or beyond 64 bits in the forms, huge ``?page=``,
NUL in names and searches."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Game, Hand, League, Membership, Player
from tests.scorekeeper.factories import make_game, make_league, make_players

HTMX = {"HX-Request": "true"}


@pytest.fixture
def three(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", created_by=user)


@pytest.fixture
def league(user: User, three: list[Player]) -> League:
    return make_league(user, members=three)


@pytest.fixture
def ana(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("number", ["²", "٣", "9" * 5000, "-1", "99999999999999999999"])
def test_the_hand_form_s_number(ana: Client, user: User, three: list[Player], number: str) -> None:
    game = make_game(user, "screw-your-neighbour", three)
    response = ana.post(f"/games/{game.pk}/hands/", {"number": number, "winner": three[0].pk})
    assert response.status_code in (302, 409)
    assert Hand.objects.filter(game=game).count() <= 1


@pytest.mark.parametrize("winner", ["²", "٣", "9" * 5000, "99999999999999999999", "\x00"])
def test_the_hand_form_s_player_ids(
    ana: Client, user: User, three: list[Player], winner: str
) -> None:
    game = make_game(user, "dirt", three)
    response = ana.post(
        f"/games/{game.pk}/hands/",
        {
            "number": "1",
            "winner": winner,
            f"points_{three[1].pk}": "٣",
            f"cards_{three[2].pk}": "4H",
        },
    )
    assert response.status_code == 422
    assert not Hand.objects.exists()


@pytest.mark.parametrize("key", ["k" * 256, "tab\there", "clé", "k\x00ey"])
@pytest.mark.parametrize("sent_as", ["field", "header"])
def test_a_bad_idempotency_key_is_refused_with_a_message(
    ana: Client, user: User, three: list[Player], key: str, sent_as: str
) -> None:
    """The API's rule (1 to 255 printable ASCII characters), with the entry's other
    errors: sent three times, nothing is recorded, and the form comes back with a fresh
    key (the API answers 400: test_api_hands.test_bad_idempotency_keys)."""
    game = make_game(user, "screw-your-neighbour", three)
    body = {"number": "1", "winner": three[0].pk}
    url = f"/games/{game.pk}/hands/"
    for _ in range(3):
        if sent_as == "field":  # a page without JavaScript
            response = ana.post(url, {**body, "idempotency_key": key})
        else:  # the phone's outbox
            response = ana.post(url, body, headers={**HTMX, "Idempotency-Key": key})
        assert response.status_code == 422
        page = response.content.decode()
        assert "Not saved." in page
        assert "Idempotency-Key was refused: give from 1 to 255 printable ASCII" in page
        (fresh,) = re.findall(r'name="idempotency_key" value="([^"]*)"', page)
        assert re.fullmatch(r"[0-9a-f]{32}", fresh)
    assert not Hand.objects.filter(game=game).exists()


def test_a_good_hand_form_key_still_replays_and_an_empty_one_is_allowed(
    ana: Client, user: User, three: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", three, options={"target_wins": 5})
    url = f"/games/{game.pk}/hands/"
    key = "a-key with spaces ~ 255 at most"
    for _ in range(2):
        sent = {"number": "1", "winner": three[0].pk, "idempotency_key": f"  {key} "}
        assert ana.post(url, sent).status_code == 302
    assert Hand.objects.filter(game=game).count() == 1
    empty = {"number": "2", "winner": three[1].pk, "idempotency_key": ""}
    assert ana.post(url, empty).status_code == 302
    assert Hand.objects.filter(game=game).count() == 2


def test_long_hand_form_keys_are_kept_whole(ana: Client, user: User, three: list[Player]) -> None:
    """Two phones' keys that share their first hundred characters are two hands, not a
    retry of one (a key is stored whole, up to 255 characters)."""
    game = make_game(user, "screw-your-neighbour", three, options={"target_wins": 5})
    shared = "p" * 150
    for number, (winner, key) in enumerate([(three[0], shared + "-a"), (three[1], shared + "-b")]):
        body = {"number": str(number + 1), "winner": winner.pk, "idempotency_key": key}
        assert ana.post(f"/games/{game.pk}/hands/", body).status_code == 302
    assert Hand.objects.filter(game=game).count() == 2


def new_game(client: Client, three: list[Player], **fields: str) -> Any:
    body = {
        "ruleset": "dirt",
        "seat_count": "3",
        **{f"seat-{i}-player": str(p.pk) for i, p in enumerate(three)},
        **fields,
    }
    return client.post("/games/new/", body)


@pytest.mark.parametrize(
    "fields",
    [
        {"league": "²"},
        {"league": "٣"},
        {"league": "9" * 5000},
        {"league": "99999999999999999999"},
        {"seat-0-player": "²"},
        {"seat-0-player": "١"},
        {"seat-0-player": "99999999999999999999"},
        {"seat-0-player": "", "seat-0-name": "A\x00na"},
        {"first_dealer": "²", "seat_count": "²"},
        {"first_dealer": "9" * 5000, "seat_count": "9" * 5000},
    ],
)
def test_the_new_game_form(ana: Client, three: list[Player], fields: dict[str, str]) -> None:
    response = new_game(ana, three, **fields)
    assert response.status_code in (302, 422)
    if response.status_code == 422:
        assert not Game.objects.exists()
    assert not Player.objects.exclude(pk__in=[p.pk for p in three]).exists()


@pytest.mark.parametrize(
    "data", [{"player": "²"}, {"player": "٣"}, {"player": "9" * 30}, {"name": "a\x00"}]
)
def test_the_add_member_form(ana: Client, league: League, data: dict[str, str]) -> None:
    response = ana.post(f"/leagues/{league.pk}/members/", data, follow=True)
    assert response.status_code == 200
    assert Membership.objects.filter(league=league).count() == 3


@pytest.mark.parametrize(
    "query",
    [
        "page=99999999999999999999",
        "page=-1",
        "page=²",
        "player=99999999999999999999",
        "a=99999999999999999999&b=1",
        "standings=%00",
        "members=all",
    ],
)
def test_league_pages_take_any_query(
    ana: Client, user: User, league: League, three: list[Player], query: str
) -> None:
    make_game(user, "dirt", three, league=league.pk)
    assert ana.get(f"/leagues/{league.pk}/?{query}").status_code == 200
    assert ana.get(f"/leagues/{league.pk}/head-to-head/?{query}").status_code in (200, 400)


@pytest.mark.parametrize(
    "query",
    ["page=99999999999999999999", "league=99999999999999999999", "league=²", "scope=%00"],
)
def test_player_pages_take_any_query(
    ana: Client, league: League, three: list[Player], query: str
) -> None:
    response = ana.get(f"/players/{three[0].pk}/?{query}")
    assert response.status_code == 200


@pytest.mark.parametrize(
    "url",
    [
        "/games/?page=99999999999999999999",
        "/games/new/?ruleset=dirt&from=99999999999999999999",
        "/games/new/?ruleset=dirt&league=²",
        "/rules/search/?q=a%00b",
    ],
)
def test_other_pages_take_any_query(ana: Client, three: list[Player], url: str) -> None:
    assert ana.get(url).status_code in (200, 400)


def test_the_sheet_says_when_a_game_holds_the_most_hands(
    ana: Client, user: User, three: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", three, options={"target_wins": 0})
    Hand.objects.bulk_create(
        Hand(game=game, number=n, input={"winner": three[0].pk}) for n in range(1, 1001)
    )
    response = ana.post(f"/games/{game.pk}/hands/", {"number": "1001", "winner": three[0].pk})
    assert response.status_code == 409
    assert "at most 1,000 hands" in response.content.decode()
    assert Hand.objects.filter(game=game).count() == 1000
