"""After a hand, every phone's live answer is rendered once per game version and kind of
phone and shared: two phones of a kind get the same bytes, with nothing of either in
them (no CSRF token, no key for the next entry, no stream ticket), and each can still
save the next hand from it; a phone that asks again with the answer's ETag gets 304."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django.fixtures import Settings

from scorekeeper.models import Game, Player
from scorekeeper.services.games import game_close, game_create, hand_record
from tests.scorekeeper.factories import make_league, make_user

HTMX = {"HTTP_HX_REQUEST": "true"}


def _page_token(page: str) -> str:
    """The CSRF token htmx sends with every request: the body's ``hx-headers``."""
    found = re.search(r"<body hx-headers='([^']+)'", page)
    assert found is not None
    return str(json.loads(found.group(1))["X-CSRFToken"])


def _poller(html: str) -> str:
    found = re.search(r'<div id="sheet-poller"[^>]*>', html, flags=re.S)
    assert found is not None
    return found.group(0)


@pytest.mark.django_db
def test_two_phones_of_a_kind_get_the_same_answer_and_save_from_it(
    settings: Settings,
) -> None:
    settings.LIVE_EVENTS_URL = "/events/"
    ana = User.objects.create_user("ana", password="table-talk-42")
    mo = make_user("mo")
    seats = [Player.objects.create(name=n, created_by=ana).pk for n in ("Ana", "Bo", "Cy")]
    league = make_league(ana, members=[Player.objects.create(name="Mo", created_by=ana, user=mo)])
    league.memberships.update(role="admin")
    game = game_create(
        owner=ana,
        ruleset="screw-your-neighbour",
        players=seats,
        options={"target_wins": 0},
        league=league,
    )
    # The owner's phone and a league member's: both may manage the game.
    phones = [Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)]
    pages = []
    for phone, account in zip(phones, (ana, mo), strict=True):
        phone.force_login(account)
        page = phone.get(f"/games/{game.pk}/").content.decode()
        assert re.search(r'data-events="/events/[^"]+"', _poller(page))  # the page's ticket
        pages.append(page)
    hand_record(game=game, user=ana, hand_input={"winner": seats[1]})
    url = f"/games/{game.pk}/live/?v={game.version}&hand=1"
    first = phones[0].get(url, **HTMX)
    with CaptureQueriesContext(connection) as second_queries:
        second = phones[1].get(url, **HTMX)
    assert first.status_code == second.status_code == 200
    # The second phone's answer came from the first's render: the access check (the
    # session, the account, the game's row, the member's league), the revision of the
    # table's shared tools (Screw's direction, issue 27) and the kept answer from the
    # cache every process shares, no hand or seat.
    read = [q["sql"] for q in second_queries.captured_queries]
    assert len(read) <= 6, read
    assert sum("scorekeeper_tablestate" in sql for sql in read) == 1, read
    assert sum("scorekeeper_version_cache" in sql for sql in read) == 1, read
    assert not [sql for sql in read if "scorekeeper_hand" in sql or "scorekeeper_seat" in sql]
    assert first.content == second.content
    assert first["ETag"] == second["ETag"]
    answer = first.content.decode()
    assert "Hand 1 was saved on another phone." in answer
    assert "Enter hand 2" in answer
    assert "csrfmiddlewaretoken" not in answer
    assert '<input type="hidden" name="idempotency_key" value="">' in answer
    assert 'data-events=""' in _poller(answer)  # the phone keeps its page's ticket
    # Asking touched no one's CSRF cookie.
    assert settings.CSRF_COOKIE_NAME not in first.cookies
    assert settings.CSRF_COOKIE_NAME not in second.cookies
    # The member's phone saves hand 2 from the answer's form, as htmx sends it: the
    # form's fields, the page's token in the header, a key the phone made.
    saved = phones[1].post(
        f"/games/{game.pk}/hands/",
        {"number": "2", "winner": str(seats[0]), "idempotency_key": "phone-made-key-1"},
        HTTP_X_CSRFTOKEN=_page_token(pages[1]),
        **HTMX,
    )
    assert saved.status_code == 200
    assert Game.objects.get(pk=game.pk).hand_count == 2


