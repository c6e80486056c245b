"""Rulesets and the rules reference: public, read-only, straight from the engine.

``GET /api/v1/rulesets/`` lists the games with their variants and house-rule options;
``GET /api/v1/rulesets/{slug}/`` adds the card-points table and the rules text in
sections; ``GET /api/v1/rules/?q=`` searches that text.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import path
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiTypes,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import RULESETS, Ruleset
from scorekeeper import engine_text, rules_index
from scorekeeper.api.game_serializers import RULES_HIT_EXAMPLES

MAX_QUERY = 200


class VariantSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    hands = serializers.IntegerField(allow_null=True, help_text="Hands in a game (null: open).")
    description = serializers.CharField()


# inline: a declared field named "help" would shadow DRF's own attribute.
OptionSerializer = inline_serializer(
    name="RulesetOption",
    fields={
        "default": serializers.JSONField(
            help_text="Null when the default depends on the table size."
        ),
        "choices": serializers.ListField(child=serializers.JSONField()),
        "label": serializers.CharField(),
        "help": serializers.CharField(),
        "min": serializers.IntegerField(required=False),
        "max": serializers.IntegerField(required=False),
        "kind": serializers.ChoiceField(
            choices=["text"], required=False, help_text="Present for a text option."
        ),
        "max_length": serializers.IntegerField(required=False, help_text="Most characters."),
        "multiline": serializers.BooleanField(required=False, help_text="Lines (Markdown)."),
        "required": serializers.BooleanField(required=False, help_text="Must be given."),
    },
)


class RulesetSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    variants = VariantSerializer(many=True)
    default_variant = serializers.CharField(allow_null=True)
    options = serializers.DictField(child=OptionSerializer, help_text="By option name.")
    supports_teams = serializers.BooleanField()
    wins_with = serializers.ChoiceField(choices=["low", "high"])
    score_label = serializers.CharField()
    url = serializers.CharField(help_text="The rules page.")


class CardPointsSerializer(serializers.Serializer):
    card = serializers.CharField()
    points = serializers.JSONField(help_text="A number, or words such as 'face value'.")
    note = serializers.CharField(allow_blank=True)


class SectionSerializer(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField()
    body = serializers.CharField(help_text="Markdown.")
    body_html = serializers.CharField(help_text="The body rendered as HTML.")


class RulesetDetailSerializer(RulesetSerializer):
    card_points = CardPointsSerializer(many=True)
    sections = SectionSerializer(many=True)


class RulesHitSerializer(serializers.Serializer):
    ruleset = serializers.CharField()
    ruleset_name = serializers.CharField()
    section = serializers.CharField(help_text="Slug of the section.")
    title = serializers.CharField(help_text="Title of the section.")
    snippet = serializers.CharField(
        help_text="HTML: an excerpt, escaped, with the matching words in <mark>."
    )
    url = serializers.CharField(help_text="The paragraph on the rules page.")


def ruleset_payload(ruleset: Ruleset) -> dict[str, Any]:
    data = ruleset.metadata()
    data["url"] = rules_index.page_url(ruleset.slug)
    return data


def ruleset_detail_payload(ruleset: Ruleset) -> dict[str, Any]:
    data = ruleset_payload(ruleset)
    data["card_points"] = ruleset.card_points(ruleset.default_options(ruleset.min_players))
    data["sections"] = [
        {**section.as_dict(), "body_html": section.html}
        for section in engine_text.rules_for(ruleset.slug).sections
    ]
    return data


class RulesetListApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="rulesets_list",
        summary="The games",
        description="Every game the sheet scores, with its variants and house-rule options.",
        responses=RulesetSerializer(many=True),
        tags=["rules"],
    )
    def get(self, request: Request) -> Response:
        return Response([ruleset_payload(r) for r in RULESETS.values()])


class RulesetDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="rulesets_retrieve",
        summary="One game, with its rules",
        description=(
            "The game's metadata plus `card_points` (the scoring table, from the engine) "
            "and `sections`, the rules reference in the project's own words: overview, "
            "players-and-cards, deal, play, special-cards, scoring, variants (where the "
            "game has them), house-rules and quick-reference."
        ),
        responses={200: RulesetDetailSerializer, 404: OpenApiTypes.OBJECT},
        tags=["rules"],
    )
    def get(self, request: Request, slug: str) -> Response:
        ruleset = RULESETS.get(slug)
        if ruleset is None:
            raise Http404(f"No game '{slug}'. Games: {', '.join(RULESETS)}.")
        return Response(ruleset_detail_payload(ruleset))


class RulesSearchApi(APIView):
    permission_classes = [AllowAny]

    class QuerySerializer(serializers.Serializer):
        q = serializers.CharField(
            max_length=MAX_QUERY,
            trim_whitespace=True,
            error_messages={
                "required": "Say what to look for, e.g. ?q=wild.",
                "blank": "Say what to look for, e.g. ?q=wild.",
            },
        )
        ruleset = serializers.ChoiceField(
            choices=list(RULESETS),
            required=False,
            allow_blank=True,
            error_messages={"invalid_choice": "'{input}' is not a game here."},
        )

    @extend_schema(
        operation_id="rules_search",
        summary="Search the rules",
        description=(
            "Sections of the rules matching `q`, best match first. Word forms and the "
            "words players use find the right section ('antes', 'draw five', 'left bower', "
            "'miss a turn'). `snippet` is HTML with the matches in `<mark>`. An empty list "
            "means nothing matched."
        ),
        parameters=[
            OpenApiParameter("q", OpenApiTypes.STR, required=True, description="What to find."),
            OpenApiParameter(
                "ruleset",
                OpenApiTypes.STR,
                enum=list(RULESETS),
                description="Only this game's rules.",
            ),
        ],
        responses={200: RulesHitSerializer(many=True), 400: OpenApiTypes.OBJECT},
        examples=RULES_HIT_EXAMPLES,
        tags=["rules"],
    )
    def get(self, request: Request) -> Response:
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        hits = rules_index.search(query.validated_data["q"], query.validated_data.get("ruleset"))
        return Response(RulesHitSerializer(hits, many=True).data)


urlpatterns = [
    path("rulesets/", RulesetListApi.as_view(), name="api-ruleset-list"),
    path("rulesets/<slug:slug>/", RulesetDetailApi.as_view(), name="api-ruleset-detail"),
    path("rules/", RulesSearchApi.as_view(), name="api-rules-search"),
]
