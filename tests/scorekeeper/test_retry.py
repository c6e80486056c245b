"""A write aborted by the database to break a deadlock is run once more, whole."""

from __future__ import annotations

import pytest
from django.db import OperationalError, transaction
from psycopg import errors

from scorekeeper.models import HandRevision
from scorekeeper.services import locked_game
from scorekeeper.services.games import hand_replace
from tests.scorekeeper.league_factories import play_syn


def deadlock() -> OperationalError:
    error = OperationalError("deadlock detected")
    error.__cause__ = errors.DeadlockDetected("deadlock detected")
    return error


@pytest.fixture
def aborted_once(monkeypatch) -> list[str]:  # type: ignore[no-untyped-def]
    """The league hook of the next write fails as PostgreSQL's deadlock victim would, once."""
    calls: list[str] = []
    real = locked_game.game_changed

    def game_changed(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append("hook")
        if len(calls) == 1:
            raise deadlock()
        return real(*args, **kwargs)

    monkeypatch.setattr(locked_game, "game_changed", game_changed)
    return calls


@pytest.mark.django_db(transaction=True)
def test_a_write_that_lost_a_deadlock_is_run_again_whole(user, make_players, aborted_once):
    three = make_players("Ana", "Bo", "Cy")
    game = play_syn(user, None, three, [three[0]])
    aborted_once.clear()

    written = hand_replace(game=game, number=1, user=user, hand_input={"winner": three[1].pk})

    assert aborted_once == ["hook", "hook"]
    assert written.hand is not None
    assert written.hand.revision == 2
    assert HandRevision.objects.filter(game=game, number=1, revision=2).count() == 1


@pytest.mark.django_db(transaction=True)
def test_inside_a_callers_transaction_the_error_goes_up(user, make_players, aborted_once):
    three = make_players("Ana", "Bo", "Cy")
    game = play_syn(user, None, three, [three[0]])
    aborted_once.clear()

    with pytest.raises(OperationalError), transaction.atomic():
        hand_replace(game=game, number=1, user=user, hand_input={"winner": three[1].pk})
    assert aborted_once == ["hook"]
