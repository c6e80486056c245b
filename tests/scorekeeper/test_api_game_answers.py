"""Every answer of the game endpoints, for every game, is what the schema the app
publishes says: each game is played through the API (a hand recorded, retried,
corrected and read back, the sheet, the list; ended by hand if it runs long; its result
and the links to share it), and Schemathesis checks every answer against that schema.
And every fact the engine gives about a game is one the schema names: none is left out
of the answers."""

from __future__ import annotations

import random
from typing import Any

import pytest
import requests
import schemathesis
from django.contrib.auth.models import User
from rest_framework.test import APIClient
from schemathesis.core.transport import Response as CheckedResponse

from games import RULESETS, get_ruleset
from scorekeeper.api.game_serializers import (
    GameSerializer,
    HandSerializer,
    NextHandSerializer,
    StandingSerializer,
)
from scorekeeper.models import Game
from scorekeeper.selectors.games import game_state, game_with_related
from scorekeeper.simulate import next_hand, play_out
from tests.scorekeeper.factories import make_players

GAMES = "/api/v1/games/"

#: (ruleset, set-up beyond the players, players) of games played to their end.
TABLES = [
    ("dirt", {"variant": "tiny-baby-up"}, 4),
    ("dirt", {"variant": "tiny-baby-down", "teams": [[0, 2], [1, 3]]}, 4),
    ("screw-your-neighbour", {"options": {"target_wins": 2}}, 3),
    ("damn-you", {"options": {"starting_chips": 10}}, 4),
    ("dirty-uno", {"options": {"scoring": "penalty"}}, 3),
    ("dirty-deals", {}, 4),
]


@pytest.fixture
def published(anon_api: APIClient, db: None) -> Any:
    return schemathesis.openapi.from_dict(anon_api.get(GAMES[:-6] + "schema/?format=json").json())


def checked(published: Any, template: str, response: Any) -> Any:
    """``response`` after Schemathesis found it as the schema documents it (status code,
    content type and body) for the operation at ``template``."""
    request = response.wsgi_request
    sent = requests.Request(request.method, request.build_absolute_uri()).prepare()
    headers = {name: [value] for name, value in response.headers.items()}
    answer = CheckedResponse(response.status_code, headers, response.content, sent, 0.0, True)
    published[template][request.method].validate_response(answer)
    return response.json() if response.content else None


@pytest.mark.parametrize(("ruleset", "setup", "seats"), TABLES)
def test_every_answer_of_a_game_played_to_its_end_is_as_published(
    api: APIClient, user: User, published: Any, ruleset: str, setup: dict[str, Any], seats: int
) -> None:
    players = [p.pk for p in make_players(*"ABCDEF"[:seats], created_by=user)]
    if "teams" in setup:
        setup = {**setup, "teams": [[players[i] for i in team] for team in setup["teams"]]}
    game = checked(
        published,
        "/api/v1/games/",
        api.post(GAMES, {"ruleset": ruleset, "players": players, **setup}, format="json"),
    )
    url = f"{GAMES}{game['id']}/"
    rng = random.Random(ruleset)
    for number in range(1, 9):
        state = game_state(game_with_related(Game.objects.filter(pk=game["id"])).get())
        if state.finished:
            break
        body = next_hand(rng, state.config, state, {})
        key = {"Idempotency-Key": f"hand-{number}"}
        hand = checked(
            published,
            "/api/v1/games/{game_id}/hands/",
            api.post(f"{url}hands/", body, format="json", headers=key),
        )
        again = api.post(f"{url}hands/", body, format="json", headers=key)
        assert again["Idempotent-Replayed"] == "true"
        assert checked(published, "/api/v1/games/{game_id}/hands/", again) == hand
        template = "/api/v1/games/{game_id}/hands/{number}/"
        put = api.put(f"{url}hands/{number}/", hand["input"], format="json")
        assert checked(published, template, put) == hand
        detail = checked(published, template, api.get(f"{url}hands/{number}/"))
        assert detail["history"][0]["action"] == "recorded"
        checked(published, "/api/v1/games/{game_id}/", api.get(url))
    else:  # a long game: the table ends it (409 if its last hand did)
        checked(published, "/api/v1/games/{game_id}/close/", api.post(f"{url}close/"))
    checked(published, "/api/v1/games/{game_id}/hands/", api.get(f"{url}hands/"))
    checked(published, "/api/v1/games/", api.get(GAMES))
    checked(published, "/api/v1/games/{game_id}/result/", api.get(f"{url}result/"))
    checked(published, "/api/v1/games/{game_id}/public/", api.post(f"{url}public/"))
    invites = "/api/v1/games/{game_id}/invites/"
    checked(published, invites, api.post(f"{url}invites/", {"role": "watch"}, format="json"))
    checked(published, invites, api.get(f"{url}invites/"))


def test_an_open_ended_game_closed_and_reopened_answers_as_published(
    api: APIClient, user: User, published: Any
) -> None:
    players = [p.pk for p in make_players("A", "B", "C", created_by=user)]
    sent = {"ruleset": "screw-your-neighbour", "players": players, "options": {"target_wins": 0}}
    game = checked(published, "/api/v1/games/", api.post(GAMES, sent, format="json"))
    url = f"{GAMES}{game['id']}/"
    api.post(f"{url}hands/", {"winner": players[0]}, format="json")
    closed = checked(published, "/api/v1/games/{game_id}/close/", api.post(f"{url}close/"))
    assert (closed["status"], closed["next_hand"]) == ("finished", None)
    reopened = checked(published, "/api/v1/games/{game_id}/reopen/", api.post(f"{url}reopen/"))
    assert reopened["status"] == "in_progress"


def _declared(serializer: Any) -> set[str]:
    return set(serializer._declared_fields)


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_every_fact_the_engine_gives_is_named_by_the_schema(ruleset: str) -> None:
    rules = get_ruleset(ruleset)
    seats = list(range(1, 5))
    teams = {"teams": [[1, 3], [2, 4]]} if rules.supports_teams else {}
    for setup in ({}, teams):
        config = rules.configure(players=seats, options=dict(rules.example_options), **setup)
        _, state = play_out(random.Random(ruleset), config, {}, max_hands=6)
        assert set(state.extras) <= _declared(GameSerializer)
        assert set(state.next_hand or {}) <= _declared(NextHandSerializer)
        for row in state.standings:
            assert set(row.as_dict()) <= _declared(StandingSerializer)
        for hand in state.hands:
            assert set(hand.extras) <= _declared(HandSerializer)
