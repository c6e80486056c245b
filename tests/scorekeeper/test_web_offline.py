"""What the sheet's pages promise a phone with a bad connection or a Back button: a
hand sent again with its key is recorded once, a hand entered after one that was not
saved is refused plainly, the new-game form started twice opens one game, a finished
game's sheet stops polling, and the service worker keeps every script module the sheet
needs to open offline."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.test import Client

from scorekeeper.models import Game, Hand, Player
from scorekeeper.services.games import hand_record
from tests.scorekeeper.factories import make_game, make_players
from tests.scorekeeper.test_web_games import text

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def ana_client(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


@pytest.fixture
def four(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", "Di", created_by=user)


def start_form(token: str) -> dict[str, str]:
    return {
        "ruleset": "screw-your-neighbour",
        "seat_count": "3",
        "seat-0-name": "Ana",
        "seat-1-name": "Bo",
        "seat-2-name": "Cy",
        "first_dealer": "0",
        "start_token": token,
    }


def test_the_new_game_form_carries_a_one_time_token(ana_client: Client) -> None:
    first = ana_client.get("/games/new/?ruleset=dirt").content.decode()
    second = ana_client.get("/games/new/?ruleset=dirt").content.decode()
    tokens = [re.search(r'name="start_token" value="([0-9a-f]+)"', p) for p in (first, second)]
    assert all(tokens)
    assert tokens[0].group(1) != tokens[1].group(1)  # type: ignore[union-attr]


def test_starting_the_same_form_twice_opens_one_game(ana_client: Client, user: User) -> None:
    first = ana_client.post("/games/new/", start_form("a1b2c3d4e5f6"))
    assert first.status_code == 302
    game = Game.objects.get()
    again = ana_client.post("/games/new/", start_form("a1b2c3d4e5f6"), follow=True)
    assert again.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert "That game was already started: here it is." in text(again)
    assert Game.objects.count() == 1
    # Through htmx too, and a new form (a new token) starts a new game.
    htmx = ana_client.post("/games/new/", start_form("a1b2c3d4e5f6"), **HTMX)  # type: ignore[arg-type]
    assert htmx["HX-Redirect"] == f"/games/{game.pk}/"
    ana_client.post("/games/new/", start_form("ffffeeee0000"))
    assert Game.objects.count() == 2


def test_another_users_token_is_not_theirs(
    ana_client: Client, user: User, other_user: User
) -> None:
    ana_client.post("/games/new/", start_form("a1b2c3d4e5f6"))
    other = Client()
    other.force_login(other_user)
    other.post("/games/new/", start_form("a1b2c3d4e5f6"))
    assert set(Game.objects.values_list("owner_id", flat=True)) == {user.pk, other_user.pk}


def test_a_hand_resent_with_its_key_header_is_recorded_once(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3])
    body = {"winner": str(four[0].pk), "number": "1"}
    headers = {"HTTP_IDEMPOTENCY_KEY": "phone-made-1", **HTMX}
    first = ana_client.post(f"/games/{game.pk}/hands/", body, **headers)  # type: ignore[arg-type]
    again = ana_client.post(f"/games/{game.pk}/hands/", body, **headers)  # type: ignore[arg-type]
    assert first.status_code == again.status_code == 200
    assert "That hand was already saved." in text(again)
    assert Hand.objects.filter(game=game).count() == 1


def test_a_hand_entered_after_one_not_saved_is_refused_plainly(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3])
    response = ana_client.post(
        f"/games/{game.pk}/hands/", {"winner": str(four[0].pk), "number": "2"}, **HTMX
    )  # type: ignore[arg-type]
    assert response.status_code == 409
    assert "this was entered as hand 2, but the sheet's next hand is 1" in text(response)
    assert not Hand.objects.filter(game=game).exists()


def test_a_finished_game_stops_polling(ana_client: Client, user: User, four: list[Player]) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3], options={"target_wins": 1})
    page = ana_client.get(f"/games/{game.pk}/").content.decode()
    assert 'hx-trigger="every 2s, sk-refresh"' in page
    hand_record(game=game, user=user, hand_input={"winner": four[0].pk})
    page = ana_client.get(f"/games/{game.pk}/").content.decode()
    assert "every 2s" not in page
    assert 'hx-trigger="sk-refresh"' in page
    live = ana_client.get(f"/games/{game.pk}/live/?v=0&hand=2", **HTMX)  # type: ignore[arg-type]
    assert "every 2s" not in live.content.decode()


def test_the_sheet_carries_the_coming_hands_whatever_page_was_seen_first(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    """The coming hands go with the entry of the next hand only, not with a correction,
    and are made once per version of the game: a correction seen first does not take
    them off the sheet, and a new hand brings the next ones."""
    game = make_game(user, "screw-your-neighbour", four, options={"target_wins": 0})
    coming = re.compile(
        r'<script id="sheet-ahead" type="application/json">\{"hands": \[\{"number": (\d+)'
    )
    hand_record(game=game, user=user, hand_input={"winner": four[0].pk})
    correction = ana_client.get(f"/games/{game.pk}/hands/1/").content.decode()
    assert 'id="sheet-ahead"' not in correction
    assert coming.findall(ana_client.get(f"/games/{game.pk}/").content.decode()) == ["2"]
    hand_record(game=game, user=user, hand_input={"winner": four[1].pk})
    assert coming.findall(ana_client.get(f"/games/{game.pk}/").content.decode()) == ["3"]


IMPORT = re.compile(r"""^(?:import|export)\b[^;]*?\bfrom "(\./[\w.-]+\.js)";$""", re.M)


def modules_of(html: str) -> set[str]:
    """The modules a page loads (its ``<script type="module">`` tags) and every module
    they import, however indirectly, as static names (``js/sheet.js``)."""
    names = {
        src.removeprefix(settings.STATIC_URL)
        for src in re.findall(r'<script type="module" src="([^"]+)"', html)
    }
    todo = list(names)
    while todo:
        found = finders.find(todo.pop())
        assert isinstance(found, str)
        for target in IMPORT.findall(Path(found).read_text(encoding="utf-8")):
            name = f"js/{target.removeprefix('./')}"
            if name not in names:
                names.add(name)
                todo.append(name)
    return names


def test_the_service_worker_keeps_every_module_the_sheet_imports(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "dirt", four)
    html = ana_client.get(f"/games/{game.pk}/").content.decode()
    modules = modules_of(html)
    # offline-sheet.js imports the outbox: no tag names it, the service worker keeps it.
    assert "js/offline-queue.js" in modules
    assert 'src="/static/js/offline-queue.js"' not in html
    body = ana_client.get("/sw.js").content.decode()
    found = re.search(r"var PRECACHE = (\[.*?\]);", body)
    assert found
    precache = set(json.loads(found.group(1)))
    assert {settings.STATIC_URL + name for name in modules} <= precache
