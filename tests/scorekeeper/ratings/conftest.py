"""Fixtures of the ratings tests: a league, four players and the two ways a correction
is replayed (the background worker in a thread is tests/scorekeeper/conftest.py's)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from scorekeeper.models import League, Player


@pytest.fixture
def league(user: User) -> League:
    return League.objects.create(name="Thursday table", owner=user)


@pytest.fixture
def four(make_players) -> list[Player]:  # type: ignore[no-untyped-def]
    return make_players("Ana", "Bo", "Cy", "Di")


@pytest.fixture(params=["inline", "background"])
def replay_mode(request, monkeypatch) -> str:  # type: ignore[no-untyped-def]
    """A scenario twice: corrections replayed on the request, and left to the
    background task (run at once by the test settings) one game per chunk."""
    if request.param == "background":
        monkeypatch.setattr("scorekeeper.ratings.hooks.INLINE_POINTS", 0)
        monkeypatch.setattr("scorekeeper.ratings.backlog.CHUNK_GAMES", 1)
        monkeypatch.setattr("scorekeeper.ratings.backlog.MIN_CHUNK_GAMES", 1)
        monkeypatch.setattr("scorekeeper.ratings.backlog.CHUNK_SECONDS", 0.0)
    return str(request.param)
