"""Mistakes caught kindly on the score sheet: every problem of an entry at once, each
beside its player in words, and an unlikely hand asked about before it is saved."""

from __future__ import annotations

import html as htmllib
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Game, Hand, Player
from scorekeeper.services.games import hand_record
from tests.scorekeeper.factories import make_game, make_players
from tests.scorekeeper.test_web_games import HTMX, post_hand, text


@pytest.fixture
def ana_client(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


@pytest.fixture
def four(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", "Di", created_by=user)


def beside(html: str, element_id: str) -> str:
    """The text of the element with this id (the message shown beside a player)."""
    found = re.search(rf'<(\w+)[^>]*\bid="{element_id}"[^>]*>(.*?)</\1>', html, flags=re.S)
    assert found is not None, f"no #{element_id}"
    return htmllib.unescape(" ".join(re.sub(r"<[^>]+>", " ", found.group(2)).split()))


def record(user: User, game: Game, winner: Player, **points: int) -> None:
    hand_record(
        game=game,
        user=user,
        hand_input={
            "winner": winner.pk,
            "results": [{"player": int(p), "points": n} for p, n in points.items()],
        },
    )


FIELD_NAMES = re.compile(r"\b(surplus_count|bower_in_surplus|bower_holder|cards_left|results)\b")


def test_two_bad_values_are_both_shown_beside_their_players(
    ana_client: Client, four: list[Player]
) -> None:
    a, b, c, d = four
    game = make_game(User.objects.get(username="ana"), "dirt", four)
    response = post_hand(
        ana_client,
        game,
        {"winner": str(a.pk), f"points_{b.pk}": "-4", f"cards_{c.pk}": "JK ZZ"},
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert beside(html, f"problems-{b.pk}") == "Bo: the points cannot be negative"
    assert beside(html, f"problems-{c.pk}").startswith("Cy: 'ZZ' is not a card")
    assert beside(html, f"problems-{d.pk}") == (
        "Di: nothing entered: give the cards left in hand or the points counted"
    )
    # The summary at the top counts them and links to each.
    body = text(response)
    assert "Not saved: 3 things to fix." in body
    for player in (b, c, d):
        assert f'href="#problems-{player.pk}"' in html
    # Screen readers hear the message with the field.
    assert (
        f'name="points_{b.pk}" value="-4" aria-invalid="true" aria-describedby="problems-{b.pk}"'
        in html
    )
    # What was typed is kept; nothing is saved.
    assert 'value="JK ZZ"' in html
    assert not Hand.objects.filter(game=game).exists()


def test_a_hand_wide_problem_is_shown_once_for_the_hand(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    a, b, c, d = four
    game = make_game(user, "dirt", four)
    response = post_hand(
        ana_client,
        game,
        {
            "winner": str(a.pk),
            f"cards_{b.pk}": "AS AS",
            f"cards_{c.pk}": "AS AS",
            f"points_{d.pk}": "x",
        },
    )
    html = response.content.decode()
    assert beside(html, "problems-hand") == (
        "AS is entered 4 times, but 3 decks with jokers hold only 3 copies"
    )
    assert beside(html, f"problems-{d.pk}").startswith("Di: the points must be a whole number")


def test_damn_you_problems_beside_each_row(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    a, b, c, d = four
    game = make_game(user, "damn-you", four)
    response = post_hand(
        ana_client,
        game,
        {
            "winner": str(b.pk),
            f"passes_{a.pk}": "-1",
            f"cards_left_{a.pk}": "40",
            f"cards_left_{c.pk}": "3",
            f"cards_left_{d.pk}": "0",
        },
    )
    assert response.status_code == 422
    html = response.content.decode()
    mine = beside(html, f"problems-{a.pk}")
    assert "Ana: the passes cannot be negative" in mine
    assert "Ana was dealt 13 cards this hand, so cannot have 40 left" in mine
    assert "Di has 0 cards left, but only the player who went out (Bo) can have none" in (
        beside(html, f"problems-{d.pk}")
    )
    assert f'id="passes_{a.pk}"' in html


def test_dirty_deals_problems_are_in_words(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    a, _b, _c, _d = four
    game = make_game(user, "dirty-deals", four)
    response = post_hand(
        ana_client,
        game,
        {"winner": str(a.pk), "suit": "H", "surplus_count": "-2", "bower_holder": str(a.pk)},
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert beside(html, "problems-surplus") == "Ana: the number of surplus cards cannot be negative"
    assert beside(html, "problems-bower_holder").startswith(
        "The claimant cannot be the bower holder"
    )
    assert not FIELD_NAMES.search(text(response).split("Not saved")[1].split("Who claimed")[0])


@pytest.mark.parametrize(
    ("ruleset", "players", "data"),
    [
        ("dirt", 4, {"winner": "A", "points_B": "-1", "cards_C": "QQ", "cards_D": "1H 2H"}),
        ("dirty-uno", 3, {"winner": "A", "points_B": "x", "cards_C": "Z9 W+5"}),
        ("damn-you", 4, {"winner": "B", "passes_A": "x", "cards_left_A": "-3"}),
        ("dirty-deals", 4, {"winner": "A", "suit": "Q", "surplus_count": "-1"}),
        ("dirty-deals", 4, {"winner": "A", "suit": "H", "surplus": ["JD"], "bower_holder": "C"}),
        (
            "dirty-deals",
            4,
            {"winner": "A", "suit": "H", "surplus_count": "0", "bower_in_surplus": "1"},
        ),
        ("screw-your-neighbour", 3, {"winner": "Z"}),
    ],
)
def test_no_message_names_a_field(
    ana_client: Client,
    user: User,
    four: list[Player],
    ruleset: str,
    players: int,
    data: dict[str, Any],
) -> None:
    seated = four[:players]
    game = make_game(user, ruleset, seated)
    ids = {letter: str(p.pk) for letter, p in zip("ABCD", seated, strict=False)}
    body: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("winner", "bower_holder"):
            body[key] = ids.get(value, "999")
        elif key[-2:] in ("_A", "_B", "_C", "_D"):
            body[f"{key[:-2]}_{ids[key[-1]]}"] = value
        else:
            body[key] = value
    response = post_hand(ana_client, game, body)
    assert response.status_code == 422
    summary = re.search(
        r'<ul class="entry-problem-list">(.*?)</ul>', response.content.decode(), re.S
    )
    assert summary is not None
    words = htmllib.unescape(" ".join(re.sub(r"<[^>]+>", " ", summary.group(1)).split()))
    assert words
    assert not FIELD_NAMES.search(words), words
    assert "_" not in words, words


# -- unlikely hands -----------------------------------------------------------------------


def test_an_unlikely_hand_asks_then_saves_once_confirmed(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    a, b, c, d = four
    game = make_game(user, "dirt", four)
    record(user, game, a, **{str(b.pk): 40, str(c.pk): 38, str(d.pk): 45})
    body = {"winner": str(a.pk), f"points_{b.pk}": "9999", f"points_{c.pk}": "30"}
    body[f"points_{d.pk}"] = "42"
    asked = post_hand(ana_client, game, body)
    assert asked.status_code == 422
    words = text(asked)
    assert "Bo's 9,999 is far above this table's usual (≈40). Save anyway?" in words
    html = asked.content.decode()
    assert f'<input type="hidden" name="confirm" value="{b.pk}:9999">' in html
    assert "Save anyway" in words
    assert "Fix it" in words
    assert 'value="9999"' in html  # the entry is kept
    assert Hand.objects.filter(game=game).count() == 1
    saved = post_hand(ana_client, game, {**body, "confirm": f"{b.pk}:9999"})
    assert saved.status_code == 302
    assert Hand.objects.filter(game=game).count() == 2
    assert Hand.objects.get(game=game, number=2).input["results"][0]["points"] == 9999


def test_a_changed_amount_asks_again(ana_client: Client, user: User, four: list[Player]) -> None:
    a, b, c, d = four
    game = make_game(user, "dirt", four)
    body = {"winner": str(a.pk), f"points_{b.pk}": "8888", f"points_{c.pk}": "3"}
    body[f"points_{d.pk}"] = "4"
    asked = post_hand(ana_client, game, {**body, "confirm": f"{b.pk}:9999"})
    assert asked.status_code == 422
    # No earlier hands: the ruleset's ceiling is the measure.
    assert "Bo's 8,888 is more than a hand usually holds (about 250 points)." in text(asked)
    assert not Hand.objects.filter(game=game).exists()


def test_a_usual_hand_does_not_ask(ana_client: Client, user: User, four: list[Player]) -> None:
    a, b, c, d = four
    game = make_game(user, "dirt", four)
    body = {"winner": str(a.pk), f"points_{b.pk}": "240", f"cards_{c.pk}": "JK JK 7"}
    body[f"points_{d.pk}"] = "4"
    assert post_hand(ana_client, game, body).status_code == 302
    assert Hand.objects.filter(game=game).count() == 1


def test_an_unlikely_correction_asks_too(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    a, b, c, d = four
    game = make_game(user, "dirt", four)
    record(user, game, a, **{str(b.pk): 10, str(c.pk): 12, str(d.pk): 9})
    body = {"winner": str(a.pk), f"points_{b.pk}": "999", f"points_{c.pk}": "12"}
    body[f"points_{d.pk}"] = "9"
    asked = ana_client.post(f"/games/{game.pk}/hands/1/", {**body, "edit_number": "1"})
    assert asked.status_code == 422
    assert "Bo's 999 is more than a hand usually holds" in text(asked)
    assert Hand.objects.get(game=game, number=1).input["results"][0]["points"] == 10
    done = ana_client.post(f"/games/{game.pk}/hands/1/", {**body, "confirm": f"{b.pk}:999"})
    assert done.status_code == 302
    assert Hand.objects.get(game=game, number=1).input["results"][0]["points"] == 999


def test_damn_you_asks_about_many_passes(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    a, b, c, d = four
    game = make_game(user, "damn-you", four, options={"starting_chips": 100})
    body = {
        "winner": str(b.pk),
        f"passes_{a.pk}": "75",
        f"cards_left_{a.pk}": "3",
        f"cards_left_{c.pk}": "3",
        f"cards_left_{d.pk}": "3",
    }
    asked = post_hand(ana_client, game, body, **HTMX)
    assert asked.status_code == 422
    assert "Ana's 75 passes are more than a hand usually holds (about 30 passes)." in text(asked)
    assert post_hand(ana_client, game, {**body, "confirm": f"{a.pk}:75"}, **HTMX).status_code == 200


def test_the_api_never_asks(api: Any, user: User, four: list[Player]) -> None:
    a, b, c, d = four
    game = make_game(user, "dirt", four)
    response = api.post(
        f"/api/v1/games/{game.pk}/hands/",
        {
            "winner": a.pk,
            "results": [
                {"player": b.pk, "points": 9999},
                {"player": c.pk, "points": 1},
                {"player": d.pk, "points": 2},
            ],
        },
        format="json",
    )
    assert response.status_code == 201
    assert Hand.objects.filter(game=game).count() == 1


def test_the_api_lists_every_problem(api: Any, user: User, four: list[Player]) -> None:
    a, b, c, d = four
    game = make_game(user, "dirt", four)
    response = api.post(
        f"/api/v1/games/{game.pk}/hands/",
        {
            "winner": a.pk,
            "results": [{"player": b.pk, "points": -1}, {"player": c.pk, "cards": ["ZZ"]}],
        },
        format="json",
    )
    assert response.status_code == 400
    data = response.json()
    assert len(data["results"]) == 3
    assert [(e["field"], e["player"]) for e in data["errors"]] == [
        ("results", b.pk),
        ("results", c.pk),
        ("results", d.pk),
    ]
    assert data["errors"][0]["message"] == f"player {b.pk}: the points cannot be negative"
