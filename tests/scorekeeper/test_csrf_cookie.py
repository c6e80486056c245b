"""The CSRF cookie is sent only when the browser does not hold its value: a late answer
to a request sent before signing in cannot set the old secret back over the new one and
make the forms of the pages rendered since fail as expired (``scorekeeper.web.csrf``)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "table-talk-42"
COOKIE = settings.CSRF_COOKIE_NAME


def _token(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def test_a_new_visitor_gets_the_cookie_and_a_known_one_is_not_sent_it_again() -> None:
    browser = Client(enforce_csrf_checks=True)
    first = browser.get("/accounts/login/")
    assert COOKIE in first.cookies
    again = browser.get("/accounts/login/")
    assert _token(again.content.decode())
    assert COOKIE not in again.cookies  # the browser holds it: nothing to renew


def test_a_late_answer_from_before_signing_in_does_not_undo_the_new_secret() -> None:
    User.objects.create_user("ana", password=PASSWORD)
    browser = Client(enforce_csrf_checks=True)
    login_page = browser.get("/accounts/login/")
    old = browser.cookies[COOKIE].value
    signed_in = browser.post(
        "/accounts/login/",
        {
            "username": "ana",
            "password": PASSWORD,
            "csrfmiddlewaretoken": _token(login_page.content.decode()),
        },
    )
    assert signed_in.status_code == 302
    new = browser.cookies[COOKIE].value
    assert new != old  # signing in makes a new secret
    page = browser.get("/players/")
    # The answer to a request the service worker sent with the old cookie, arriving now:
    late = Client()
    late.cookies[COOKIE] = old
    assert COOKIE not in late.get("/accounts/login/").cookies
    # So the browser keeps the new secret, and the page's form is accepted.
    sent = browser.post(
        "/theme/", {"theme": "dark", "csrfmiddlewaretoken": _token(page.content.decode())}
    )
    assert sent.status_code != 403
