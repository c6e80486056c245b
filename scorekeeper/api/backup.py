"""A league's backup over the API: ``GET /api/v1/leagues/{id}/export/?format=json|csv``
(the owner and members of the league; 404 for anyone else) and
``POST /api/v1/leagues/import/`` (the body is a JSON export; a new league owned by the
caller). Same services, same checks and same file as the league page's download links."""

from __future__ import annotations

from collections.abc import Iterable

from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    OpenApiTypes,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import RuleError
from scorekeeper.api.auth import signed_in_user
from scorekeeper.selectors.games import leagues_visible_to
from scorekeeper.services.backup import (
    MAX_IMPORT_BYTES,
    attachment,
    export_filename,
    league_export_csv,
    league_export_json_text,
    league_import,
)

EXPORT_FORMATS = ("json", "csv")


class ExportFormatIsNotARenderer(DefaultContentNegotiation):
    """DRF reads ``?format=`` to choose a renderer; here it chooses the export's format,
    and everything the view renders itself (the JSON export, errors) is JSON."""

    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))
        return renderer, str(renderer.media_type)


ImportOutputSerializer = inline_serializer(
    name="LeagueImported",
    fields={
        "id": serializers.IntegerField(help_text="The new league's id."),
        "name": serializers.CharField(),
        "players": serializers.IntegerField(help_text="Players of the league."),
        "players_reused": serializers.IntegerField(
            help_text="Of those, players that already existed (your own player)."
        ),
        "games": serializers.IntegerField(),
        "hands": serializers.IntegerField(),
    },
)


class LeagueExportApi(APIView):
    content_negotiation_class = ExportFormatIsNotARenderer

    @extend_schema(
        operation_id="leagues_export",
        summary="Export a league",
        description=(
            "`format=json` (default): everything the league is made of: players, members, "
            "games with their set-up, every hand's input and each hand's correction "
            "history (accounts by username only). Importing it elsewhere reproduces the "
            "league. `format=csv`: one row per player per game (game_id, date, ruleset, "
            "variant, player_id, player_name, seat, team, score, place, won, status)."
        ),
        parameters=[
            OpenApiParameter(
                "format",
                OpenApiTypes.STR,
                enum=list(EXPORT_FORMATS),
                description="json (default) or csv.",
            ),
        ],
        responses={
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT, description="The export: JSON or CSV, as `format` asks."
            ),
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="The export: JSON or CSV, as `format` asks."
            ),
            404: OpenApiResponse(description="No such league, or not yours to see."),
        },
        tags=["leagues"],
    )
    def get(self, request: Request, league_id: int) -> StreamingHttpResponse:
        chosen = request.query_params.get("format", "json")
        if chosen not in EXPORT_FORMATS:
            raise RuleError(f"format must be json or csv (got {chosen!r})", "format")
        league = get_object_or_404(
            leagues_visible_to(request.user).select_related("owner"), pk=league_id
        )
        if chosen == "csv":
            response = StreamingHttpResponse(
                league_export_csv(league), content_type="text/csv; charset=utf-8"
            )
        else:
            response = StreamingHttpResponse(
                league_export_json_text(league), content_type="application/json"
            )
        response["Content-Disposition"] = attachment(export_filename(league, chosen))
        return response


class LeagueImportApi(APIView):
    @extend_schema(
        operation_id="leagues_import",
        summary="Import a league",
        description=(
            "The body is a league export (`GET /api/v1/leagues/{id}/export/`). The whole "
            "file is checked first (every hand through the game's rules) and a problem "
            "answers 400 naming its place in the file, with nothing saved. The league is "
            "new and yours; a player linked to your own account becomes your player."
        ),
        request=OpenApiTypes.OBJECT,
        responses={
            201: ImportOutputSerializer,
            400: OpenApiResponse(description="The file is not a valid league export."),
            413: OpenApiResponse(description="The file is larger than 20 MB."),
        },
        tags=["leagues"],
    )
    def post(self, request: Request) -> Response:
        user = signed_in_user(request)
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            size = 0
        if size > MAX_IMPORT_BYTES:
            return Response(
                {
                    "detail": f"This backup is {size / 1_048_576:.1f} MB; the API takes up to "
                    f"{MAX_IMPORT_BYTES // 1_048_576} MB (the server's administrator can "
                    "import bigger ones with manage.py import_league)."
                },
                status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
            )
        result = league_import(request.data, owner=user, trusted=user.is_superuser)
        return Response(
            {
                "id": result.league.pk,
                "name": result.league.name,
                "players": result.players_created + result.players_reused,
                "players_reused": result.players_reused,
                "games": result.games,
                "hands": result.hands,
            },
            status=status.HTTP_201_CREATED,
        )


urlpatterns = [
    path("leagues/<int:league_id>/export/", LeagueExportApi.as_view(), name="api-league-export"),
    path("leagues/import/", LeagueImportApi.as_view(), name="api-league-import"),
]
