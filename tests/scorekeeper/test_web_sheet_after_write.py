"""After a hand is saved, the saving phone gets the table's live answer for the new
version, rendered from the state the write folded and the rows kept for the version
before it: no hand is read or folded a second time, and the write reads the same number
of rows however long the game. After a correction the sheet is rendered from the state
the write folded. Another phone's write in between is still shown."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

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
    sheet(client, game)  # the table's phones read the sheet of the version before
    counted.update(folds=0, reads=0)
    shown = str(Game.objects.get(pk=game.pk).version)
    body = {"winner": str(players[2].pk), "number": "4", "shown": shown}
    response = client.post(f"/games/{game.pk}/hands/", body, **HTMX)
    assert response.status_code == 200
    assert counted == {"folds": 1, "reads": 0}
    html = response.content.decode()
    assert "Hand 4: Cy won it." in html
    assert wins(html) == wins(sheet(client, game)) == ["2", "1", "1"]
    # The phone showed the version before the write: the new row alone, to merge.
    assert 'id="sheet-grid-delta"' in html
    assert 'data-from="4"' in html
    assert hand_rows(html) == ["4"]
    assert hand_rows(sheet(client, game)) == ["1", "2", "3", "4"]
    assert 'data-number="5"' in html


def test_a_phone_behind_gets_the_whole_grid_after_its_save(
    table: tuple[Client, Game, list[Player]],
) -> None:
    client, game, players = table
    body = {"winner": str(players[2].pk), "number": "4", "shown": "1"}
    html = client.post(f"/games/{game.pk}/hands/", body, **HTMX).content.decode()
    assert "sheet-grid-delta" not in html
    assert hand_rows(html) == ["1", "2", "3", "4"]


def test_a_hand_write_reads_as_much_at_300_hands_as_at_10(client: Client, user: User) -> None:
    """The page's form POST and the API's POST: the same queries at 10 and 300 hands,
    and no read of every hand."""
    client.force_login(user)
    token = Token.objects.create(user=user).key
    players = make_players("Ana", "Bo", "Cy", "Di", created_by=user)
    counts: dict[str, list[int]] = {"page": [], "api": []}
    for length in (10, 300):
        game = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
        for number in range(length):
            winner = players[number % 3].pk
            services.hand_record(game=game, user=user, hand_input={"winner": winner})
        sheet(client, game)  # the version before the write is kept, as at a table
        shown = str(Game.objects.get(pk=game.pk).version)
        page = {"winner": str(players[3].pk), "number": str(length + 1), "shown": shown}
        with CaptureQueriesContext(connection) as posted:
            response = client.post(f"/games/{game.pk}/hands/", page, **HTMX)
        assert response.status_code == 200
        assert hand_rows(response.content.decode()) == [str(length + 1)]
        counts["page"].append(len(posted))
        with CaptureQueriesContext(connection) as called:
            response = client.post(
                f"/api/v1/games/{game.pk}/hands/",
                {"winner": players[3].pk},
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Token {token}",
            )
        assert response.status_code == 201
        counts["api"].append(len(called))
        for queries, most in ((posted, 2), (called, 1)):
            read = [q["sql"] for q in queries.captured_queries]
            hands = [sql for sql in read if sql.startswith("SELECT") and "scorekeeper_hand" in sql]
            # The last hand (with its number's last revision); the page's plausibility
            # check also reads the recent hands' inputs. Never every hand.
            assert len(hands) <= most, hands
            assert all("LIMIT" in sql for sql in hands), hands
    assert counts["page"][0] == counts["page"][1], counts
    assert counts["api"][0] == counts["api"][1], counts


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
    # It had not seen the other phone's hand: the whole grid, with both.
    assert hand_rows(html) == ["1", "2", "3", "4", "5"]
    assert wins(html) == ["2", "2", "1"]
