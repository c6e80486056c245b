"""The cards pads of a blank entry (Dirt, Dirty UNO) are kept by who plays, not by the
game's version: a new hand's panel shows them without rendering them again, a renamed
player shows the new name, and an entry refused with values typed shows those values
(never a kept blank one), while the next blank entry is blank again."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Game, Player
from scorekeeper.services import games as services
from tests.scorekeeper.factories import make_game, make_players


def pads(page: str) -> dict[str, str]:
    """Each pad's player name and its cards input's value, by player id."""
    found = {}
    pad = r'<details class="pad[^"]*" data-player="(\d+)" data-name="([^"]*)"'
    for pid, name in re.findall(pad, page):
        value = re.search(rf'name="cards_{pid}" value="([^"]*)"', page)
        found[pid] = f"{name}={value.group(1) if value else '?'}"
    return found


@pytest.fixture
def dirt(client: Client, user: User) -> tuple[Client, Game, list[Player]]:
    client.force_login(user)
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    return client, make_game(user, "dirt", players), players


@pytest.mark.django_db
def test_a_blank_entry_shows_the_players_as_they_are_named_now(
    dirt: tuple[Client, Game, list[Player]], user: User
) -> None:
    client, game, players = dirt
    first = pads(client.get(f"/games/{game.pk}/").content.decode())
    assert sorted(first.values()) == ["Ana=", "Bo=", "Cy="]
    services.hand_record(
        game=game, user=user, hand_input={"winner": players[0].pk, "results": [
            {"player": players[1].pk, "points": 5}, {"player": players[2].pk, "points": 3}]},
    )  # fmt: skip
    Player.objects.filter(pk=players[1].pk).update(name="Bea")
    Game.objects.filter(pk=game.pk).update(version=game.version + 5)
    after = pads(client.get(f"/games/{game.pk}/").content.decode())
    assert sorted(after.values()) == ["Ana=", "Bea=", "Cy="]


@pytest.mark.django_db
def test_a_refused_entry_shows_what_was_typed_and_the_next_blank_one_is_blank(
    dirt: tuple[Client, Game, list[Player]],
) -> None:
    client, game, players = dirt
    client.get(f"/games/{game.pk}/")  # the blank pads kept
    refused = client.post(
        f"/games/{game.pk}/hands/",
        {"number": "1", "winner": str(players[0].pk), f"cards_{players[1].pk}": "ZZ 4H"},
        HTTP_HX_REQUEST="true",
    )
    assert refused.status_code == 422
    shown = pads(refused.content.decode())
    assert shown[str(players[1].pk)] == "Bo=ZZ 4H"
    again = pads(client.get(f"/games/{game.pk}/").content.decode())
    assert sorted(again.values()) == ["Ana=", "Bo=", "Cy="]