@pytest.mark.django_db
def test_a_finished_game_answers_without_a_stream(settings: Settings) -> None:
    settings.LIVE_EVENTS_URL = "/events/"
    ana = User.objects.create_user("ana", password="table-talk-42")
    seats = [Player.objects.create(name=n, created_by=ana).pk for n in ("Ana", "Bo", "Cy")]
    game = game_create(
        owner=ana, ruleset="screw-your-neighbour", players=seats, options={"target_wins": 0}
    )
    phone = Client()
    phone.force_login(ana)
    hand_record(game=game, user=ana, hand_input={"winner": seats[1]})
    before = Game.objects.get(pk=game.pk).version
    game_close(game=Game.objects.get(pk=game.pk), user=ana)
    answer = phone.get(f"/games/{game.pk}/live/?v={before}&hand=2", **HTMX).content.decode()
    assert "Game over" in answer
    assert "data-events" not in _poller(answer)  # the stream ends with the game
    assert "csrfmiddlewaretoken" not in answer  # the result's forms are htmx forms too
    assert 'hx-post="/games/' in answer


@pytest.mark.django_db
def test_a_phone_that_is_current_gets_304() -> None:
    ana = User.objects.create_user("ana", password="table-talk-42")
    seats = [Player.objects.create(name=n, created_by=ana).pk for n in ("Ana", "Bo", "Cy")]
    game = game_create(
        owner=ana, ruleset="screw-your-neighbour", players=seats, options={"target_wins": 0}
    )
    phone = Client()
    phone.force_login(ana)
    hand_record(game=game, user=ana, hand_input={"winner": seats[1]})
    url = f"/games/{game.pk}/live/?v={game.version}&hand=1"
    answer = phone.get(url, **HTMX)
    assert answer.status_code == 200
    assert answer["Cache-Control"] == "private, no-cache"
    with CaptureQueriesContext(connection) as queries:
        again = phone.get(url, HTTP_IF_NONE_MATCH=answer["ETag"], **HTMX)
    assert again.status_code == 304
    assert again["ETag"] == answer["ETag"]
    assert again["Cache-Control"] == "private, no-cache"
    assert len(queries) <= 4  # the session, the account, the game's row, the tools' revision
    hand_record(game=Game.objects.get(pk=game.pk), user=ana, hand_input={"winner": seats[0]})
    changed = phone.get(url, HTTP_IF_NONE_MATCH=answer["ETag"], **HTMX)
    assert changed.status_code == 200
    assert changed["ETag"] != answer["ETag"]
    # A phone that shows the current version gets 204, with no ETag to keep.
    current = Game.objects.get(pk=game.pk).version
    nothing = phone.get(f"/games/{game.pk}/live/?v={current}&hand=3", **HTMX)
    assert nothing.status_code == 204
    assert not nothing.has_header("ETag")


@pytest.mark.django_db
def test_the_first_phone_to_ask_after_a_hand_saved_on_the_sheet_reads_only_the_game_row() -> None:
    """The saving phone kept the hand's state for the new version: the first answer
    renders from it, reading the game's row once (no second read, no column fetched
    on its own) besides the signed-in session and its user."""
    ana = User.objects.create_user("ana", password="table-talk-42")
    seats = [Player.objects.create(name=n, created_by=ana).pk for n in ("Ana", "Bo", "Cy")]
    game = game_create(
        owner=ana, ruleset="screw-your-neighbour", players=seats, options={"target_wins": 0}
    )
    saver, watcher = Client(), Client()
    for phone in (saver, watcher):
        phone.force_login(ana)
    before = Game.objects.get(pk=game.pk).version
    saved = saver.post(f"/games/{game.pk}/hands/", {"number": "1", "winner": str(seats[2])}, **HTMX)
    assert saved.status_code == 200
    after = Game.objects.get(pk=game.pk).version
    url = f"/games/{game.pk}/live/?v={before}&hand=1&from=1&to={after}"
    with CaptureQueriesContext(connection) as queries:
        answer = watcher.get(url, **HTMX)
    assert answer.status_code == 200
    assert "Hand 1 was saved on another phone." in answer.content.decode()
    # The changed rows are kept for every phone of a kind: no one's form token in them.
    assert "csrfmiddlewaretoken" not in answer.content.decode()
    games = [q["sql"] for q in queries.captured_queries if "scorekeeper_game" in q["sql"]]
    assert len(games) == 1, games
    # Besides the session, the account, the game row and the table's shared tools
    # (Screw's direction, issue 27: their revision for the answer's key, their state
    # for the answer): the cache every process shares (the answer not yet kept, the
    # rows the saver's write kept, the answer kept).
    read = [
        q["sql"]
        for q in queries.captured_queries
        if "version_cache" not in q["sql"]
        and "SAVEPOINT" not in q["sql"]
        and "scorekeeper_tablestate" not in q["sql"]
    ]
    assert len(read) <= 3, read
    tools = [q["sql"] for q in queries.captured_queries if "scorekeeper_tablestate" in q["sql"]]
    assert len(tools) <= 2, tools


