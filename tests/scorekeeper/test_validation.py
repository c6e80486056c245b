"""The shared checks of untrusted values (scorekeeper.validation) and the engine's whole
numbers: names that show nothing or turn text around, ids in other digits."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games import RuleError
from games.base import whole_number
from scorekeeper.models import League, Player
from scorekeeper.validation import MAX_ID, clean_name, page_number, parse_id

REFUSED_NAMES = [
    "\u200b",  # zero-width space only
    "\u200b\u200c\u200d",  # only zero-width characters
    "\ufeff",  # a BOM
    "\ufeffAna",  # a BOM in front
    "A\u200bna",  # a zero-width space inside
    "\u202eanA",  # right-to-left override
    "Ana\u2066x\u2069",  # isolates
    "Ana\u200f",  # right-to-left mark
    "\u3164",  # Hangul filler: a letter that shows nothing
    "\u0301\u0301",  # combining marks only
    "A\x07b",  # a control character
    "A\x00b",  # NUL
    "A\ud800b",  # a lone surrogate
    "   ",
    "",
]


@pytest.mark.parametrize("name", REFUSED_NAMES)
def test_names_that_show_nothing_or_turn_text_around_are_refused(name: str) -> None:
    with pytest.raises(RuleError) as refused:
        clean_name(name, "name", 60)
    assert refused.value.field == "name"


@pytest.mark.parametrize(
    ("name", "cleaned"),
    [
        ("  Ana   Lima ", "Ana Lima"),
        ("Zoe\u0301", "Zoé"),  # NFC: one character
        ("مریم", "مریم"),  # right-to-left script itself is fine
        ("می\u200cخواهم", "می\u200cخواهم"),  # Persian needs the zero-width non-joiner
        ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),  # an emoji family (zero-width joiners)
        ("Ana\tLima\n", "Ana Lima"),
    ],
)
def test_real_names_are_kept(name: str, cleaned: str) -> None:
    assert clean_name(name, "name", 60) == cleaned


def test_the_length_counts_after_cleaning() -> None:
    assert clean_name("x" * 59 + "   ", "name", 60) == "x" * 59
    with pytest.raises(RuleError, match="at most 60"):
        clean_name("x" * 61, "name", 60)


@pytest.mark.parametrize(
    ("value", "number"),
    [(7, 7), ("7", 7), (" 42 ", 42), ("-3", -3), ("²", None), ("٣", None), ("1.0", None),
     ("9" * 20, None), ("", None), (True, None), (None, None), (1.0, None), ("0x1", None)],
)  # fmt: skip
def test_whole_numbers_are_ascii_digits(value: object, number: int | None) -> None:
    assert whole_number(value) == number


@pytest.mark.parametrize("value", ["²", "٣", "9" * 5000, 0, -1, MAX_ID + 1, 10**30, "x", 1.5])
def test_parse_id_refuses(value: object) -> None:
    with pytest.raises(RuleError) as refused:
        parse_id(value, "league", "league")
    assert refused.value.field == "league"


def test_page_numbers_are_clamped() -> None:
    assert page_number("99999999999999999999") == 2**31
    assert [page_number(v) for v in ("", "0", "-2", "²", "3")] == [1, 1, 1, 1, 3]


@pytest.mark.parametrize("name", ["\u202eanA", "\u200b\u200b", "\ufeff"])
def test_the_api_refuses_such_names(api: APIClient, name: str) -> None:
    for url in ("/api/v1/players/", "/api/v1/leagues/"):
        response = api.post(url, {"name": name}, format="json")
        assert response.status_code == 400
        assert list(response.json()) == ["name"]
    assert not Player.objects.exists()
    assert not League.objects.exists()


@pytest.mark.parametrize("name", ["\u202eanA", "\u200b\u200b", "\ufeff"])
def test_the_pages_refuse_such_names(user: User, name: str) -> None:
    client = Client()
    client.force_login(user)
    league_page = client.post("/leagues/", {"name": name})
    assert league_page.status_code == 400
    assert not League.objects.exists()
    league = League.objects.create(name="Thursday", owner=user)
    added = client.post(f"/leagues/{league.pk}/members/", {"name": name}, follow=True)
    assert "a name" in added.content.decode().lower()
    assert not Player.objects.exists()
    new_game = client.post(
        "/games/new/",
        {"ruleset": "dirt", "seat_count": "3", "seat-0-name": name, "seat-1-name": "Bo",
         "seat-2-name": "Cy"},
    )  # fmt: skip
    assert new_game.status_code == 422
    assert not Player.objects.exists()


def test_sign_up_refuses_such_a_display_name(db: None) -> None:
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "mallory",
            "password1": "a-long-passphrase-42",
            "password2": "a-long-passphrase-42",
            "display_name": "\u202eyrollam",
        },
    )
    assert response.status_code == 200
    assert "text-direction" in response.content.decode()
    assert not User.objects.filter(username="mallory").exists()
