"""The JSON of the game endpoints: the output serializers that make every response (a
game, its hands, one hand with its history) from the engine's state — the same classes
the OpenAPI schema documents, so the schema is the answer — and the hand input of every
game (each game's presenter names its serializer) with its examples, the errors each
endpoint may answer, and the ``Idempotency-Key`` header."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC
from functools import cached_property
from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    PolymorphicProxySerializer,
)
from rest_framework import serializers

from games import RULESETS, GameState, HandOutcome
from games.errors import JSON
from scorekeeper.api.fields import OutputSerializer
from scorekeeper.models import Game, GameStatus, HandRevision, Seat
from scorekeeper.presenters import presenter_for
from scorekeeper.presenters.answers import shape
from scorekeeper.selectors.games import StoredHand
from scorekeeper.validation import IDEMPOTENCY_KEY_MAX

RULESET_SLUGS = list(RULESETS)
IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_KEY_SCHEMA = {
    "type": "string",
    "minLength": 1,
    "maxLength": IDEMPOTENCY_KEY_MAX,
    "pattern": "^[\\x20-\\x7e]+$",
}


# -- what the responses are made of -----------------------------------------------------


class HandView:
    """A hand as the API shows it: the engine's outcome (its attributes, and its game's
    own facts, are the view's), the stored revision (1 until the hand is corrected) and,
    for one hand on its own, every input it has had."""

    def __init__(
        self, outcome: HandOutcome, revision: int = 1, history: Sequence[HandRevision] = ()
    ) -> None:
        self.__dict__.update(vars(outcome), **outcome.extras)
        self.outcome, self.revision, self.history = outcome, revision, history


@dataclass(frozen=True)
class GameView:
    """A game as the API shows it: the stored row (seats with their players prefetched,
    and its hands for :attr:`hands` unless ``stored``), the engine's state of it (whose
    game's own facts read as the view's attributes), whether the viewer may change it,
    and the hands to show, already made from the hands as stored (:func:`hand_object`;
    ``state`` may then hold the last hand only)."""

    game: Game
    state: GameState
    can_change: bool = False
    stored: Sequence[dict[str, Any]] | None = None

    def __getattr__(self, name: str) -> JSON:
        try:
            return self.state.extras[name]
        except KeyError:
            raise AttributeError(name) from None

    @cached_property
    def seats(self) -> list[Seat]:
        return sorted(self.game.seats.all(), key=lambda s: s.position)

    @property
    def ruleset_name(self) -> str:
        return self.game.get_ruleset_display()

    @property
    def hand_count(self) -> int:
        return self.state.played

    @property
    def standings(self) -> list[dict[str, JSON]]:
        """The engine's rows, with the names to show: a player's, or a team's players'."""
        names: dict[int | None, str] = {s.player_id: s.player.name for s in self.seats}
        return [
            row.as_dict() | {"names": [names.get(p, "") for p in row.players]}
            if row.team is not None
            else row.as_dict() | {"name": names.get(row.player, "")}
            for row in self.state.standings
        ]

    @property
    def hands(self) -> list[HandView] | list[dict[str, Any]]:
        if self.stored is not None:
            return list(self.stored)
        revisions = {h.number: h.revision for h in self.game.hands.all()}
        return [HandView(o, revisions.get(o.number, 1)) for o in self.state.hands]


# -- output serializers (a field that is not required is a game's own fact) ---------------

INT = serializers.IntegerField


class SeatSerializer(OutputSerializer):
    id = INT(source="player_id", help_text="Player id.")
    name = serializers.CharField(source="player.name")
    seat = INT(source="position", help_text="Seat from 0, clockwise.")
    team = INT(allow_null=True, help_text="Team index in partner play.")


PlayerPointsSerializer = shape("PlayerPoints", player=INT(), points=INT())
PlayerScoreSerializer = shape("PlayerScore", player=INT(), score=INT())
TeamPointsSerializer = shape("TeamPoints", team=INT(), points=INT())


def game_facts(kind: str) -> dict[str, serializers.Field]:
    """Every game's own facts of one ``kind`` ("hand", "next_hand", "standing", "game"),
    as its presenter declares them (``Presenter.hand_facts`` and the like), in the
    registry's order; a fact two games share is declared by the first."""
    found: dict[str, serializers.Field] = {}
    for slug in RULESETS:
        for name, field in getattr(presenter_for(slug), f"{kind}_facts")().items():
            found.setdefault(name, field)
    return found


