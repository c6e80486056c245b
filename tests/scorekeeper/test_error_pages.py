"""The app's own error pages (400, 403, 404, 500, a refused form, a dead join link):
in its layout, saying what happened and what to do, with DEBUG off as in production."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory
from django.urls import include, path

from scorekeeper.api.errors import server_error
from scorekeeper.services.invites import invite_create, invite_revoke
from tests.scorekeeper.factories import make_game, make_players

pytestmark = pytest.mark.django_db


def _crash(request: Any) -> Any:
    raise RuntimeError("a bug")


urlpatterns = [path("crash/", _crash), path("", include("scorekeeper.urls"))]
handler500 = "scorekeeper.api.errors.server_error"


def page_text(response: Any) -> str:
    return response.content.decode()


def assert_app_page(response: Any, status: int, heading: str) -> str:
    assert response.status_code == status
    html = page_text(response)
    assert 'class="topbar"' in html  # the app's layout, with its menu
    assert f"<h1>{heading}</h1>" in html
    assert 'href="/rules/"' in html or 'href="/"' in html  # somewhere to go next
    return html


def test_a_missing_page(client: Client) -> None:
    assert_app_page(client.get("/games/999999/no-such-thing/"), 404, "There is nothing here")


def test_a_missing_game_for_a_signed_in_player(client: Client, user: User) -> None:
    client.force_login(user)
    html = assert_app_page(client.get("/games/999999/"), 404, "There is nothing here")
    assert "Sign out" in html  # still signed in on the error page


def test_a_bad_host_is_the_apps_400(client: Client) -> None:
    assert_app_page(
        client.get("/rules/", HTTP_HOST="evil.example"), 400, "That request could not be read"
    )


def test_a_refused_form_says_nothing_was_saved(user: User) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    html = assert_app_page(browser.post("/players/merge/", {}), 403, "That form had expired")
    assert "Nothing was saved" in html


@pytest.mark.urls(__name__)
def test_a_crash_is_the_apps_500_page() -> None:
    html = assert_app_page(
        Client(raise_request_exception=False).get("/crash/"),
        500,
        "Something went wrong on our side",
    )
    assert "a bug" not in html  # nothing of the server's insides


def test_the_500_page_renders_on_its_own() -> None:
    request = RequestFactory().get("/games/")
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        response = server_error(request)
    assert response.status_code == 500
    assert "Something went wrong on our side" in page_text(response)


def test_a_dead_join_link_says_what_to_do(client: Client, user: User) -> None:
    game = make_game(user, "dirt", make_players("Ana", "Bo", "Cy", created_by=user))
    invite = invite_create(game=game, user=user, role="score")
    invite_revoke(invite=invite, user=user)
    for url in (f"/join/{invite.token}/", "/join/mistyped-token/"):
        html = assert_app_page(client.get(url), 404, "This link to a game does not work")
        assert "revoked" in html
        assert "Ask someone at the table" in html
