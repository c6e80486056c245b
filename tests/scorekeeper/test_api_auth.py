"""Token sign-in for API clients, and what happens without it."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

TOKEN_URL = "/api/v1/auth/token/"


def test_token_for_username_and_password_signs_api_calls(user: User) -> None:
    client = APIClient()
    response = client.post(
        TOKEN_URL, {"username": "ana", "password": "table-talk-42"}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    assert response.json()["username"] == "ana"

    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/v1/games/").status_code == 200
    assert client.post("/api/v1/players/", {"name": "Ana"}, format="json").status_code == 201


def test_same_token_until_revoked(user: User) -> None:
    client = APIClient()
    body = {"username": "ana", "password": "table-talk-42"}
    first = client.post(TOKEN_URL, body, format="json").json()["token"]
    assert client.post(TOKEN_URL, body, format="json").json()["token"] == first

    client.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    assert client.delete(TOKEN_URL).status_code == 204
    assert not Token.objects.filter(user=user).exists()
    assert client.get("/api/v1/games/").status_code == 401

    client.credentials()
    assert client.post(TOKEN_URL, body, format="json").json()["token"] != first


def test_wrong_password_is_a_clear_400(user: User) -> None:
    response = APIClient().post(TOKEN_URL, {"username": "ana", "password": "nope"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"non_field_errors": ["Unable to log in with provided credentials."]}
    assert not Token.objects.exists()


def test_missing_fields_are_named(db: None) -> None:
    response = APIClient().post(TOKEN_URL, {"username": "ana"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"password": ["This field is required."]}


def test_malformed_json_is_a_400(db: None) -> None:
    response = APIClient().post(TOKEN_URL, "{not json", content_type="application/json")
    assert response.status_code == 400
    assert "JSON parse error" in response.json()["detail"]


def test_signed_in_browser_needs_no_csrf_token_to_get_one(user: User) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.login(username="ana", password="table-talk-42")
    response = client.post(
        TOKEN_URL, {"username": "ana", "password": "table-talk-42"}, format="json"
    )
    assert response.status_code == 200


def test_session_writes_need_csrf(user: User) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.login(username="ana", password="table-talk-42")
    assert client.get("/api/v1/players/").status_code == 200
    response = client.post("/api/v1/players/", {"name": "Mo"}, format="json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/api/v1/games/"),
        ("post", "/api/v1/games/"),
        ("get", "/api/v1/games/1/"),
        ("post", "/api/v1/games/1/hands/"),
        ("put", "/api/v1/games/1/hands/1/"),
        ("delete", "/api/v1/games/1/hands/1/"),
        ("get", "/api/v1/players/"),
        ("post", "/api/v1/players/"),
        ("get", "/api/v1/players/1/"),
        ("delete", TOKEN_URL),
    ],
)
def test_everything_but_sign_in_needs_a_user(
    anon_api: APIClient, db: None, method: str, url: str
) -> None:
    response = getattr(anon_api, method)(url, {}, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_unknown_token_is_refused(db: None) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef")
    response = client.get("/api/v1/games/")
    assert response.status_code == 401
    assert response.json() == {"detail": "Invalid token."}


def test_password_guessing_is_slowed_down(user: User) -> None:
    """(tests/scorekeeper/test_sign_in_limits.py has the whole story.)"""
    client = APIClient()
    limit = settings.AXES_FAILURE_LIMIT
    statuses = [
        client.post(
            TOKEN_URL, {"username": "ana", "password": f"guess-{i}"}, format="json"
        ).status_code
        for i in range(limit)
    ]
    assert statuses == [400] * (limit - 1) + [429]