def answer(
    called: str, base: type[OutputSerializer], doc: str | None, /, **attrs: Any
) -> type[OutputSerializer]:
    """An answer's serializer made of ``attrs`` in their order (the order their fields
    were made in: a game's facts between the fields around them)."""
    return type(called, (base,), {"__doc__": doc, "__module__": __name__, **attrs})


class PlayerValuesField(serializers.ListField):
    """The engine's ``{player id: number}`` of a hand as ``[{"player": id, KEY: number}]``,
    in seat order (a game's every hand has two: read directly, not one object at a time)."""

    def __init__(self, key: str, **kwargs: Any) -> None:
        self.key = key
        super().__init__(**kwargs)

    def to_representation(self, data: Any) -> list[dict[str, int]]:
        return [{"player": player, self.key: value} for player, value in data.items()]


class TeamPointsField(serializers.ListField):
    """The engine's team points of a hand (by team index) as ``[{"team", "points"}]``."""

    child = TeamPointsSerializer()

    def to_representation(self, data: Any) -> list[dict[str, int]]:
        return [{"team": team, "points": points} for team, points in enumerate(data)]


def _hand_facts(self: Any, instance: Any) -> set[str]:
    hands = instance if isinstance(instance, Sequence) else [instance]
    facts = {key for hand in hands for key in hand.outcome.extras}
    if any(hand.outcome.team_points is not None for hand in hands):
        facts.add("team_points")  # (null outside partner play: left out)
    return facts


HandSerializer = answer(
    "HandSerializer",
    OutputSerializer,
    """A hand. The fields that are not required are a game's own facts: a hand has them
    when its game does.""",
    number=INT(),
    dealer=INT(help_text="Player id of the dealer."),
    winner=INT(
        allow_null=True,
        help_text="Who went out (or claimed the hand); null only when a game ended in mid-hand.",
    ),
    points=PlayerValuesField(
        "points",
        child=PlayerPointsSerializer(),
        help_text="What the hand changed in each player's score.",
    ),
    totals=PlayerValuesField(
        "score", child=PlayerScoreSerializer(), help_text="Each player's score after the hand."
    ),
    team_points=TeamPointsField(required=False, help_text="Partner play: each team's hand score."),
    **game_facts("hand"),
    input=serializers.DictField(help_text="The hand as stored (normalised input)."),
    revision=INT(help_text="1, plus one for each correction."),
    facts=_hand_facts,
)


#: The fields of a hand's answer that its stored outcome holds, in the answer's order.
OUTCOME_FIELDS: tuple[str, ...] = tuple(
    str(name) for name in HandSerializer().fields if name not in {"input", "revision"}
)


def hand_object(hand: StoredHand) -> dict[str, Any]:
    """A hand's answer, as :class:`HandSerializer` makes it, from the hand as stored: its
    outcome is the answer without the input and revision (``Hand.derived``), so no
    engine and no serializer field is needed."""
    outcome = hand.outcome
    data: dict[str, Any] = {name: outcome[name] for name in OUTCOME_FIELDS if name in outcome}
    data["input"] = hand.input
    data["revision"] = hand.revision
    return data


class HandsField(serializers.ListField):
    """A game's hands, each as :class:`HandSerializer` makes it (or already made from
    the hands as stored: :func:`hand_object`)."""

    child = HandSerializer()

    def to_representation(self, data: Any) -> Any:
        if all(isinstance(hand, dict) for hand in data):
            return data
        return HandSerializer(data, many=True).data


class HandRevisionSerializer(OutputSerializer):
    revision = INT()
    action = serializers.ChoiceField(choices=["recorded", "corrected", "undone"])
    input = serializers.JSONField(
        help_text="The input after the action (for an undo: the input removed)."
    )
    user = INT(source="user_id", allow_null=True)
    username = serializers.CharField(source="user.get_username", allow_null=True)
    guest = serializers.CharField(
        source="guest.name",
        allow_null=True,
        help_text="The name a guest gave, when one joined by a score link.",
    )
    at = serializers.DateTimeField(source="created_at", default_timezone=UTC)


HandDetailSerializer = answer(
    "HandDetailSerializer",
    HandSerializer,
    None,
    history=HandRevisionSerializer(
        many=True, help_text="Every input this hand number has had, oldest first."
    ),
)


StandingSerializer = answer(
    "StandingSerializer",
    OutputSerializer,
    None,
    player=INT(required=False, help_text="Set unless partner play."),
    team=INT(required=False, help_text="Partner play: team index."),
    players=serializers.ListField(child=INT(), required=False),
    score=INT(
        help_text="; ".join(f"{slug}: {presenter_for(slug).score_meaning}" for slug in RULESETS)
        + "."
    ),
    rank=INT(help_text="Equal scores share a rank."),
    **game_facts("standing"),
    name=serializers.CharField(required=False),
    names=serializers.ListField(child=serializers.CharField(), required=False),
)


