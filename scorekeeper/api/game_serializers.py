"""The OpenAPI contract of the game endpoints: serializers that document the responses
(the payloads are built by :mod:`scorekeeper.api.game_payloads`), the hand input of
every game with its examples, the errors each endpoint may answer, and the
``Idempotency-Key`` header."""

from __future__ import annotations

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    PolymorphicProxySerializer,
)
from rest_framework import serializers

from games import RULESETS
from scorekeeper.models import GameStatus
from scorekeeper.validation import IDEMPOTENCY_KEY_MAX

RULESET_SLUGS = list(RULESETS)
IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_KEY_SCHEMA = {
    "type": "string",
    "minLength": 1,
    "maxLength": IDEMPOTENCY_KEY_MAX,
    "pattern": "^[\\x20-\\x7e]+$",
}


class SeatSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Player id.")
    name = serializers.CharField()
    seat = serializers.IntegerField(help_text="Seat from 0, clockwise.")
    team = serializers.IntegerField(allow_null=True, help_text="Team index in partner play.")


class PlayerPointsSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    points = serializers.IntegerField()


class PlayerScoreSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    score = serializers.IntegerField()


class TeamPointsSerializer(serializers.Serializer):
    team = serializers.IntegerField()
    points = serializers.IntegerField()


class ChipsSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    paid = serializers.IntegerField()
    received = serializers.IntegerField()


class HandSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField(help_text="Player id of the dealer.")
    winner = serializers.IntegerField(
        allow_null=True,
        help_text="Who went out (claimed, in dirty-deals); null only when a damn-you "
        "game ended in mid-hand.",
    )
    points = PlayerPointsSerializer(
        many=True, help_text="What the hand changed in each player's score."
    )
    totals = PlayerScoreSerializer(many=True, help_text="Each player's score after the hand.")
    team_points = TeamPointsSerializer(
        many=True, required=False, help_text="Partner play: each team's hand score."
    )
    input = serializers.JSONField(help_text="The hand as stored (normalised input).")
    revision = serializers.IntegerField(help_text="1, plus one for each correction.")
    dirt_rank = serializers.CharField(required=False, help_text="dirt: this hand's dirt rank.")
    chips = ChipsSerializer(many=True, required=False, help_text="damn-you: chip movements.")
    short = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="damn-you: players dealt one card fewer.",
    )
    pot = serializers.IntegerField(required=False, help_text="damn-you: chips left in the pot.")
    rubber = serializers.IntegerField(required=False, help_text="dirty-deals: rubber number.")
    rubber_won_by = serializers.IntegerField(
        required=False, allow_null=True, help_text="dirty-deals: who won the rubber with this hand."
    )
    resets = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="dirty-uno: players whose score hit exactly 500 and went back to 0.",
    )


class HandRevisionSerializer(serializers.Serializer):
    revision = serializers.IntegerField()
    action = serializers.ChoiceField(choices=["recorded", "corrected", "undone"])
    input = serializers.JSONField(
        help_text="The input after the action (for an undo: the input removed)."
    )
    user = serializers.IntegerField(allow_null=True)
    username = serializers.CharField(allow_null=True)
    guest = serializers.CharField(
        allow_null=True, help_text="The name a guest gave, when one joined by a score link."
    )
    at = serializers.DateTimeField()


class HandDetailSerializer(HandSerializer):
    history = HandRevisionSerializer(
        many=True, help_text="Every input this hand number has had, oldest first."
    )


class StandingSerializer(serializers.Serializer):
    player = serializers.IntegerField(required=False, help_text="Set unless partner play.")
    name = serializers.CharField(required=False)
    team = serializers.IntegerField(required=False, help_text="Partner play: team index.")
    players = serializers.ListField(child=serializers.IntegerField(), required=False)
    names = serializers.ListField(child=serializers.CharField(), required=False)
    score = serializers.IntegerField(
        help_text="dirt: total points; screw-your-neighbour: hand wins; damn-you: chips "
        "held; dirty-uno: score; dirty-deals: points in the current rubber."
    )
    rank = serializers.IntegerField(help_text="Equal scores share a rank.")
    rubbers = serializers.IntegerField(required=False, help_text="dirty-deals: rubbers won.")


class NextHandSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    dirt_rank = serializers.CharField(required=False, help_text="dirt")
    hands_left = serializers.IntegerField(required=False, help_text="dirt")
    short = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="damn-you: players dealt one card fewer.",
    )
    rubber = serializers.IntegerField(required=False, help_text="dirty-deals")
    reminder = serializers.CharField(required=False, help_text="dirty-uno")


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.ChoiceField(choices=RULESET_SLUGS)
    ruleset_name = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    options = serializers.DictField(help_text="The effective options, defaults filled in.")
    players = SeatSerializer(many=True, help_text="In seating order, clockwise.")
    teams = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()), allow_null=True
    )
    first_dealer = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GameStatus.values)
    ended_by = serializers.CharField(
        help_text='"" while in progress; else how it ended '
        "(hands, target, score, match, early, closed)."
    )
    closed = serializers.BooleanField(help_text="Ended by hand.")
    standings = StandingSerializer(many=True, help_text="Best first.")
    winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="Player ids; empty until finished."
    )
    next_hand = NextHandSerializer(allow_null=True, help_text="null once finished.")
    hand_count = serializers.IntegerField()
    league = serializers.IntegerField(allow_null=True)
    owner = serializers.IntegerField(help_text="Id of the account that created the game.")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField(help_text="Goes up with every change.")
    pot = serializers.IntegerField(required=False, help_text="damn-you: chips in the pot.")
    rubber = serializers.IntegerField(
        required=False, help_text="dirty-deals: number of the current rubber."
    )


class GameSerializer(GameSummarySerializer):
    hands = HandSerializer(many=True)
    can_change = serializers.BooleanField(help_text="Whether you may change this game.")


# -- input serializers -----------------------------------------------------------------


class SheddingResultSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    cards = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text=(
            'Cards left in hand, e.g. ["JK", "4H"]; a rank or UNO value alone ("4", "7") '
            "when the suit or colour was not noted."
        ),
    )
    points = serializers.IntegerField(
        min_value=0, required=False, help_text="Points the table counted (not with cards)."
    )


class SheddingHandSerializer(serializers.Serializer):
    """dirt, dirty-uno"""

    winner = serializers.IntegerField(help_text="Who went out.")
    results = SheddingResultSerializer(many=True, help_text="Every player but the winner.")


class DamnYouResultSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    passes = serializers.IntegerField(min_value=0)
    cards_left = serializers.IntegerField(min_value=0)


class DamnYouHandSerializer(serializers.Serializer):
    """damn-you"""

    winner = serializers.IntegerField(help_text="Who went out.")
    results = DamnYouResultSerializer(
        many=True, help_text="Every player; the winner's cards_left is 0."
    )


class DirtyDealsHandSerializer(serializers.Serializer):
    """dirty-deals"""

    winner = serializers.IntegerField(help_text="Who claimed the hand.")
    suit = serializers.CharField(help_text="S, H, D or C.")
    surplus = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="The claimant's surplus cards."
    )
    surplus_count = serializers.IntegerField(
        min_value=0, required=False, help_text="Instead of surplus: their number."
    )
    bower_in_surplus = serializers.BooleanField(required=False, help_text="With surplus_count.")
    bower_holder = serializers.IntegerField(
        allow_null=True, required=False, help_text="Another player holding the bower."
    )


class ScrewYourNeighbourHandSerializer(serializers.Serializer):
    """screw-your-neighbour"""

    winner = serializers.IntegerField(help_text="Who went out first.")


HAND_INPUT = PolymorphicProxySerializer(
    component_name="HandInput",
    serializers=[
        SheddingHandSerializer,
        DamnYouHandSerializer,
        DirtyDealsHandSerializer,
        ScrewYourNeighbourHandSerializer,
    ],
    resource_type_field_name=None,
)

HAND_EXAMPLES = [
    OpenApiExample(
        "dirt or dirty-uno",
        request_only=True,
        value={
            "winner": 3,
            "results": [
                {"player": 1, "cards": ["JK", "4H"]},
                {"player": 4, "points": 12},
                {"player": 2, "cards": []},
            ],
        },
    ),
    OpenApiExample(
        "damn-you",
        request_only=True,
        value={
            "winner": 2,
            "results": [
                {"player": 1, "passes": 2, "cards_left": 5},
                {"player": 2, "passes": 0, "cards_left": 0},
                {"player": 3, "passes": 1, "cards_left": 3},
                {"player": 4, "passes": 3, "cards_left": 7},
            ],
        },
    ),
    OpenApiExample(
        "dirty-deals",
        request_only=True,
        value={"winner": 1, "suit": "H", "surplus": ["JD", "9C"], "bower_holder": None},
    ),
    OpenApiExample("screw-your-neighbour", request_only=True, value={"winner": 3}),
]

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
