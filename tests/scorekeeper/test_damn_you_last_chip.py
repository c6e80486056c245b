"""D$%n You!'s "who paid the last chip?" over the API and on the score sheet.

The document: "In the unlikely event that only one player has chips, the game ends
immediately and they win (this can happen in the middle of a hand)." Passes are paid one
at a time in turn, so passes that leave nobody holding chips were last paid by the
winner: the hand names that player (``last_chip``), required only then.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from scorekeeper.models import Game, Hand, Player
from scorekeeper.services.games import hand_record
from tests.scorekeeper.factories import make_game, make_players
from tests.scorekeeper.test_web_entry_checks import beside
from tests.scorekeeper.test_web_games import post_hand

GAMES = "/api/v1/games/"


@pytest.fixture
def three(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", created_by=user)


def hand(winner: Player, rows: list[tuple[Player, int, int]], **extra: Any) -> dict[str, Any]:
    return {
        "winner": winner.pk,
        "results": [{"player": p.pk, "passes": n, "cards_left": k} for p, n, k in rows],
        **extra,
    }


def spec_game(user: User, players: list[Player]) -> Game:
    """The spec's example after hand 1: A holds 0, B 13, C 2 (5 chips each)."""
    a, b, c = players
    game = make_game(user, "damn-you", players, options={"starting_chips": 5})
    hand_record(game=game, user=user, hand_input=hand(b, [(a, 0, 8), (b, 0, 0), (c, 1, 1)]))
    return game


def post(api: APIClient, game: Game, body: Any) -> Any:
    return api.post(f"{GAMES}{game.pk}/hands/", body, format="json")


def test_api_b_wins_and_the_pot_is_not_awarded(
    api: APIClient, user: User, three: list[Player]
) -> None:
    # Spec: "A 0 / B 13 / C 2; in hand 2 A goes out, B has 5 cards left and C 3: C pays
    # his last 2 chips, only B holds chips, B wins and the pot is not awarded".
    a, b, c = three
    game = spec_game(user, three)
    response = post(api, game, hand(a, [(a, 0, 0), (b, 0, 5), (c, 0, 3)]))
    assert response.status_code == 201, response.content
    state = api.get(f"{GAMES}{game.pk}/").json()
    assert state["status"] == "finished"
    assert state["winners"] == [b.pk]
    assert state["pot"] == 8
    assert {r["player"]: r["score"] for r in state["standings"]} == {a.pk: 0, b.pk: 7, c.pk: 0}


def test_api_last_chip_required_only_when_the_passes_leave_nobody_chips(
    api: APIClient, user: User, three: list[Player]
) -> None:
    a, b, c = three
    game = spec_game(user, three)
    broke = [(a, 0, 0), (b, 20, 5), (c, 5, 3)]
    response = post(api, game, hand(a, broke))
    assert response.status_code == 400
    assert "say who paid the last chip" in " ".join(response.json()["last_chip"])
    response = post(api, game, hand(a, [(a, 0, 0), (b, 0, 5), (c, 0, 3)], last_chip=c.pk))
    assert response.status_code == 400
    assert "asked only when the passes leave nobody holding chips" in (
        " ".join(response.json()["last_chip"])
    )
    assert Hand.objects.filter(game=game).count() == 1
    response = post(api, game, hand(a, broke, last_chip=c.pk))
    assert response.status_code == 201, response.content
    state = api.get(f"{GAMES}{game.pk}/").json()
    assert state["winners"] == [c.pk]
    assert state["hands"][1]["input"]["last_chip"] == c.pk


def test_sheet_asks_who_paid_the_last_chip_only_when_it_matters(
    client: Client, user: User, three: list[Player]
) -> None:
    client.force_login(user)
    a, b, c = three
    game = spec_game(user, three)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Who paid the last chip?" in page
    assert 'id="last-chip" hidden' in page
    entry = {
        "winner": str(a.pk),
        f"passes_{b.pk}": "20",
        f"cards_left_{b.pk}": "5",
        f"passes_{c.pk}": "5",
        f"cards_left_{c.pk}": "3",
    }
    response = post_hand(client, game, entry)
    assert response.status_code == 422
    html = response.content.decode()
    assert 'id="last-chip" hidden' not in html
    assert "say who paid the last chip" in beside(html, "problems-last_chip")
    response = post_hand(client, game, {**entry, "last_chip": str(b.pk)})
    assert response.status_code in (200, 302, 303), response.content
    game.refresh_from_db()
    assert Hand.objects.get(game=game, number=2).input["last_chip"] == b.pk
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "The passes took every chip; Bo paid the last: the game ends here" in page