NextHandSerializer = answer(
    "NextHandSerializer",
    OutputSerializer,
    None,
    number=INT(),
    dealer=INT(),
    **game_facts("next_hand"),
)


def _game_facts_of(self: Any, instance: Any) -> set[str]:
    games = instance if isinstance(instance, Sequence) else [instance]
    return {key for game in games for key in game.state.extras}


GameSummarySerializer = answer(
    "GameSummarySerializer",
    OutputSerializer,
    """A game without its hands. The fields that are not required are a game's own facts.""",
    id=INT(source="game.pk"),
    ruleset=serializers.ChoiceField(choices=RULESET_SLUGS, source="game.ruleset"),
    ruleset_name=serializers.CharField(),
    variant=serializers.CharField(source="state.config.variant", allow_null=True),
    options=serializers.DictField(
        source="state.config.options", help_text="The effective options, defaults filled in."
    ),
    players=SeatSerializer(many=True, source="seats", help_text="In seating order, clockwise."),
    teams=serializers.ListField(
        child=serializers.ListField(child=INT()), source="state.config.teams", allow_null=True
    ),
    first_dealer=INT(source="state.config.first_dealer"),
    status=serializers.ChoiceField(choices=GameStatus.values, source="state.status"),
    ended_by=serializers.CharField(
        source="state.ended_by",
        help_text='"" while in progress; else how it ended '
        "(hands, target, score, match, early, closed).",
    ),
    closed=serializers.BooleanField(source="game.closed", help_text="Ended by hand."),
    standings=StandingSerializer(many=True, help_text="Best first."),
    winners=serializers.ListField(
        child=INT(), source="state.winners", help_text="Player ids; empty until finished."
    ),
    next_hand=NextHandSerializer(
        source="state.next_hand", allow_null=True, help_text="null once finished."
    ),
    hand_count=INT(),
    league=INT(source="game.league_id", allow_null=True),
    night=INT(source="game.night_id", allow_null=True, help_text="The game night it is part of."),
    owner=INT(source="game.owner_id", help_text="Id of the account that created the game."),
    created_at=serializers.DateTimeField(source="game.created_at", default_timezone=UTC),
    finished_at=serializers.DateTimeField(
        source="game.finished_at", allow_null=True, default_timezone=UTC
    ),
    version=INT(source="game.version", help_text="Goes up with every change."),
    **game_facts("game"),
    facts=_game_facts_of,
)


GameSerializer = answer(
    "GameSerializer",
    GameSummarySerializer,
    """A game's score sheet: the game and every hand. The fields that are not required
    are a game's own facts.""",
    hands=HandsField(),
    can_change=serializers.BooleanField(help_text="Whether you may change this game."),
)


# -- input serializers -----------------------------------------------------------------


#: Each game's hand body (its presenter's ``hand_serializer``; games that share one, once).
HAND_INPUT = PolymorphicProxySerializer(
    component_name="HandInput",
    serializers=list(dict.fromkeys(presenter_for(slug).hand_serializer for slug in RULESETS)),
    resource_type_field_name=None,
)


def _hand_examples() -> list[OpenApiExample]:
    """Each game's hand bodies; games whose bodies are alike, once under their titles."""
    bodies: dict[str, tuple[list[str], Any]] = {}
    for slug in RULESETS:
        for title, body in presenter_for(slug).hand_examples().items():
            key = json.dumps(body, sort_keys=True)
            bodies.setdefault(key, ([], body))[0].append(title)
    return [
        OpenApiExample(" or ".join(titles), request_only=True, value=body)
        for titles, body in bodies.values()
    ]


HAND_EXAMPLES = _hand_examples()

#: Starting a game: each game's examples.
NEW_GAME_EXAMPLES = [
    OpenApiExample(title, request_only=True, value=body)
    for slug in RULESETS
    for title, body in presenter_for(slug).new_game_examples().items()
]

#: A hit of the rules search (the first game's that gives one).
RULES_HIT_EXAMPLES = [
    OpenApiExample("A hit", response_only=True, value=[hit])
    for hit in (presenter_for(slug).rules_hit_example() for slug in RULESETS)
    if hit is not None
][:1]

ERRORS = {
    400: OpenApiResponse(description="Bad input: `{field: [message]}`."),
    404: OpenApiResponse(description="No such game that you can see."),
}
CHANGE_ERRORS = {
    **ERRORS,
    403: OpenApiResponse(
        description="You may see this game but not change it: only its "
        "owner and members of its league may."
    ),
}
