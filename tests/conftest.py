"""Shared fixtures: users, players and API clients."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from rest_framework.test import APIClient

from scorekeeper.models import Player


@pytest.fixture(autouse=True)
def _empty_process_cache() -> None:
    """Each test starts with an empty process cache: a game of another test may have
    had the same id and version (ids come back when a test's rows are rolled back)."""
    caches["default"].clear()


@pytest.fixture
def user(db: None) -> User:
    return User.objects.create_user("ana", password="table-talk-42")


@pytest.fixture
def other_user(db: None) -> User:
    return User.objects.create_user("bo", password="table-talk-42")


@pytest.fixture
def api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def anon_api() -> APIClient:
    return APIClient()


@pytest.fixture
def make_players(db: None, user: User) -> Callable[..., list[Player]]:
    def make(*names: str) -> list[Player]:
        return [Player.objects.create(name=n, created_by=user) for n in names]

    return make
