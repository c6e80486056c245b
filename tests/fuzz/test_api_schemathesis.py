"""Schemathesis fuzzes every operation of the OpenAPI schema, in process (Django's WSGI
handler, no server): at least 50 generated requests per operation, then stateful runs
along the links Schemathesis infers from the schema (create a game -> record a hand ->
read it, correct it, undo it…). Whatever it sends, the API never answers 5xx and every
answer is one the schema documents: its status code, content type, headers and body.

Requests are signed in with the token of a user who owns players, a league and a game
with a hand; half the generated ids (in paths, bodies and query strings) are swapped for
that user's own, so requests get past "404 not yours" into the views' real work.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test
from rest_framework.authtoken.models import Token
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from scorekeeper.services.games import hand_record
from tests.scorekeeper.factories import make_game, make_league, make_players, make_user

#: What the suite promises: no server error; every status code, content type, header and
#: body as the schema documents it. (Schemathesis's "schema-valid data is accepted"
#: check does not apply here: a body can match the schema and still break the game's
#: rules, e.g. a winner who is not at the table, which is a documented 400.)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

FUZZ_SETTINGS = settings(
    max_examples=50,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        # One database per operation: the examples of an operation share its rows.
        HealthCheck.function_scoped_fixture,
    ],
)

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", WSGIHandler())

#: The fuzzing user's own ids, by parameter name (filled by the ``token`` fixture).
OWN: dict[str, list[Any]] = {}
#: Body and query keys that hold a player id.
PLAYER_KEYS = {"winner", "player", "bower_holder", "first_dealer", "a", "b", "into"}


@pytest.fixture(autouse=True)
def _one_connection() -> Iterator[None]:
    """Requests go through Django's WSGI handler, which closes the database connection
    after each one; the test's transaction must outlive them (as the test client does)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def token(db: None) -> str:
    """The token of a user with four players, a league of them and a game with a hand."""
    owner = make_user("fuzzer")
    players = make_players("Ana", "Bo", "Cy", "Di", created_by=owner)
    league = make_league(owner, "Fuzz league", members=players)
    game = make_game(owner, "screw-your-neighbour", players, league=league.pk)
    hand_record(game=game, user=owner, hand_input={"winner": players[0].pk})
    OWN.clear()
    OWN.update(
        game_id=[game.pk],
        number=[1],
        player_id=[p.pk for p in players],
        league_id=[league.pk],
        slug=["dirt", "dirty-deals"],
    )
    return Token.objects.create(user=owner).key


def _own(name: str, value: Any) -> Any:
    """``value`` with the ids in it swapped for the fuzzing user's own."""
    players = OWN.get("player_id", [])
    if not players:
        return value
    if isinstance(value, dict):
        return {key: _own(key, item) for key, item in value.items()}
    if isinstance(value, list):
        if name == "players":
            return players[: max(len(value), 2)]
        if name == "results":
            return [
                {**_own("", item), "player": players[i % len(players)]}
                if isinstance(item, dict)
                else item
                for i, item in enumerate(value)
            ]
        return [_own(name, item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool):
        if name in PLAYER_KEYS:
            return players[value % len(players)]
        if name == "league":
            return OWN["league_id"][0]
    return value


@schema.hook
def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> Any:
    if not path_parameters:
        return st.just(path_parameters)
    return st.fixed_dictionaries(
        {
            name: st.sampled_from([value, *OWN.get(name, [])])
            for name, value in path_parameters.items()
        }
    )


@schema.hook
def flatmap_query(context: Any, query: dict[str, Any] | None) -> Any:
    return st.sampled_from([query, _own("", query)]) if query else st.just(query)


@schema.hook
def flatmap_body(context: Any, body: Any) -> Any:
    return st.sampled_from([body, _own("", body)]) if isinstance(body, dict) else st.just(body)


@schema.parametrize()
@FUZZ_SETTINGS
def test_every_operation_answers_as_documented(case: schemathesis.Case, token: str) -> None:
    case.call_and_validate(
        # identity: the in-process client does not unpack gzip, which HTML and JSON get.
        headers={"Authorization": f"Token {token}", "Accept-Encoding": "identity"},
        checks=CHECKS,
    )


RULESETS = {"dirt", "screw-your-neighbour", "damn-you", "dirty-uno", "dirty-deals"}


def _operation(case: schemathesis.Case) -> str:
    return str(case.operation.definition.raw.get("operationId", ""))


class Workflow(schema.as_state_machine()):  # type: ignore[misc]
    """Sequences of calls along the links Schemathesis infers: a created game's id goes
    to its hands, a recorded hand's number to its correction and undo…"""

    token: ClassVar[str] = ""
    #: (operation id, status) of every call of the run.
    answered: ClassVar[set[tuple[str, int]]] = set()

    def setup(self) -> None:
        # Every sequence starts from the same rows: what one sequence created must not
        # change which calls the next one can make (Hypothesis replays sequences).
        self._savepoint = transaction.savepoint()

    def teardown(self) -> None:
        transaction.savepoint_rollback(self._savepoint)

    def before_call(self, case: schemathesis.Case) -> None:
        # The ids in bodies are the fuzzing user's own, so games get created and played.
        if isinstance(case.body, dict):
            case.body = _own("", case.body)
        if _operation(case) == "games_create" and isinstance(case.body, dict):
            # Sequences are about what follows a created game: every game a sequence
            # starts is one the API takes (four of the user's players suit every game),
            # whatever the generated data was. The operation test above fuzzes the body.
            ruleset = case.body.get("ruleset")
            body = {
                "ruleset": ruleset if ruleset in RULESETS else "screw-your-neighbour",
                "players": OWN["player_id"][:4],
            }
            if case.body.get("league"):
                body["league"] = OWN["league_id"][0]
            case.body = body
            # As JSON: a form body cannot say null (a null league went as a string).
            case.media_type = "application/json"

    def after_call(self, response: Any, case: schemathesis.Case) -> None:
        self.answered.add((_operation(case), response.status_code))

    def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, Any]:
        return {"headers": {"Authorization": f"Token {self.token}", "Accept-Encoding": "identity"}}

    def validate_response(
        self, response: Any, case: schemathesis.Case, additional_checks: Any = None, **kwargs: Any
    ) -> None:
        case.validate_response(
            response, checks=CHECKS, headers=self.get_call_kwargs(case)["headers"]
        )


def test_stateful_sequences_answer_as_documented(token: str) -> None:
    Workflow.token = token
    Workflow.answered = set()
    run_state_machine_as_test(
        Workflow, settings=settings(FUZZ_SETTINGS, max_examples=30, stateful_step_count=8)
    )
    # The runs got somewhere: a game was started and the links led on to its hands.
    assert ("games_create", 201) in Workflow.answered
    assert any(op.startswith("games_hands_") for op, _ in Workflow.answered)
