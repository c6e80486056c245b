"""After a hand is saved or corrected, the sheet is rendered from the state the write
folded, with the hands the request read before it: the game is not read, nor any hand
folded, a second time. Another phone's write in between is still shown."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.screw_your_neighbour import ScrewYourNeighbour
from scorekeeper.models import Game, Player
from scorekeeper.services import games as services
from scorekeeper.web import games as pages
from scorekeeper.web import sheet_context
from tests.scorekeeper.factories import make_game, make_players

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table(client: Client, user: User) -> tuple[Client, Game, list[Player]]:
    client.force_login(user)
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    for winner in (players[0], players[1], players[0]):
        services.hand_record(game=game, user=user, hand_input={"winner": winner.pk})
    return client, game, players


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often a hand is folded, and the game read and its state built, by the page."""
    calls = {"folds": 0, "reads": 0}
    fold = ScrewYourNeighbour.fold
    reload, state = sheet_context.reload_access, pages.game_state

    def counting_fold(self: Any, *args: Any) -> Any:
        calls["folds"] += 1
        return fold(self, *args)

    def counting(real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls["reads"] += 1
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(ScrewYourNeighbour, "fold", counting_fold)
    monkeypatch.setattr(sheet_context, "reload_access", counting(reload))
    monkeypatch.setattr(pages, "reload_access", sheet_context.reload_access)
    monkeypatch.setattr(sheet_context, "game_state", counting(state))
    monkeypatch.setattr(pages, "game_state", sheet_context.game_state)
    return calls


def wins(html: str) -> list[str]:
    row = re.search(r'<tr class="total">(.*?)</tr>', html, flags=re.S)
    assert row is not None
    return re.findall(r"<td>([^<]*)</td>", row.group(1))


def hand_rows(html: str) -> list[str]:
    return re.findall(r'<tr[^>]* data-hand="(\d+)"', html)


def sheet(client: Client, game: Game) -> str:
    return client.get(f"/games/{game.pk}/", **HTMX).content.decode()


def test_a_saved_hand_is_shown_from_the_write_alone(
    table: tuple[Client, Game, list[Player]], counted: dict[str, int]
) -> None:
    client, game, players = table
    body = {"winner": str(players[2].pk), "number": "4"}
    response = client.post(f"/games/{game.pk}/hands/", body, **HTMX)
    assert response.status_code == 200
    assert counted == {"folds": 1, "reads": 0}
    html = response.content.decode()
    assert "Hand 4: Cy won it." in html
    assert wins(html) == wins(sheet(client, game)) == ["2", "1", "1"]
    assert hand_rows(html) == hand_rows(sheet(client, game)) == ["1", "2", "3", "4"]
    assert 'data-number="5"' in html


def test_a_corrected_hand_is_shown_from_the_write_alone(
    table: tuple[Client, Game, list[Player]], counted: dict[str, int]
) -> None:
    client, game, players = table
    response = client.post(f"/games/{game.pk}/hands/2/", {"winner": str(players[2].pk)}, **HTMX)
    assert response.status_code == 200
    # Hand 2 and the one after it are folded once, by the write; the state is built once,
    # before it (the hand's number is checked against it), and not again after it.
    assert counted == {"folds": 2, "reads": 1}
    html = response.content.decode()
    assert "Hand 2: Cy won it." in html
    assert wins(html) == wins(sheet(client, game)) == ["2", "0", "1"]
    assert hand_rows(html) == ["1", "2", "3"]


def test_a_hand_saved_by_another_phone_meanwhile_is_shown_too(
    table: tuple[Client, Game, list[Player]],
    counted: dict[str, int],
    monkeypatch: pytest.MonkeyPatch,
    user: User,
) -> None:
    client, game, players = table
    record = services.hand_record

    def after_another_phone(**kwargs: Any) -> Any:
        record(game=game, user=user, hand_input={"winner": players[1].pk})
        kwargs.pop("expected_number")
        return record(**kwargs)

    monkeypatch.setattr(pages, "hand_record", after_another_phone)
    response = client.post(f"/games/{game.pk}/hands/", {"winner": str(players[2].pk)}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert hand_rows(html) == ["1", "2", "3", "4", "5"]
    assert wins(html) == ["2", "2", "1"]
    assert counted["reads"] == 2  # the game read again, and its state
