"""Undo puts the hand back into the entry: the sheet after an undo shows the undone
hand's input, so fixing one wrong card is one change and a Save, not the hand again."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Game, Hand, Player
from tests.scorekeeper.factories import make_players
from tests.scorekeeper.test_web_games import (
    HTMX,
    dirt_game,
    grid_totals,
    post_hand,
    sheet_url,
    text,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana_client(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


@pytest.fixture
def four(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", "Di", created_by=user)


def field(response: Any, name: str) -> str | None:
    """The value an input of the entry form shows (None: no such input)."""
    html = response.content.decode()
    tag = re.search(rf'<input[^>]*\bname="{re.escape(name)}"[^>]*>', html)
    if tag is None:
        return None
    value = re.search(r'\bvalue="([^"]*)"', tag.group(0))
    return value.group(1) if value else ""


def hand_two(client: Client, game: Game, four: list[Player], **extra: Any) -> Any:
    a, b, c, d = four
    return post_hand(
        client,
        game,
        {
            "winner": str(a.pk),
            f"cards_{b.pk}": "JK 4H 4S KD",
            f"cards_{c.pk}": "AS 7C 10D 3H",
            f"cards_{d.pk}": "9S 2C JD",
        },
        **extra,
    )


def test_undo_without_javascript_brings_the_hand_back_to_fix(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = dirt_game(user, four)
    a, b, c, d = four
    hand_two(ana_client, game, four)
    totals = grid_totals(ana_client.get(sheet_url(game)))
    assert totals == ["5", "101", "32", "19"]

    page = ana_client.post(f"/games/{game.pk}/hands/2/undo/", follow=True)
    assert "Hand 2 undone: its entry is back below to fix and save again." in text(page)
    assert "Enter hand 2" in text(page)
    assert field(page, f"cards_{b.pk}") == "JK 4H 4S KD"
    assert field(page, f"cards_{c.pk}") == "AS 7C 10D 3H"
    assert field(page, f"cards_{d.pk}") == "9S 2C JD"
    assert re.search(rf'value="{a.pk}"[^>]*checked', page.content.decode())

    # Saved again as it came back, the totals are what they were.
    hand_two(ana_client, game, four)
    assert grid_totals(ana_client.get(sheet_url(game))) == totals
    # Once the hand is in again, the sheet's entry is the next hand's, empty.
    assert field(ana_client.get(sheet_url(game) + "?refill=2"), f"cards_{b.pk}") in ("", None)


def test_undo_by_htmx_answers_with_the_hand_in_the_entry(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = dirt_game(user, four)
    b, c = four[1], four[2]
    hand_two(ana_client, game, four)
    answer = ana_client.post(f"/games/{game.pk}/hands/2/undo/", **HTMX)
    assert answer.status_code == 200
    assert "Hand 2 undone" in text(answer)
    assert field(answer, f"cards_{b.pk}") == "JK 4H 4S KD"
    # One card fixed (Cy's 3H was a 3S: the same points), saved again.
    a, b, c, d = four
    post_hand(
        ana_client,
        game,
        {
            "winner": str(a.pk),
            f"cards_{b.pk}": field(answer, f"cards_{b.pk}"),
            f"cards_{c.pk}": "AS 7C 10D 3S",
            f"cards_{d.pk}": field(answer, f"cards_{d.pk}"),
        },
        **HTMX,
    )
    assert Hand.objects.get(game=game, number=2).input["results"][1]["cards"][-1] == "3S"
    assert grid_totals(ana_client.get(sheet_url(game))) == ["5", "101", "32", "19"]