@pytest.mark.django_db
def test_the_page_itself_keeps_its_token_and_key_for_a_phone_without_script() -> None:
    ana = User.objects.create_user("ana", password="table-talk-42")
    seats = [Player.objects.create(name=n, created_by=ana).pk for n in ("Ana", "Bo", "Cy")]
    game = game_create(
        owner=ana, ruleset="screw-your-neighbour", players=seats, options={"target_wins": 0}
    )
    phone = Client(enforce_csrf_checks=True)
    phone.force_login(ana)
    page = phone.get(f"/games/{game.pk}/").content.decode()
    form = page[page.index('class="entry-form"') :]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
    key = re.search(r'name="idempotency_key" value="([^"]+)"', form)
    assert token is not None
    assert key is not None
    body = {
        "csrfmiddlewaretoken": token.group(1),
        "idempotency_key": key.group(1),
        "number": "1",
        "winner": str(seats[0]),
    }
    url = f"/games/{game.pk}/hands/"
    assert phone.post(url, body).status_code == 302
    assert phone.post(url, body).status_code == 302  # sent twice, recorded once
    assert Game.objects.get(pk=game.pk).hand_count == 1
    # A form whose key was never filled in (an older page's script) is recorded too.
    body.update(idempotency_key="", number="2")
    assert phone.post(url, body).status_code == 302
    assert Game.objects.get(pk=game.pk).hand_count == 2


@pytest.mark.django_db(transaction=True)
def test_a_hand_saved_on_the_sheet_is_answered_before_its_event_so_no_phone_renders_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The saving phone's answer is made and kept in the hand's own transaction: the
    hand's event goes out when it commits, and the phones asking on it find the answer
    kept instead of each rendering it at once (three renders a hand, measured on the
    deployed stack before)."""
    from scorekeeper.web import games as pages

    ana = User.objects.create_user("ana", password="table-talk-42")
    seats = [Player.objects.create(name=n, created_by=ana).pk for n in ("Ana", "Bo", "Cy")]
    game = game_create(
        owner=ana, ruleset="screw-your-neighbour", players=seats, options={"target_wins": 0}
    )
    saver, *others = Client(), Client(), Client(), Client()
    for phone in (saver, *others):
        phone.force_login(ana)
    made: list[bool] = []
    live_body = pages._live_body

    def watched(request: object, found: object, **how: bool) -> str:
        # Inside the write's transaction, the hand not committed yet.
        made.append(connection.in_atomic_block)
        return live_body(request, found, **how)  # type: ignore[arg-type]

    monkeypatch.setattr(pages, "_live_body", watched)
    before = Game.objects.get(pk=game.pk).version
    body = {"number": "1", "winner": str(seats[2]), "shown": str(before)}
    with CaptureQueriesContext(connection) as saving:
        saved = saver.post(f"/games/{game.pk}/hands/", body, **HTMX)
    assert saved.status_code == 200
    assert made == [True]
    # A version just written has no answer kept yet: it is kept without a look first.
    answer_sql = [q["sql"] for q in saving.captured_queries if "live-answer" in q["sql"]]
    assert len(answer_sql) >= 1
    assert not [
        sql for sql in answer_sql if sql.lstrip().upper().startswith('SELECT "CACHE_KEY", "VALUE"')
    ]
    after = Game.objects.get(pk=game.pk).version
    renders: list[str] = []
    parts = pages.sheet_context

    def counting(*args: object, **kwargs: object) -> object:
        renders.append("parts")
        return parts(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pages, "sheet_context", counting)
    url = f"/games/{game.pk}/live/?v={before}&hand=1&sse=1&from=1&to={after}"
    answers = [phone.get(url, **HTMX) for phone in others]
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert renders == []
    assert all("Hand 1 was saved on another phone." in a.content.decode() for a in answers)
    own = saved.content.decode()  # the same answer, then the saver's own notice
    assert own.index("Hand 1 was saved on another phone.") < own.index("Hand 1: Cy won it.")
