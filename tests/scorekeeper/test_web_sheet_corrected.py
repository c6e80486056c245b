"""A corrected hand carries a mark on the sheet (issue 29): its row says "corrected", on
the page, after the correction's own answer and in another phone's live answer; an
undone hand entered again is new, with no mark. The mark comes with the game row: the
live poll reads nothing more for it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Game, Player
from scorekeeper.services import games as services
from tests.scorekeeper.factories import make_game, make_players

HTMX = {"HTTP_HX_REQUEST": "true"}
MARK = re.compile(r'<tr class="hand-row" data-hand="(\d+)">.*?</tr>', flags=re.S)


@pytest.fixture
def table(client: Client, user: User) -> tuple[Client, Game, list[Player]]:
    client.force_login(user)
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    for winner in (players[0], players[1], players[0]):
        services.hand_record(game=game, user=user, hand_input={"winner": winner.pk})
    return client, game, players


def marked(html: str) -> list[int]:
    """The hands whose rows carry the "corrected" mark."""
    return [int(row.group(1)) for row in MARK.finditer(html) if "hand-corrected" in row.group(0)]


def test_a_corrected_hand_is_marked_on_the_sheet(
    table: tuple[Client, Game, list[Player]], user: User
) -> None:
    client, game, players = table
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert marked(page) == []

    answer = client.post(f"/games/{game.pk}/hands/2/", {"winner": players[2].pk}, **HTMX)
    assert answer.status_code == 200
    assert marked(answer.content.decode()) == [2]
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert marked(page) == [2]
    assert '<span class="hand-tag hand-corrected"' in page
    game.refresh_from_db()
    assert game.corrected_hands == [2]

    # Corrected again: still one mark. The same input again is no correction at all.
    services.hand_replace(game=game, number=2, user=user, hand_input={"winner": players[1].pk})
    services.hand_replace(game=game, number=3, user=user, hand_input={"winner": players[0].pk})
    game.refresh_from_db()
    assert game.corrected_hands == [2]


def test_another_phone_sees_the_mark_in_its_live_answer_at_no_extra_query(
    table: tuple[Client, Game, list[Player]], user: User
) -> None:
    client, game, players = table
    game.refresh_from_db()
    seen = game.version
    live = f"/games/{game.pk}/live/?v={seen}&hand=4"
    client.get(live, **HTMX)  # the version's rows are kept
    with CaptureQueriesContext(connection) as before:
        client.get(live, **HTMX)
    services.hand_replace(game=game, number=1, user=user, hand_input={"winner": players[1].pk})
    answer = client.get(live, **HTMX).content.decode()
    assert 1 in marked(answer)
    # The entry stays (the same hand is in play); the standings above it come anew.
    assert 'id="entry"' not in answer
    assert '<div id="sheet-standings" class="standings-line" hx-swap-oob="true">' in answer
    game.refresh_from_db()
    live = f"/games/{game.pk}/live/?v={game.version}&hand=4"
    client.get(live, **HTMX)
    with CaptureQueriesContext(connection) as after:
        client.get(live, **HTMX)
    assert len(after) == len(before)


def test_an_undone_hand_entered_again_is_not_marked(
    table: tuple[Client, Game, list[Player]], user: User
) -> None:
    client, game, players = table
    services.hand_replace(game=game, number=3, user=user, hand_input={"winner": players[2].pk})
    game.refresh_from_db()
    assert game.corrected_hands == [3]
    services.hand_undo(game=game, number=3, user=user)
    services.hand_record(game=game, user=user, hand_input={"winner": players[1].pk})
    game.refresh_from_db()
    assert game.corrected_hands == []
    assert marked(client.get(f"/games/{game.pk}/").content.decode()) == []
