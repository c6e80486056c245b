"""Passwords: changed when signed in, reset by e-mail (the message read from the file
backend's file, its link followed), every form rate-limited like sign-in; a locked
account is told so at sign-in, and only by whoever knows its password."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings

PASSWORD = "table-talk-42"
NEW = "a-brand-new-phrase-7"


@pytest.fixture
def ana(db: None) -> User:
    return User.objects.create_user("ana", "ana@example.org", PASSWORD)


def sign_in(client: Client, password: str, username: str = "ana") -> int:
    return client.post("/accounts/login/", {"username": username, "password": password}).status_code


def test_reset_by_the_mailed_link_then_sign_in_with_the_new_password(
    ana: User, tmp_path: Path
) -> None:
    client = Client()
    assert 'href="/accounts/password/reset/"' in client.get("/accounts/login/").content.decode()
    with override_settings(
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend", EMAIL_FILE_PATH=tmp_path
    ):
        response = client.post("/accounts/password/reset/", {"email": "ANA@example.org"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/reset/sent/"
    (sent,) = tmp_path.iterdir()
    message = sent.read_text()
    assert "To: ana@example.org" in message
    assert "Subject: Your scorekeeper password on testserver" in message
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", message)
    assert link is not None

    form = client.get(link.group(1), follow=True)
    assert form.status_code == 200
    assert "Set a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW}, follow=True
    )
    assert done.redirect_chain[-1][0] == "/accounts/password/reset/done/"
    assert "Your new password is set" in done.content.decode()

    assert sign_in(Client(), PASSWORD) == 200
    assert sign_in(Client(), NEW) == 302
    # The link works once.
    again = client.get(link.group(1), follow=True)
    assert "has been used or has expired" in again.content.decode()


def test_unknown_address_sends_nothing_and_says_the_same(ana: User, tmp_path: Path) -> None:
    with override_settings(
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend", EMAIL_FILE_PATH=tmp_path
    ):
        response = Client().post("/accounts/password/reset/", {"email": "who@example.org"})
    assert response.status_code == 302
    assert list(tmp_path.iterdir()) == []


def test_reset_form_refuses_a_malformed_address(db: None) -> None:
    response = Client().post("/accounts/password/reset/", {"email": "not an address"})
    assert response.status_code == 200
    assert "Enter a valid email address." in response.content.decode()


def test_reset_requests_are_rate_limited(db: None) -> None:
    client = Client()
    allowed = int(settings.RATE_LIMITS["password-reset"].split("/")[0])
    for _ in range(allowed):
        assert (
            client.post("/accounts/password/reset/", {"email": "x@example.org"}).status_code == 302
        )
    response = client.post("/accounts/password/reset/", {"email": "x@example.org"})
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0


def test_change_password_when_signed_in(ana: User) -> None:
    client = Client()
    client.force_login(ana)
    assert "Change my password" in client.get("/accounts/").content.decode()
    wrong = client.post(
        "/accounts/password/",
        {"old_password": "nope", "new_password1": NEW, "new_password2": NEW},
    )
    assert wrong.status_code == 200
    assert "Your old password was entered incorrectly" in wrong.content.decode()
    response = client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == "/accounts/"
    assert "Your password is changed." in response.content.decode()
    assert client.get("/accounts/").status_code == 200  # still signed in
    assert sign_in(Client(), NEW) == 302


def test_change_password_needs_sign_in(db: None) -> None:
    response = Client().get("/accounts/password/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_a_locked_account_is_told_so_only_with_its_password(ana: User) -> None:
    User.objects.filter(pk=ana.pk).update(is_active=False)
    right = Client().post("/accounts/login/", {"username": "ana", "password": PASSWORD})
    assert right.status_code == 200
    assert "This account is locked" in right.content.decode()
    wrong = Client().post("/accounts/login/", {"username": "ana", "password": "guess"})
    assert "This account is locked" not in wrong.content.decode()
    assert "Please enter a correct username and password" in wrong.content.decode()
    api = Client().post(
        "/api/v1/auth/token/",
        {"username": "ana", "password": PASSWORD},
        content_type="application/json",
    )
    assert api.status_code == 400
