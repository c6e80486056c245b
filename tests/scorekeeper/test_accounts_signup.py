"""Who may create an account (``SIGNUP``): anyone, whoever has an invitation (made in the
admin, or by users when ``SIGNUP_INVITES_BY=users``; limited uses, an expiry), or nobody.
The sign-up page and ``POST /api/v1/auth/signup/`` follow the same policy."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scorekeeper.models import Player, SignupInvitation

PHRASE = "a-long-pass-phrase"
API = "/api/v1/auth/signup/"
INVITE = override_settings(SIGNUP="invite")
CLOSED = override_settings(SIGNUP="closed")


def page_signup(client: Client, username: str, **extra: str) -> Any:
    body = {
        "username": username,
        "email": f"{username}@example.org",
        "password1": PHRASE,
        "password2": PHRASE,
        **extra,
    }
    return client.post("/accounts/signup/", body)


def api_signup(username: str, **extra: str) -> Any:
    body = {"username": username, "email": f"{username}@example.org", "password": PHRASE}
    return APIClient().post(API, {**body, **extra}, format="json")


def test_open_sign_up_asks_for_an_email_address(db: None) -> None:
    client = Client()
    missing = client.post(
        "/accounts/signup/", {"username": "cy", "password1": PHRASE, "password2": PHRASE}
    )
    assert missing.status_code == 200
    assert "This field is required." in missing.content.decode()
    assert page_signup(client, "cy", display_name="Cy").status_code == 302
    user = User.objects.get(username="cy")
    assert user.email == "cy@example.org"
    assert Player.objects.get(user=user).name == "Cy"


def test_open_sign_up_by_the_api_answers_a_token(db: None) -> None:
    response = api_signup("dee", name="Dee D")
    assert response.status_code == 201
    body = response.json()
    assert body["username"] == "dee"
    assert Token.objects.get(user__username="dee").key == body["token"]
    assert Player.objects.get(user__username="dee").name == "Dee D"
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert client.get("/api/v1/games/").status_code == 200


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"username": "bad name!"}, "username"),
        ({"username": "ana"}, "username"),
        ({"password": "123"}, "password"),
        ({"email": "nope"}, "email"),
        ({"name": "\u202eyrollam"}, "name"),
        ({"username": "x" * 200}, "username"),
    ],
)
def test_api_sign_up_names_the_refused_field(
    user: User, fields: dict[str, str], field: str
) -> None:
    body = {"username": "eve", "email": "eve@example.org", "password": PHRASE, **fields}
    response = APIClient().post(API, body, format="json")
    assert response.status_code == 400
    assert list(response.json()) == [field]


@CLOSED
def test_closed_sign_up_is_refused_on_the_page_and_the_api(db: None) -> None:
    client = Client()
    page = client.get("/accounts/signup/")
    assert page.status_code == 403
    assert "Sign-up is closed" in page.content.decode()
    assert page_signup(client, "cy").status_code == 403
    response = api_signup("cy")
    assert response.status_code == 403
    assert "Sign-up is closed" in response.json()["detail"]
    assert not User.objects.filter(username="cy").exists()
    login = client.get("/accounts/login/").content.decode()
    assert "/accounts/signup/" not in login
    assert "/accounts/signup/" not in client.get("/").content.decode()


def test_open_sign_in_page_offers_sign_up(db: None) -> None:
    assert 'href="/accounts/signup/"' in Client().get("/accounts/login/").content.decode()


@INVITE
def test_an_invitation_is_used_once_then_refused(db: None) -> None:
    invitation = SignupInvitation.objects.create(note="Cy")
    client = Client()
    form = client.get(f"/accounts/signup/?invite={invitation.code}").content.decode()
    assert f'value="{invitation.code}"' in form
    assert page_signup(client, "cy", invite=invitation.code).status_code == 302
    invitation.refresh_from_db()
    assert invitation.uses == 1

    again = page_signup(Client(), "dee", invite=invitation.code)
    assert again.status_code == 200
    assert "This invitation has been used up" in again.content.decode()
    response = api_signup("dee", invite=invitation.code)
    assert response.status_code == 400
    assert response.json() == {"invite": ["This invitation has been used up. Ask for a new one."]}
    assert not User.objects.filter(username="dee").exists()


@INVITE
def test_an_invitation_for_several_counts_its_uses_across_page_and_api(db: None) -> None:
    invitation = SignupInvitation.objects.create(max_uses=2)
    assert api_signup("cy", invite=invitation.code).status_code == 201
    assert page_signup(Client(), "dee", invite=invitation.code).status_code == 302
    assert api_signup("eve", invite=invitation.code).status_code == 400


@INVITE
def test_an_expired_invitation_is_refused(db: None) -> None:
    invitation = SignupInvitation.objects.create(expires_at=timezone.now() - timedelta(minutes=1))
    page = page_signup(Client(), "cy", invite=invitation.code)
    assert page.status_code == 200
    assert "This invitation has expired" in page.content.decode()
    assert api_signup("cy", invite=invitation.code).json() == {
        "invite": ["This invitation has expired. Ask for a new one."]
    }
    assert not User.objects.filter(username="cy").exists()


@INVITE
@pytest.mark.parametrize(("code", "reason"), [("", "by invitation"), ("guess", "no such")])
def test_sign_up_without_a_usable_code_is_refused(db: None, code: str, reason: str) -> None:
    page = page_signup(Client(), "cy", invite=code)
    assert page.status_code == 200
    assert reason in page.content.decode()
    response = api_signup("cy", invite=code)
    assert response.status_code == 400
    assert reason in response.json()["invite"][0]
    assert not User.objects.exists()


@INVITE
def test_users_make_invitations_only_when_the_instance_allows_it(user: User) -> None:
    client = Client()
    client.force_login(user)
    assert "Make an invitation" not in client.get("/accounts/").content.decode()
    response = client.post("/accounts/invitations/", {"note": "Cy", "uses": 1, "days": 7})
    assert response.status_code == 302
    assert not SignupInvitation.objects.exists()

    with override_settings(SIGNUP_INVITES_BY="users"):
        refused = client.post("/accounts/invitations/", {"uses": 0, "days": 500})
        assert refused.status_code == 400
        assert "greater than or equal to 1" in refused.content.decode()
        client.post("/accounts/invitations/", {"note": "Cy", "uses": 1, "days": 7})
        invitation = SignupInvitation.objects.get(created_by=user)
        page = client.get("/accounts/").content.decode()
        assert f"http://testserver/accounts/signup/?invite={invitation.code}" in page
    assert page_signup(Client(), "cy", invite=invitation.code).status_code == 302
    client.post(f"/accounts/invitations/{invitation.pk}/delete/")
    assert not SignupInvitation.objects.exists()


@INVITE
def test_the_admin_makes_invitations(db: None) -> None:
    admin = User.objects.create_superuser("root", "root@example.org", PHRASE)
    client = Client()
    client.force_login(admin)
    assert client.get("/admin/scorekeeper/signupinvitation/add/").status_code == 200
    response = client.post(
        "/admin/scorekeeper/signupinvitation/add/",
        {
            "note": "The Tuesday club",
            "code": "tuesday-club-2026",
            "max_uses": 5,
            "expires_at_0": (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%d"),
            "expires_at_1": "12:00:00",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    invitation = SignupInvitation.objects.get()
    assert invitation.created_by == admin
    assert (
        "/accounts/signup/?invite=tuesday-club-2026"
        in client.get(
            f"/admin/scorekeeper/signupinvitation/{invitation.pk}/change/"
        ).content.decode()
    )
    assert api_signup("cy", invite="tuesday-club-2026").status_code == 201


def focused(response: Any) -> list[str]:
    """The names of the page's inputs that take the focus on load."""
    html = response.content.decode()
    tags = re.findall(r"<input[^>]*>", html)
    return [re.search(r'name="([^"]+)"', t).group(1) for t in tags if " autofocus" in t]  # type: ignore[union-attr]


def test_sign_up_errors_take_the_focus_to_the_first_field_in_error(db: None) -> None:
    """Shown again with a password refused, the form opens on the password, not on the
    username that was fine; with no error it opens on the username."""
    client = Client()
    assert focused(client.get("/accounts/signup/")) == ["username"]
    weak = page_signup(client, "cy", password1="1234", password2="1234")
    assert weak.status_code == 200
    assert focused(weak) == ["password2"]  # (Django says what is wrong with it there)
    assert 'aria-invalid="true"' in weak.content.decode()
    mismatch = page_signup(client, "cy", password2="something-else-entirely")
    assert focused(mismatch) == ["password2"]
    both = page_signup(client, "", password2="something-else-entirely")
    assert focused(both) == ["username"]
    assert not User.objects.filter(username="cy").exists()
