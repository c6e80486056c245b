"""After a hand, every phone's live answer is rendered once per game version and shared:
each phone still gets its own CSRF token and its own idempotency key for the next
entry, and a phone that asks again with the answer's ETag gets 304."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Game, Player
from scorekeeper.services.games import game_create, hand_record

HTMX = {"HTTP_HX_REQUEST": "true"}


def _field(body: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}" value="([^"]+)"', body)


@pytest.mark.django_db
def test_two_phones_share_one_render_with_their_own_tokens_and_keys() -> None:
    ana = User.objects.create_user("ana", password="table-talk-42")
    seats = [Player.objects.create(name=n, created_by=ana).pk for n in ("Ana", "Bo", "Cy")]
    game = game_create(
        owner=ana, ruleset="screw-your-neighbour", players=seats, options={"target_wins": 0}
    )
    phones = [Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)]
    for phone in phones:
        phone.force_login(ana)
        phone.get(f"/games/{game.pk}/")  # each has its CSRF cookie
    hand_record(game=game, user=ana, hand_input={"winner": seats[1]})
    url = f"/games/{game.pk}/live/?v={game.version}&hand=1"
    first = phones[0].get(url, **HTMX)
    with CaptureQueriesContext(connection) as second_queries:
        second = phones[1].get(url, **HTMX)
    assert first.status_code == second.status_code == 200
    one, two = first.content.decode(), second.content.decode()
    assert "Hand 1 was saved on another phone." in one
    assert "Hand 1 was saved on another phone." in two
    # The second phone's answer came from the first's render: the access check only.
    assert len(second_queries) <= 3
    assert "placeholder" not in one + two
    # Its own CSRF token (valid for its session) and its own idempotency key.
    assert _field(one, "idempotency_key")
    assert _field(two, "idempotency_key")
    assert _field(one, "idempotency_key") != _field(two, "idempotency_key")
    assert _field(one, "csrfmiddlewaretoken")
    assert _field(two, "csrfmiddlewaretoken")
    saved = phones[1].post(
        f"/games/{game.pk}/hands/",
        {
            "number": "2",
            "winner": str(seats[0]),
            "csrfmiddlewaretoken": _field(two, "csrfmiddlewaretoken")[0],
            "idempotency_key": _field(two, "idempotency_key")[0],
        },
        **HTMX,
    )
    assert saved.status_code == 200
    assert Game.objects.get(pk=game.pk).hand_count == 2


@pytest.mark.django_db
def test_a_phone_that_is_current_gets_304() -> None:
    ana = User.objects.create_user("ana", password="table-talk-42")
    seats = [Player.objects.create(name=n, created_by=ana).pk for n in ("Ana", "Bo", "Cy")]
    game = game_create(
        owner=ana, ruleset="screw-your-neighbour", players=seats, options={"target_wins": 0}
    )
    phone = Client()
    phone.force_login(ana)
    hand_record(game=game, user=ana, hand_input={"winner": seats[1]})
    url = f"/games/{game.pk}/live/?v={game.version}&hand=1"
    answer = phone.get(url, **HTMX)
    assert answer.status_code == 200
    again = phone.get(url, HTTP_IF_NONE_MATCH=answer["ETag"], **HTMX)
    assert again.status_code == 304
    hand_record(game=Game.objects.get(pk=game.pk), user=ana, hand_input={"winner": seats[0]})
    changed = phone.get(url, HTTP_IF_NONE_MATCH=answer["ETag"], **HTMX)
    assert changed.status_code == 200


@pytest.mark.django_db
def test_the_first_phone_to_ask_after_a_hand_saved_on_the_sheet_reads_only_the_game_row() -> None:
    """The saving phone kept the hand's state for the new version: the first answer
    renders from it, reading the game's row once (no second read, no column fetched
    on its own) besides the signed-in session and its user."""
    ana = User.objects.create_user("ana", password="table-talk-42")
    seats = [Player.objects.create(name=n, created_by=ana).pk for n in ("Ana", "Bo", "Cy")]
    game = game_create(
        owner=ana, ruleset="screw-your-neighbour", players=seats, options={"target_wins": 0}
    )
    saver, watcher = Client(), Client()
    for phone in (saver, watcher):
        phone.force_login(ana)
    before = Game.objects.get(pk=game.pk).version
    saved = saver.post(f"/games/{game.pk}/hands/", {"number": "1", "winner": str(seats[2])}, **HTMX)
    assert saved.status_code == 200
    after = Game.objects.get(pk=game.pk).version
    url = f"/games/{game.pk}/live/?v={before}&hand=1&from=1&to={after}"
    with CaptureQueriesContext(connection) as queries:
        answer = watcher.get(url, **HTMX)
    assert answer.status_code == 200
    assert "Hand 1 was saved on another phone." in answer.content.decode()
    games = [q["sql"] for q in queries.captured_queries if "scorekeeper_game" in q["sql"]]
    assert len(games) == 1, games
    assert len(queries) <= 3, [q["sql"] for q in queries.captured_queries]
