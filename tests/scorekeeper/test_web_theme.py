"""The colour theme: rendered by the server from the ``theme`` cookie (no script needed,
so no flash of the wrong colours), and the switch's form that sets it."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scorekeeper.web.theme import MAX_AGE


def _html_theme(html: str) -> str:
    match = re.search(r'<html lang="en" data-theme="(\w+)">', html)
    assert match, html[:300]
    return match[1]


@pytest.mark.django_db
def test_without_a_choice_the_page_follows_the_system() -> None:
    html = Client().get("/rules/").content.decode()
    assert _html_theme(html) == "auto"
    # The browser's bar colour for each system scheme, and the switch offers "Light" next.
    assert 'name="theme-color" content="#1f6f5c" media="(prefers-color-scheme: light)"' in html
    assert 'name="theme-color" content="#0f2a23" media="(prefers-color-scheme: dark)"' in html
    assert 'name="theme" value="light"' in html
    assert '<span class="theme-label">Auto</span>' in html


@pytest.mark.django_db
@pytest.mark.parametrize(("cookie", "shown", "offered"), [
    ("light", "light", "dark"), ("dark", "dark", "auto"), ("auto", "auto", "light"),
    ("purple", "auto", "light"), ("", "auto", "light"),
])  # fmt: skip
def test_the_cookie_chooses_the_theme(cookie: str, shown: str, offered: str) -> None:
    client = Client()
    client.cookies["theme"] = cookie
    html = client.get("/").content.decode()
    assert _html_theme(html) == shown
    assert f'name="theme" value="{offered}"' in html
    if shown != "auto":
        assert html.count('name="theme-color"') == 1


@pytest.mark.django_db
def test_the_switch_sets_the_cookie_and_goes_back() -> None:
    client = Client()
    response = client.post("/theme/", {"theme": "dark", "next": "/rules/dirt/?q=x#deal"})
    assert response.status_code == 302
    assert response["Location"] == "/rules/dirt/?q=x#deal"
    cookie = response.cookies["theme"]
    assert cookie.value == "dark"
    assert int(cookie["max-age"]) == MAX_AGE
    assert cookie["samesite"] == "Lax"
    assert _html_theme(client.get("/rules/").content.decode()) == "dark"


@pytest.mark.django_db
def test_without_a_valid_choice_the_switch_cycles() -> None:
    client = Client()
    client.cookies["theme"] = "light"
    response = client.post("/theme/", {"theme": "sepia", "next": "/"})
    assert response.cookies["theme"].value == "dark"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/x", "", "javascript:alert(1)"]
)
def test_the_switch_goes_back_only_to_this_site(target: str) -> None:
    response = Client().post("/theme/", {"theme": "light", "next": target})
    assert response.status_code == 302
    assert response["Location"] == "/"


@pytest.mark.django_db
def test_the_switch_only_takes_a_post() -> None:
    assert Client().get("/theme/").status_code == 405
