"""Memory is given back after a league import (the file, the compiled schema): a server
that imported once does not stay that large."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from scorekeeper import memory
from scorekeeper.services.backup import schema


@pytest.mark.django_db
def test_an_import_gives_its_memory_back_once_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[str] = []
    monkeypatch.setattr(memory, "give_back", lambda: given.append("back"))
    ana = User.objects.create_user("ana", password="table-talk-42")
    client = APIClient()
    client.force_authenticate(ana)
    client.get("/api/v1/games/")
    assert given == []  # an ordinary request: nothing to give back
    answer = client.post("/api/v1/leagues/import/", {"format": "nonsense"}, format="json")
    assert answer.status_code == 400
    assert given == ["back"]


def test_the_import_schema_is_compiled_only_for_an_import(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[Any] = []
    real = schema._compiled
    monkeypatch.setattr(schema, "_kept", None)
    monkeypatch.setattr(schema, "KEEP_COMPILED", False)
    monkeypatch.setattr(schema, "_compiled", lambda: compiled.append(1) or real())
    monkeypatch.setattr(schema, "give_back", lambda: compiled.append("given back"))
    problem = schema.schema_error({"format": "scorekeeper.league"})
    assert problem is not None
    assert compiled == [1, "given back"]
    assert schema._kept is None  # not kept by a server
