"""API tokens are read on every request (DRF's ``TokenAuthentication``, nothing cached): a
revoked token, a deleted account or a deactivated one is refused by the very next
request."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


def _client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


@pytest.mark.django_db
def test_a_token_signs_its_account_in() -> None:
    ana = User.objects.create_user("ana", password="table-talk-42")
    token = Token.objects.create(user=ana)
    answer = _client(token.key).get("/api/v1/games/")
    assert answer.status_code == 200
    assert _client("not-a-token").get("/api/v1/games/").status_code == 401


@pytest.mark.django_db
def test_a_revoked_token_is_refused_at_once() -> None:
    ana = User.objects.create_user("ana", password="table-talk-42")
    client = _client(Token.objects.create(user=ana).key)
    assert client.get("/api/v1/games/").status_code == 200
    assert client.delete("/api/v1/auth/token/").status_code == 204
    refused = client.get("/api/v1/games/")
    assert refused.status_code == 401
    assert refused.json()["detail"] == "Invalid token."


@pytest.mark.django_db
def test_a_deactivated_or_deleted_account_is_refused_at_once() -> None:
    ana = User.objects.create_user("ana", password="table-talk-42")
    bo = User.objects.create_user("bo", password="table-talk-42")
    ana_client = _client(Token.objects.create(user=ana).key)
    bo_client = _client(Token.objects.create(user=bo).key)
    assert ana_client.get("/api/v1/games/").status_code == 200
    assert bo_client.get("/api/v1/games/").status_code == 200
    User.objects.filter(pk=ana.pk).update(is_active=False)
    bo.delete()
    assert ana_client.get("/api/v1/games/").status_code == 401
    assert bo_client.get("/api/v1/games/").status_code == 401
