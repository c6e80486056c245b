"""Reads just after a hand are flat in the game's length: the sheet, the live answer and
the API's game ask the database as many queries at 300 hands as at 10, and what they
show from the recent hands and the last hand's stored state is what the engine makes of
every hand played again."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.db.models.functions import Now
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.renderers import JSONRenderer

from games import GameState, get_ruleset
from scorekeeper.api.game_serializers import GameSerializer, GameView
from scorekeeper.models import Game, Hand
from scorekeeper.selectors.games import (
    game_config,
    game_state,
    game_with_related,
    player_names,
    recent_state,
    running_totals,
)
from scorekeeper.selectors.rows import RECENT_HANDS, Running, rows_by_version
from scorekeeper.services.games import hand_record
from scorekeeper.simulate import next_hand
from scorekeeper.web import sheet
from tests.scorekeeper.factories import make_game, make_players, make_user

pytestmark = pytest.mark.django_db

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("dirt", {"variant": "full"}),
    ("screw-your-neighbour", {"options": {"target_wins": 0}}),
    ("damn-you", {}),
    ("dirty-uno", {}),
    ("dirty-deals", {}),
]


def play(game: Game, user: User, hands: int, seed: int = 7) -> GameState:
    """``hands`` hands recorded as a phone would (fewer when the game ends first)."""
    rng = random.Random(seed)
    state = game_state(game_with_related(Game.objects.filter(pk=game.pk)).get())
    for _ in range(hands):
        if state.finished:
            break
        hand = next_hand(rng, state.config, state, {})
        state = hand_record(game=game, user=user, hand_input=hand).state
    return state


def replayed(game: Game) -> GameState:
    """The engine's state of every stored input, played again from the first hand."""
    game = game_with_related(Game.objects.filter(pk=game.pk)).get()
    inputs = [h.input for h in Hand.objects.filter(game=game).order_by("number")]
    return get_ruleset(game.ruleset).play(game_config(game), inputs, closed=game.closed)


def fresh(game: Game) -> Game:
    return game_with_related(Game.objects.filter(pk=game.pk)).get()


@pytest.mark.parametrize(("ruleset", "setup"), GAMES, ids=[g for g, _ in GAMES])
def test_the_flat_read_shows_what_every_hand_played_again_does(
    user: User, ruleset: str, setup: dict[str, Any]
) -> None:
    players = make_players("Ana", "Ben", "Cy", "Dee", created_by=user)
    game = make_game(user, ruleset, players, **setup)
    for hands in (1, 12, 60):
        play(game, user, hands - Hand.objects.filter(game=game).count(), seed=hands)
        game = fresh(game)
        every = replayed(game)
        cache.clear()
        rows = rows_by_version(game)
        state = rows.state
        assert state.played == len(every.hands)
        assert state.hands == every.hands[-RECENT_HANDS:]
        for part in ("scores", "standings", "finished", "winners", "next_hand", "extras"):
            assert getattr(state, part) == getattr(every, part), part
        assert state.ended_by == every.ended_by
        names = player_names(game)
        shown = sheet.build_grid(game, state, names, recent=RECENT_HANDS)
        assert shown == sheet.build_grid(game, every, names, recent=RECENT_HANDS)
        if every.finished:
            columns = sheet.columns_for(every, names)
            assert sheet.build_chart(state, columns, rows.running) == sheet.build_chart(
                every, columns
            )
        # The API's game, from the hands as stored, is the engine's answer.
        client = Client()
        client.force_login(user)
        answer = client.get(f"/api/v1/games/{game.pk}/").json()
        assert answer == GameSerializer(GameView(game, every, True)).data
        if every.finished:
            break


def test_a_partner_game_shown_from_its_last_hands_keeps_the_team_totals(user: User) -> None:
    players = make_players("Ana", "Ben", "Cy", "Dee", created_by=user)
    teams = [[players[0].pk, players[2].pk], [players[1].pk, players[3].pk]]
    game = make_game(user, "dirt", players, variant="full", teams=teams)
    play(game, user, 10)
    game = fresh(game)
    every = replayed(game)
    names = player_names(game)
    last = recent_state(game, 3)
    assert [h.number for h in last.hands] == [8, 9, 10]
    assert sheet.build_grid(game, last, names, recent=3) == sheet.build_grid(
        game, every, names, recent=3
    )
    running = [Running(t, p) for t, p in running_totals(game) or []]
    columns = sheet.columns_for(every, names)
    assert sheet.build_chart(last, columns, running) == sheet.build_chart(every, columns)


def queries(client: Client, url: str, game: Game) -> int:
    """The queries of a read just after a hand: the table's phones read the version
    before it; then the game gets a new version and its newest hand a new revision (as
    when a hand is recorded), and this process's memory is emptied (the read is served
    by another worker): nothing is kept for the new version, what earlier versions kept
    for every process is."""
    assert client.get(url).status_code == 200, url
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1, updated_at=Now())
    newest = Hand.objects.filter(game_id=game.pk).order_by("-number")[:1]
    Hand.objects.filter(pk__in=newest.values("pk")).update(revision=F("revision") + 1)
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


