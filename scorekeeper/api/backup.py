"""A league's backup over the API: ``GET /api/v1/leagues/{id}/export/?format=json|csv``
(the owner and members of the league; 404 for anyone else) and
``POST /api/v1/leagues/import/`` (the body is a JSON export; a new league owned by the
caller). Same services, same checks and same file as the league page's download links."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import IO, Any

from django.http import FileResponse
from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    OpenApiTypes,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import RuleError
from scorekeeper.api.auth import signed_in_user
from scorekeeper.api.fields import OutputSerializer
from scorekeeper.selectors.games import leagues_visible_to
from scorekeeper.services.backup import (
    CONTENT_TYPES,
    MAX_IMPORT_BYTES,
    ExportFailed,
    ImportResult,
    export_file,
    export_filename,
    league_import,
    load_backup,
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


class BackupTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"

    def __init__(self, size: int | None = None) -> None:
        shown = f"{size / 1_048_576:.1f} MB" if size is not None else "larger than that"
        super().__init__(
            f"This backup is {shown}; the API takes up to "
            f"{MAX_IMPORT_BYTES // 1_048_576} MB (the server's administrator can import "
            "bigger ones with manage.py import_league)."
        )


class LeagueBackupParser(BaseParser):
    """The import's own JSON parser: it reads at most :data:`MAX_IMPORT_BYTES` (20 MB)
    whatever the limit of other endpoints (413 beyond), and refuses JSON no backup can
    be (too deep, ``NaN``, thousands of digits) with a 400."""

    media_type = "application/json"

    def parse(
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Mapping[Any, Any]:
        raw = stream.read(MAX_IMPORT_BYTES + 1) if stream is not None else b""
        if len(raw) > MAX_IMPORT_BYTES:
            raise BackupTooLarge()
        try:
            data = load_backup(raw)
        except RuleError as exc:
            raise ParseError(exc.message) from None
        # Any JSON, an object or not: the import says what is wrong with it.
        return data  # type: ignore[return-value]


class LeagueImportedSerializer(OutputSerializer):
    id = serializers.IntegerField(source="league.pk", help_text="The new league's id.")
    name = serializers.CharField(source="league.name")
    players = serializers.SerializerMethodField(help_text="Players of the league.")
    players_reused = serializers.IntegerField(
        help_text="Of those, players that already existed (your own player)."
    )
    games = serializers.IntegerField()
    hands = serializers.IntegerField()

    def get_players(self, imported: ImportResult) -> int:
        return imported.players_created + imported.players_reused


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
                OpenApiTypes.OBJECT, description="The export (format=json)."
            ),
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="The results (format=csv)."
            ),
            400: OpenApiResponse(description="An unknown format."),
            404: OpenApiResponse(description="No such league, or not yours to see."),
            503: OpenApiResponse(
                description="The export failed part way; nothing was sent. Try again."
            ),
        },
        tags=["leagues"],
    )
    def get(self, request: Request, league_id: int) -> FileResponse | Response:
        chosen = request.query_params.get("format", "json")
        if chosen not in EXPORT_FORMATS:
            raise RuleError(f"format must be json or csv (got {chosen!r})", "format")
        league = get_object_or_404(
            leagues_visible_to(request.user).select_related("owner"), pk=league_id
        )
        try:
            export = export_file(league, chosen)
        except ExportFailed:
            return Response(
                {"detail": "The export failed part way, so nothing was sent. Try again."},
                status=status.HTTP_503_SERVICE_UNAVAILABLE,
            )
        return FileResponse(
            export,
            as_attachment=True,
            filename=export_filename(league, chosen),
            content_type=CONTENT_TYPES[chosen],
        )


class LeagueImportApi(APIView):
    parser_classes = [LeagueBackupParser]

    @extend_schema(
        operation_id="leagues_import",
        summary="Import a league",
        description=(
            "The body is a league export (`GET /api/v1/leagues/{id}/export/`). The whole "
            "file is checked first (every hand through the game's rules) and a problem "
            "answers 400 naming its place in the file (`games[3].hands[12].number: …`), "
            "with nothing saved. The league is new and yours; a player linked to your own "
            "account becomes your player. Up to 20 MB (413 beyond); a game holds at most "
            "1,000 hands."
        ),
        request=OpenApiTypes.OBJECT,
        responses={
            201: LeagueImportedSerializer,
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
            # Refused before reading a byte of it.
            raise BackupTooLarge(size)
        imported = league_import(request.data, owner=user, trusted=user.is_superuser)
        return Response(LeagueImportedSerializer(imported).data, status=status.HTTP_201_CREATED)


urlpatterns = [
    path("leagues/<int:league_id>/export/", LeagueExportApi.as_view(), name="api-league-export"),
    path("leagues/import/", LeagueImportApi.as_view(), name="api-league-import"),
]
