"""One render at a time of each live answer in a process (``web.live_answer.Renders``):
the phones of a table ask for the same answer at the same moment, and the threads of a
worker that all found it missing must not all render it."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from scorekeeper.models import Game
from scorekeeper.services import games as services
from scorekeeper.web import games as pages
from scorekeeper.web.live_answer import Renders
from tests.scorekeeper.factories import make_game, make_players


def test_requests_for_the_same_answer_take_turns_and_others_do_not_wait() -> None:
    renders = Renders()
    inside: list[str] = []
    first_in, release = threading.Event(), threading.Event()

    def first() -> None:
        with renders.one_at_a_time("game 1 v2"):
            inside.append("first in")
            first_in.set()
            release.wait(5)
            inside.append("first out")

    def same() -> None:
        with renders.one_at_a_time("game 1 v2"):
            inside.append("same in")

    def other() -> None:
        with renders.one_at_a_time("game 2 v7"):
            inside.append("other in")

    one = threading.Thread(target=first)
    one.start()
    assert first_in.wait(5)
    two, three = threading.Thread(target=same), threading.Thread(target=other)
    two.start()
    three.start()
    three.join(5)
    time.sleep(0.05)  # the same answer's request is still waiting
    assert inside == ["first in", "other in"]
    release.set()
    one.join(5)
    two.join(5)
    assert inside == ["first in", "other in", "first out", "same in"]
    assert len(renders) == 0  # nothing kept once no request holds or waits


def test_a_failed_render_lets_the_next_request_render() -> None:
    renders = Renders()
    try:
        with renders.one_at_a_time("k"):
            raise RuntimeError("the database went away")
    except RuntimeError:
        pass
    done = threading.Event()

    def again() -> None:
        with renders.one_at_a_time("k"):
            done.set()

    threading.Thread(target=again).start()
    assert done.wait(2)


@pytest.mark.postgres
@pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="needs PostgreSQL: threads each with a connection of their own",
)
@pytest.mark.django_db(transaction=True)
def test_the_phones_asking_at_once_get_one_render_between_them(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four phones of a table ask for the same answer at the same moment (a hand saved
    through the API: nothing kept): it is rendered once, and every phone gets it."""
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    services.hand_record(game=game, user=user, hand_input={"winner": players[0].pk})
    version = Game.objects.get(pk=game.pk).version
    renders: list[int] = []
    real = pages.sheet_context

    def slow_context(*args: Any, **kwargs: Any) -> Any:  # only a render makes it
        renders.append(1)
        time.sleep(0.2)  # long enough for the others to arrive meanwhile
        return real(*args, **kwargs)

    monkeypatch.setattr(pages, "sheet_context", slow_context)
    start = threading.Barrier(4)
    answers: list[bytes] = []

    def phone() -> None:
        client = Client()
        client.force_login(user)
        start.wait(5)
        got = client.get(f"/games/{game.pk}/live/?v={version - 1}&hand=1", HTTP_HX_REQUEST="true")
        answers.append(got.content if got.status_code == 200 else b"")
        connection.close()

    threads = [threading.Thread(target=phone) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(renders) == 1, renders
    assert len(answers) == 4
    assert len(set(answers)) == 1  # the same answer for every phone
    assert b'data-hand="1"' in answers[0]