def test_reads_just_after_a_hand_ask_as_much_at_300_hands_as_at_10(user: User) -> None:
    players = make_players("Ana", "Ben", "Cy", created_by=user)
    short = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    long = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    play(short, user, 10)
    play(long, user, 300)
    client = Client()
    client.force_login(user)
    for url in ("/games/{}/", "/games/{}/live/?v=0&hand=1", "/api/v1/games/{}/"):
        assert queries(client, url.format(short.pk), short) == queries(
            client, url.format(long.pk), long
        ), url


def test_the_api_game_can_hold_its_last_hands_only(user: User) -> None:
    players = make_players("Ana", "Ben", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    play(game, user, 30)
    client = Client()
    client.force_login(user)
    whole = client.get(f"/api/v1/games/{game.pk}/").json()
    last = client.get(f"/api/v1/games/{game.pk}/?hands=last:5").json()
    assert last["hands"] == whole["hands"][-5:]
    assert last["hand_count"] == whole["hand_count"] == 30
    assert {k: v for k, v in last.items() if k != "hands"} == {
        k: v for k, v in whole.items() if k != "hands"
    }
    assert client.get(f"/api/v1/games/{game.pk}/?hands=none").json()["hands"] == []
    bad = client.get(f"/api/v1/games/{game.pk}/?hands=first:3")
    assert bad.status_code == 400
    assert "hands" in bad.json()


def test_a_games_hands_come_page_by_page(user: User) -> None:
    players = make_players("Ana", "Ben", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    play(game, user, 30)
    client = Client()
    client.force_login(user)
    every = client.get(f"/api/v1/games/{game.pk}/hands/").json()
    assert [h["number"] for h in every] == list(range(1, 31))
    # The plain list stays a plain list whatever the query says.
    assert client.get(f"/api/v1/games/{game.pk}/hands/?limit=10").json() == every
    page = client.get(f"/api/v1/games/{game.pk}/hands/pages/?limit=10&offset=25").json()
    assert page["count"] == 30
    assert page["results"] == every[25:]
    assert page["next"] is None
    assert "offset=15" in page["previous"]
    first = client.get(f"/api/v1/games/{game.pk}/hands/pages/").json()
    assert first["results"] == every  # 100 a page unless asked
    assert first["next"] is None
    assert first["previous"] is None
    odd = client.get(f"/api/v1/games/{game.pk}/hands/pages/?limit=x&offset=-3").json()
    assert odd["results"] == every
    other = make_user("other")
    client.force_login(other)
    assert client.get(f"/api/v1/games/{game.pk}/hands/pages/").status_code == 404


def test_the_api_game_after_a_correction_and_an_undo_shows_every_hand_as_stored(
    user: User,
) -> None:
    """The hands the version before showed are taken as they were rendered; a hand
    changed since (corrected, or its totals moved by a correction before it) and one
    undone never show as they were."""
    players = make_players("Ana", "Ben", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    play(game, user, 34)
    client = Client()
    client.force_login(user)
    url = f"/api/v1/games/{game.pk}/"

    def expected(last: int | None = None) -> bytes:
        data = GameSerializer(GameView(fresh(game), replayed(game), True)).data
        if last is not None:
            data["hands"] = data["hands"][-last:]
        return JSONRenderer().render(data)

    assert json.loads(client.get(url).content) == json.loads(expected())
    hand = client.get(f"/api/v1/games/{game.pk}/hands/3/").json()
    other = next(p.pk for p in players if p.pk != hand["winner"])
    corrected = client.put(
        f"/api/v1/games/{game.pk}/hands/3/", {"winner": other}, content_type="application/json"
    )
    assert corrected.status_code == 200
    answer = client.get(url)
    assert json.loads(answer.content) == json.loads(expected())
    assert answer.json()["hands"][2]["winner"] == other
    assert answer.json()["hands"][2]["revision"] == 2
    assert client.delete(f"/api/v1/games/{game.pk}/hands/34/").status_code == 204
    assert json.loads(client.get(url).content) == json.loads(expected())
    assert len(client.get(url).json()["hands"]) == 33
    assert json.loads(client.get(f"{url}?hands=last:7").content) == json.loads(expected(7))
    pretty = client.get(url, HTTP_ACCEPT="application/json; indent=2")
    assert pretty.content.startswith(b"{\n")
    assert pretty.json() == client.get(url).json()


def test_the_api_hands_one_worker_rendered_another_finds(user: User) -> None:
    """The API's hands are kept for every process: a worker that never rendered a game
    (its own memory empty) reads no stored hand for a new version whose hands are the
    ones another worker rendered, and answers the same JSON."""
    players = make_players("Ana", "Ben", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    play(game, user, 45)
    client = Client()
    client.force_login(user)
    url = f"/api/v1/games/{game.pk}/"
    first = client.get(url).json()
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1, updated_at=Now())
    cache.clear()  # another worker: nothing in its memory
    with CaptureQueriesContext(connection) as captured:
        again = client.get(url).json()
    assert again["hands"] == first["hands"]
    # The hands' digests, and the last hand (the standings resume from it): no more.
    hand_reads = [q["sql"] for q in captured.captured_queries if '"input"' in q["sql"]]
    assert [sql for sql in hand_reads if "md5" not in sql.lower()] == [
        sql for sql in hand_reads if sql.endswith("LIMIT 1")
    ]
    assert len(hand_reads) == 2
