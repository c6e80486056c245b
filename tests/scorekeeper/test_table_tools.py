"""The table's shared tools (``games/<pk>/table/``): the negotiation timer counts down
from the server's clock, pauses, resets and survives a reload; the penalty and the
direction belong to the hand in play; only a phone that keeps score may change them
(a watch link's phone: 403); bad input is a 400 naming the field."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import get_ruleset
from scorekeeper.models import Game, TableState
from scorekeeper.services.games import hand_record
from scorekeeper.services.invites import invite_create
from tests.scorekeeper.factories import make_game, make_player, make_user

pytestmark = pytest.mark.django_db


def _deals(**options: Any) -> tuple[Game, User, Client]:
    owner = make_user("ana")
    players = [make_player(n, created_by=owner) for n in ("Ana", "Bo", "Cy", "Di")]
    game = make_game(owner, "dirty-deals", players, options=options or None)
    client = Client()
    client.force_login(owner)
    return game, owner, client


def _guest(game: Game, owner: User, role: str) -> Client:
    client = Client()
    invite = invite_create(game=game, user=owner, role=role)
    joined = client.post(reverse("join", args=[invite.token]), {"name": "Maya"})
    assert joined.status_code == 302
    return client


def _act(client: Client, game: Game, **data: Any) -> Any:
    return client.post(reverse("game_table", args=[game.pk]), data)


def test_the_timer_lasts_the_games_negotiation_minutes() -> None:
    game, _, client = _deals(negotiation_minutes=5)
    timer = client.get(reverse("game_table", args=[game.pk])).json()["timer"]
    assert timer == {
        "seconds": 300, "running": False, "remaining": 300.0, "ends_at": None, "state": "idle"
    }  # fmt: skip


def test_the_option_defaults_to_three_minutes_and_is_checked() -> None:
    rules = get_ruleset("dirty-deals")
    assert rules.default_options(4)["negotiation_minutes"] == 3
    assert rules.table_timer_seconds({}) == 180
    api_answer = Client()
    owner = make_user("bo")
    api_answer.force_login(owner)
    players = [make_player(n, created_by=owner) for n in ("A", "B", "C", "D")]
    with pytest.raises(Exception, match="negotiation_minutes: must be between 1 and 30"):
        make_game(owner, "dirty-deals", players, options={"negotiation_minutes": 0})


def test_started_on_one_phone_the_other_reads_the_same_end() -> None:
    game, owner, client = _deals()
    started = _act(client, game, action="timer-start").json()
    assert started["timer"]["running"] is True
    assert 179 <= started["timer"]["remaining"] <= 180
    watcher = _guest(game, owner, "watch")
    seen = watcher.get(reverse("game_table", args=[game.pk])).json()
    assert abs(seen["timer"]["ends_at"] - started["timer"]["ends_at"]) < 1000
    assert abs(seen["server_now"] - started["server_now"]) < 5000


def test_pause_keeps_the_time_left_and_reset_brings_back_the_full_time() -> None:
    game, _, client = _deals()
    _act(client, game, action="timer-start")
    # As if started 40 s ago.
    TableState.objects.filter(game=game).update(
        timer_started_at=timezone.now() - timedelta(seconds=40)
    )
    paused = _act(client, game, action="timer-pause").json()["timer"]
    assert paused["state"] == "paused"
    assert 139 <= paused["remaining"] <= 140.5
    again = client.get(reverse("game_table", args=[game.pk])).json()["timer"]
    assert again["remaining"] == paused["remaining"]  # a paused timer does not move
    resumed = _act(client, game, action="timer-start").json()["timer"]
    assert resumed["running"]
    assert resumed["remaining"] <= paused["remaining"]
    reset = _act(client, game, action="timer-reset").json()["timer"]
    assert reset == {**reset, "state": "idle", "remaining": 180.0, "running": False}


def test_a_timer_run_out_says_done_and_starts_afresh() -> None:
    game, _, client = _deals()
    _act(client, game, action="timer-start")
    TableState.objects.filter(game=game).update(
        timer_started_at=timezone.now() - timedelta(seconds=500)
    )
    done = client.get(reverse("game_table", args=[game.pk])).json()["timer"]
    assert done["state"] == "done"
    assert done["remaining"] == 0
    fresh = _act(client, game, action="timer-start").json()["timer"]
    assert fresh["running"]
    assert fresh["remaining"] > 170


def test_a_watch_link_cannot_start_the_timer_but_a_score_link_can() -> None:
    game, owner, _ = _deals()
    watcher = _guest(game, owner, "watch")
    refused = _act(watcher, game, action="timer-start")
    assert refused.status_code == 403
    assert not TableState.objects.filter(game=game, timer_started_at__isnull=False).exists()
    scorer = _guest(game, owner, "score")
    assert _act(scorer, game, action="timer-start").json()["timer"]["running"] is True


def test_a_stranger_sees_nothing() -> None:
    game, _, _ = _deals()
    stranger = Client()
    stranger.force_login(make_user("eve"))
    assert stranger.get(reverse("game_table", args=[game.pk])).status_code == 404
    assert _act(stranger, game, action="timer-start").status_code == 404


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"action": "explode"}, "action"),
        ({}, "action"),
        ({"action": "penalty-add"}, "amount"),
        ({"action": "penalty-add", "amount": "lots"}, "amount"),
        ({"action": "penalty-add", "amount": "0"}, "amount"),
        ({"action": "penalty-add", "amount": "101"}, "amount"),
        ({"action": "leader", "player": "x"}, "player"),
        ({"action": "leader", "player": "999999"}, "player"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(data: dict[str, str], field: str) -> None:
    game, _, client = _deals()
    answer = _act(client, game, **data)
    assert answer.status_code == 400
    assert field in answer.json()
    assert field in answer.json()[field][0]


def test_a_json_body_works_too_and_bad_json_is_a_400() -> None:
    game, _, client = _deals()
    url = reverse("game_table", args=[game.pk])
    ok = client.post(url, '{"action": "timer-start"}', content_type="application/json")
    assert ok.json()["timer"]["running"] is True
    bad = client.post(url, "{nope", content_type="application/json")
    assert bad.status_code == 400


def test_a_game_without_a_timer_refuses_timer_actions() -> None:
    owner = make_user("ana")
    players = [make_player(n, created_by=owner) for n in ("Ana", "Bo", "Cy")]
    game = make_game(owner, "dirt", players)
    client = Client()
    client.force_login(owner)
    answer = _act(client, game, action="timer-start")
    assert answer.status_code == 400
    assert "action" in answer.json()


def test_the_draw_penalty_and_direction_start_afresh_with_each_hand() -> None:
    owner = make_user("ana")
    ana, bo, cy = (make_player(n, created_by=owner) for n in ("Ana", "Bo", "Cy"))
    game = make_game(owner, "dirt", [ana, bo, cy])
    client = Client()
    client.force_login(owner)
    first = client.get(reverse("game_table", args=[game.pk])).json()
    assert first["timer"] is None
    assert first["tools"]["penalty"] == [
        {"label": "Joker", "amount": 5}, {"label": "Dirt 6", "amount": 6}
    ]  # fmt: skip
    _act(client, game, action="penalty-add", amount="5")
    both = _act(client, game, action="penalty-add", amount="6").json()
    assert both["penalty"] == 11
    assert _act(client, game, action="direction-flip").json()["clockwise"] is False
    assert _act(client, game, action="penalty-clear").json()["penalty"] == 0
    _act(client, game, action="penalty-add", amount="5")
    hand_record(
        game=game, user=owner,
        hand_input={"winner": ana.pk, "results": [
            {"player": bo.pk, "points": 10}, {"player": cy.pk, "points": 20}]},
    )  # fmt: skip
    after = client.get(reverse("game_table", args=[game.pk])).json()
    assert after["penalty"] == 0
    assert after["clockwise"] is True
    assert after["hand"] == 2
    assert after["tools"]["penalty"][1] == {"label": "Dirt 4", "amount": 4}


def test_who_leads_is_one_of_the_players() -> None:
    game, _, client = _deals()
    bo = game.seats.order_by("position")[1].player
    answer = _act(client, game, action="leader", player=str(bo.pk)).json()
    assert answer["leader"] == bo.pk
    assert answer["leader_name"] == "Bo"
    assert _act(client, game, action="leader", player="").json()["leader"] is None


def test_the_sheet_shows_the_tools_and_the_display_opens_for_a_watch_link() -> None:
    game, owner, client = _deals()
    sheet = client.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "Start negotiation timer" in sheet
    assert "9♣" in sheet
    watcher = _guest(game, owner, "watch")
    watched = watcher.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "data-timer-clock" in watched
    assert "Start negotiation timer" not in watched
    display = watcher.get(reverse("game_display", args=[game.pk]))
    assert display.status_code == 200
    assert "Dealer:" in display.content.decode()
    live = watcher.get(reverse("game_display_live", args=[game.pk]), {"v": game.version})
    assert live.status_code == 204
    share = client.get(reverse("game_share", args=[game.pk])).content.decode()
    assert reverse("game_display", args=[game.pk]) in share


def test_a_tools_notification_reaches_the_games_phones_as_a_tools_event() -> None:
    from scorekeeper.live import notify
    from scorekeeper.live.hub import Hub
    from scorekeeper.live.sources import deliver

    hub = Hub()
    phone = hub.subscribe(7)
    other = hub.subscribe(8)
    assert deliver(hub, notify.tools_payload(7, 3)) == 1
    assert phone.queue.get_nowait() == b'event: tools\ndata: {"r":3}\n\n'
    assert other.queue.empty()
    assert notify.parse_tools("tools x 1") is None


def test_the_api_reads_and_starts_the_timer_and_refuses_a_seated_player() -> None:
    from rest_framework.test import APIClient

    owner = make_user("ana")
    seated = make_user("bo")
    bo = make_player("Bo", user=seated)
    bo.created_by = owner
    bo.save()
    players = [make_player("Ana", created_by=owner), bo]
    players += [make_player(n, created_by=owner) for n in ("Cy", "Di")]
    game = make_game(owner, "dirty-deals", players, options={"negotiation_minutes": 4})
    url = f"/api/v1/games/{game.pk}/table/"
    api = APIClient()
    api.force_authenticate(owner)
    read = api.get(url).json()
    assert read["timer"]["seconds"] == 240
    assert read["timer"]["state"] == "idle"
    started = api.post(url, {"action": "timer-start"}, format="json").json()
    assert started["timer"]["running"] is True
    bad = api.post(url, {"action": "penalty-add", "amount": "many"}, format="json")
    assert bad.status_code == 400
    assert "amount" in bad.json()
    other = APIClient()
    other.force_authenticate(seated)
    assert other.get(url).json()["timer"]["running"] is True  # a seated player sees it
    refused = other.post(url, {"action": "timer-pause"}, format="json")
    assert refused.status_code == 403
    stranger = APIClient()
    stranger.force_authenticate(make_user("eve"))
    assert stranger.get(url).status_code == 404


def test_the_new_game_form_sets_the_negotiation_time() -> None:
    owner = make_user("ana")
    players = [make_player(n, created_by=owner) for n in ("Ana", "Bo", "Cy", "Di")]
    client = Client()
    client.force_login(owner)
    form = client.get(reverse("game_new"), {"ruleset": "dirty-deals"}).content.decode()
    assert 'name="option-negotiation_minutes"' in form
    data = {"ruleset": "dirty-deals", "option-negotiation_minutes": "7", "seat_count": "4"}
    for i, p in enumerate(players):
        data[f"seat-{i}-player"] = str(p.pk)
    client.post(reverse("game_new"), data)
    game = Game.objects.get(owner=owner)
    assert game.options["negotiation_minutes"] == 7


# -- the state rides with what the phone gets anyway -----------------------------------


def _dirt() -> tuple[Game, User, Client, list[Any]]:
    owner = make_user("ana")
    seated = [make_player(n, created_by=owner) for n in ("Ana", "Bo", "Cy")]
    game = make_game(owner, "dirt", seated)
    client = Client()
    client.force_login(owner)
    return game, owner, client, seated


def _state_in(html: str) -> dict[str, Any]:
    import json
    import re

    found = re.search(
        r'<div id="table-tools-state" hidden( hx-swap-oob="true")?>'
        r'<script type="application/json">(.*?)</script></div>',
        html,
        re.S,
    )
    assert found, "no tools state in the page"
    return dict(json.loads(found.group(2)), oob=bool(found.group(1)))


def test_a_phone_whose_tools_are_current_gets_304_and_a_tap_makes_them_new() -> None:
    game, _, client, _ = _dirt()
    url = reverse("game_table", args=[game.pk])
    first = client.get(url)
    etag = first["ETag"]
    assert first.json()["etag"] == etag
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    tapped = _act(client, game, action="penalty-add", amount="5").json()
    assert tapped["etag"] != etag
    after = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200
    assert after.json()["penalty"] == 5
    assert client.get(url, HTTP_IF_NONE_MATCH=tapped["etag"]).status_code == 304


def test_the_etag_differs_for_a_phone_that_may_not_change_the_tools_and_after_a_hand() -> None:
    game, owner, client, (ana, bo, cy) = _dirt()
    url = reverse("game_table", args=[game.pk])
    scorer = client.get(url).json()
    watcher = _guest(game, owner, "watch")
    watched = watcher.get(url).json()
    assert watched["may_change"] is False
    assert watched["etag"] != scorer["etag"]
    assert watcher.get(url, HTTP_IF_NONE_MATCH=scorer["etag"]).status_code == 200
    hand_record(
        game=game, user=owner,
        hand_input={"winner": ana.pk, "results": [
            {"player": bo.pk, "points": 10}, {"player": cy.pk, "points": 20}]},
    )  # fmt: skip
    after = client.get(url, HTTP_IF_NONE_MATCH=scorer["etag"])
    assert after.status_code == 200  # a new hand: its tools start afresh
    assert after.json()["hand"] == 2


def test_the_sheet_brings_the_tools_state_and_screw_shares_its_direction() -> None:
    game, _, client, _ = _dirt()
    _act(client, game, action="direction-flip")
    page = client.get(reverse("game_sheet", args=[game.pk])).content.decode()
    state = _state_in(page)
    assert state["clockwise"] is False
    assert state["revision"] == 1
    assert state["version"] == game.version
    assert state["may_change"] is True
    assert state["oob"] is False
    # The next load of the (cached) sheet still says the tools as they are now.
    _act(client, game, action="direction-flip")
    assert (
        _state_in(client.get(reverse("game_sheet", args=[game.pk])).content.decode())["clockwise"]
        is True
    )
    owner = User.objects.get(username="ana")
    seated = [s.player for s in game.seats.order_by("position")]
    screw = make_game(owner, "screw-your-neighbour", seated)
    html = client.get(reverse("game_sheet", args=[screw.pk])).content.decode()
    assert "data-red-aces-count" in html
    # Jacks reverse Screw's play: its direction is shared like Dirt's (issue 27).
    assert _state_in(html)["clockwise"] is True
    assert "Reverse direction (a jack played)" in html


def test_the_live_answer_brings_the_tools_out_of_band_at_their_revision() -> None:
    game, owner, client, (ana, bo, cy) = _dirt()
    before = game.version
    _act(client, game, action="penalty-add", amount="5")
    hand_record(
        game=game, user=owner,
        hand_input={"winner": ana.pk, "results": [
            {"player": bo.pk, "points": 10}, {"player": cy.pk, "points": 20}]},
    )  # fmt: skip
    live = reverse("game_live", args=[game.pk])
    watcher = _guest(game, owner, "watch")
    first = watcher.get(live, {"v": before, "hand": "1"}, HTTP_HX_REQUEST="true")
    state = _state_in(first.content.decode())
    assert state["oob"] is True
    assert state["hand"] == 2
    assert state["penalty"] == 0  # the new hand's tools
    assert state["may_change"] is False
    # A tap between two reads of the same version: the kept answer is not reused.
    _act(client, game, action="penalty-add", amount="4")
    second = watcher.get(live, {"v": before, "hand": "1"}, HTTP_HX_REQUEST="true")
    assert _state_in(second.content.decode())["penalty"] == 4
    assert second["ETag"] != first["ETag"]


def test_a_live_answer_reads_the_tools_row_once_for_its_key_and_its_state() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game, owner, client, (ana, bo, cy) = _dirt()
    before = game.version
    hand_record(
        game=game, user=owner,
        hand_input={"winner": ana.pk, "results": [
            {"player": bo.pk, "points": 10}, {"player": cy.pk, "points": 20}]},
    )  # fmt: skip
    _act(client, game, action="penalty-add", amount="3")
    _act(client, game, action="direction-flip")
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(
            reverse("game_live", args=[game.pk]), {"v": before, "hand": "1"}, HTTP_HX_REQUEST="true"
        )
    state = _state_in(answer.content.decode())
    assert (state["hand"], state["penalty"], state["clockwise"]) == (2, 3, False)
    assert len([q for q in queries if 'FROM "scorekeeper_tablestate"' in q["sql"]]) == 1


def test_a_tools_read_takes_its_state_from_the_row_read_for_its_etag() -> None:
    """A phone behind reads the tools after a tap: the row its ETag was made from is the
    state it gets (one read of it), and the ETag sent back gets 304."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game, _owner, client, _players = _dirt()
    _act(client, game, action="penalty-add", amount="2")
    _act(client, game, action="direction-flip")
    with CaptureQueriesContext(connection) as queries:
        read = client.get(reverse("game_table", args=[game.pk]))
    said = read.json()
    assert (said["revision"], said["penalty"], said["clockwise"]) == (2, 2, False)
    assert len([q for q in queries if 'FROM "scorekeeper_tablestate"' in q["sql"]]) == 1
    again = client.get(reverse("game_table", args=[game.pk]), HTTP_IF_NONE_MATCH=read["ETag"])
    assert again.status_code == 304


