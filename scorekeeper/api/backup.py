"""A league's backup over the API: ``GET /api/v1/leagues/{id}/export/?format=json|csv``
(the owner and members of the league; 404 for anyone else) and
``POST /api/v1/leagues/import/`` (the body is a JSON export; a new league owned by the
caller, made by the background worker: ``GET /api/v1/leagues/imports/{id}/`` says how
far it is). Same services, same checks and same file as the league page's links."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import IO, Any

from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    OpenApiTypes,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, Throttled
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import RuleError
from scorekeeper.api.auth import signed_in_user
from scorekeeper.api.fields import OutputSerializer
from scorekeeper.models import LeagueImport, LeagueImportStatus
from scorekeeper.selectors.games import leagues_visible_to
from scorekeeper.selectors.imports import league_imports_of
from scorekeeper.services.backup import (
    MAX_IMPORT_BYTES,
    ExportFailed,
    ImportsWaiting,
    export_stream,
    league_import_queue,
    streamed_export,
    upload_check,
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
    """The import's own parser: it reads at most :data:`MAX_IMPORT_BYTES` (20 MB)
    whatever the limit of other endpoints (413 beyond) and keeps the body as it came,
    for the background worker to parse."""

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
        return raw  # type: ignore[return-value]


class ImportProgressSerializer(OutputSerializer):
    games_checked = serializers.IntegerField(help_text="Games of the file checked so far.")
    games = serializers.IntegerField(
        allow_null=True, help_text="Games in the file (null until the file is read)."
    )


class LeagueImportSerializer(OutputSerializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=LeagueImportStatus.choices,
        help_text="queued (waiting for the background worker), checking (the file, game "
        "by game: see progress), importing (saving the league), then done (see league) "
        "or failed (see error; nothing was saved).",
    )
    progress = ImportProgressSerializer(source="*")
    league = serializers.IntegerField(
        source="league_id", allow_null=True, help_text="The new league's id, once done."
    )
    error = serializers.SerializerMethodField(
        help_text="Why the file was refused, naming the place in the file "
        "(`games[3].hands[12].number: …`); null unless failed."
    )
    url = serializers.HyperlinkedIdentityField(
        view_name="api-league-import-detail", lookup_url_kwarg="import_id"
    )

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_error(self, upload: LeagueImport) -> str | None:
        return upload.error or None


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
                description="The export failed before its first byte; nothing was sent. "
                "Try again. (A failure after it cuts the download short.)"
            ),
        },
        tags=["leagues"],
    )
    def get(self, request: Request, league_id: int) -> StreamingHttpResponse | Response:
        chosen = request.query_params.get("format", "json")
        if chosen not in EXPORT_FORMATS:
            raise RuleError(
                _("format must be json or csv (got %(chosen)s)") % {"chosen": repr(chosen)},
                "format",
            )
        league = get_object_or_404(
            leagues_visible_to(request.user).select_related("owner"), pk=league_id
        )
        try:
            export = export_stream(league, chosen)
        except ExportFailed:
            return Response(
                {"detail": "The export failed, so nothing was sent. Try again."},
                status=status.HTTP_503_SERVICE_UNAVAILABLE,
            )
        return streamed_export(export, league, chosen)


class LeagueImportApi(APIView):
    parser_classes = [LeagueBackupParser]

    @extend_schema(
        operation_id="leagues_import",
        summary="Import a league",
        description=(
            "The body is a league export (`GET /api/v1/leagues/{id}/export/`), up to 20 MB "
            "(413 beyond); a body that is not text beginning a JSON object answers 400 at "
            "once. Otherwise the file is kept and imported by the background worker: the "
            "answer, `202`, is the import (its `url`, also in `Location`; follow it until "
            "`status` is `done` or `failed`). The worker checks the whole file (every hand "
            "through the game's rules); a problem fails the import with `error` naming its "
            "place in the file (`games[3].hands[12].number: …`), and nothing is saved. The "
            "league is new and yours; a player linked to your own account becomes your "
            "player. A game holds at most 1,000 hands. An account may have two imports "
            "waiting or under way (429 beyond)."
        ),
        request=OpenApiTypes.OBJECT,
        responses={
            202: LeagueImportSerializer,
            400: OpenApiResponse(description="Not text beginning a JSON object."),
            413: OpenApiResponse(description="The file is larger than 20 MB."),
            429: OpenApiResponse(description="Two imports of yours are waiting or under way."),
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
        raw = request.data if isinstance(request.data, bytes) else b""  # {}: no body
        upload_check(raw)
        try:
            upload = league_import_queue(owner=user, raw=raw)
        except ImportsWaiting as exc:
            raise Throttled(detail=exc.message) from None
        body = LeagueImportSerializer(upload, context={"request": request}).data
        # str(): the field makes a Hyperlink, and WSGI servers take headers of type str only.
        location = str(body["url"])
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": location})


class LeagueImportDetailApi(APIView):
    @extend_schema(
        operation_id="leagues_import_read",
        summary="A league import",
        description="How far an import is, and then its league or why it failed. "
        "Only the account that sent it sees it (404 for anyone else).",
        responses={200: LeagueImportSerializer, 404: OpenApiResponse(description="Not yours.")},
        tags=["leagues"],
    )
    def get(self, request: Request, import_id: int) -> Response:
        upload = get_object_or_404(league_imports_of(signed_in_user(request)), pk=import_id)
        return Response(LeagueImportSerializer(upload, context={"request": request}).data)


urlpatterns = [
    path("leagues/<int:league_id>/export/", LeagueExportApi.as_view(), name="api-league-export"),
    path("leagues/import/", LeagueImportApi.as_view(), name="api-league-import"),
    path(
        "leagues/imports/<int:import_id>/",
        LeagueImportDetailApi.as_view(),
        name="api-league-import-detail",
    ),
]