def test_a_finished_games_tools_say_so_and_may_not_change() -> None:
    from django.db.models import F

    game, owner, client, (ana, bo, cy) = _dirt()
    hand_record(
        game=game, user=owner,
        hand_input={"winner": ana.pk, "results": [
            {"player": bo.pk, "points": 10}, {"player": cy.pk, "points": 20}]},
    )  # fmt: skip
    Game.objects.filter(pk=game.pk).update(closed=True, version=F("version") + 1)
    answer = client.get(reverse("game_table", args=[game.pk])).json()
    assert answer["finished"] is True
    assert answer["may_change"] is False
    assert answer["tools"] is None


def test_the_streams_hello_says_the_tools_revision_read_with_the_version() -> None:
    from scorekeeper.live.sources import _seen

    game, owner, client, seated = _dirt()
    other = make_game(owner, "dirty-deals", [*seated, make_player("Di", created_by=owner)])
    assert _seen([game.pk, other.pk]) == {game.pk: (game.version, 0), other.pk: (other.version, 0)}
    _act(client, game, action="penalty-add", amount="5")
    _act(client, game, action="penalty-clear")
    assert _seen([game.pk])[game.pk] == (game.version, 2)


def test_the_api_reads_the_tools_from_the_rows_the_sheet_read() -> None:
    """The API's tools and the page's read one state per game version: once a phone
    read the sheet, the API's answer reads no hand; after a hand, the new hand's."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    owner = make_user("ana")
    ana, bo, cy = (make_player(n, created_by=owner) for n in ("Ana", "Bo", "Cy"))
    game = make_game(owner, "dirt", [ana, bo, cy])
    hand = {"winner": ana.pk, "results": [
        {"player": bo.pk, "points": 10}, {"player": cy.pk, "points": 20}]}  # fmt: skip
    hand_record(game=game, user=owner, hand_input=hand)
    client = Client()
    client.force_login(owner)
    assert client.get(reverse("game_sheet", args=[game.pk])).status_code == 200
    api = APIClient()
    api.force_authenticate(owner)
    url = f"/api/v1/games/{game.pk}/table/"
    with CaptureQueriesContext(connection) as read:
        answer = api.get(url).json()
    assert answer["hand"] == 2
    assert not [q for q in read.captured_queries if "scorekeeper_hand" in q["sql"]]
    hand_record(game=game, user=owner, hand_input=hand)
    assert api.get(url).json()["hand"] == 3
    tapped = api.post(url, {"action": "penalty-add", "amount": 5}, format="json").json()
    assert (tapped["hand"], tapped["penalty"]) == (3, 5)


@pytest.mark.parametrize(("state", "has_data"), [("in_progress", True), ("ended", False)])
def test_an_ended_games_sheet_keeps_an_empty_holder_for_the_tools_state(
    state: str, has_data: bool
) -> None:
    """A game over has no tools, but its page still holds the (empty) element that a live
    answer swaps out of band: a phone left on it when an undo reopens the game gets the
    tools back instead of an htmx error (no target)."""
    from tests.scorekeeper.test_access import _game

    game, users = _game("owner", state)
    client = Client()
    client.force_login(users["owner"])
    page = client.get(reverse("game_sheet", args=[game.pk])).content.decode()
    holder = page.split('id="table-tools-state"', 1)
    assert len(holder) == 2
    assert holder[1].startswith(" hidden></div>") is not has_data
