"""Downloading a league (JSON backup, CSV of results) and importing a JSON backup as a
new league. The league page links here; only the league's owner and members (and
superusers) may download it, everyone else gets a 404, as for the league itself. A
download is written while it is sent (its memory flat in the league's size); when the
export fails before its first byte, the league page says so (see
:mod:`scorekeeper.downloads` for one failing later). An
import is made by the background worker: the upload leads to its progress page."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from games import RuleError
from scorekeeper.models import League, LeagueImportStatus
from scorekeeper.selectors.games import leagues_visible_to
from scorekeeper.selectors.health import worker_alive
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


def _visible_league(request: HttpRequest, league_id: int) -> League:
    return get_object_or_404(leagues_visible_to(request.user).select_related("owner"), pk=league_id)


def _download(
    request: HttpRequest, league_id: int, chosen: str
) -> HttpResponse | StreamingHttpResponse:
    league = _visible_league(request, league_id)
    try:
        export = export_stream(league, chosen)
    except ExportFailed:
        messages.error(
            request,
            _(
                "The download failed part way, so nothing was saved on your device. "
                "Try again in a moment."
            ),
        )
        return _to_league(league)
    return streamed_export(export, league, chosen)


@require_GET
@login_required
def league_export_json_file(
    request: HttpRequest, league_id: int
) -> HttpResponse | StreamingHttpResponse:
    return _download(request, league_id, "json")


@require_GET
@login_required
def league_export_csv_file(
    request: HttpRequest, league_id: int
) -> HttpResponse | StreamingHttpResponse:
    return _download(request, league_id, "csv")


class LeagueImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("League backup (.json)"),
        help_text=gettext_lazy(
            "A file downloaded with “Download backup (JSON)” from a league page, "
            "here or on another scorekeeper install."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                _(
                    "This file is %(size)s MB; the import page takes up to %(limit)s MB "
                    "(the server's administrator can import bigger ones with "
                    "manage.py import_league)."
                )
                % {"size": f"{upload.size / 1_048_576:.1f}", "limit": MAX_IMPORT_BYTES // 1_048_576}
            )
        raw: bytes = upload.read(MAX_IMPORT_BYTES + 1)
        try:
            upload_check(raw)
        except RuleError as exc:
            raise forms.ValidationError(exc.message) from None
        return raw


@require_http_methods(["GET", "POST"])
@login_required
def league_import_page(request: HttpRequest) -> HttpResponse:
    form = (
        LeagueImportForm(request.POST, request.FILES)
        if request.method == "POST"
        else LeagueImportForm()
    )
    if request.method == "POST" and form.is_valid():
        try:
            upload = league_import_queue(
                owner=request.user,  # type: ignore[arg-type]
                raw=form.cleaned_data["file"],
            )
        except ImportsWaiting as exc:
            form.add_error("file", exc.message)
        else:
            return redirect("league_import_status", import_id=upload.pk)
    return render(request, "backup/league_import.html", {"form": form})


#: The progress page asks again after this many seconds, more as the import goes on.
POLL_SECONDS = (1, 2, 3, 5, 10)


@require_GET
@login_required
def league_import_status(request: HttpRequest, import_id: int) -> HttpResponse:
    """How far an import is (only its owner sees it), then its league or why it was
    refused. While it runs the page asks again, htmx swapping in the progress (and,
    without JavaScript, a refresh of the page), less often as the wait grows."""
    upload = get_object_or_404(league_imports_of(request.user), pk=import_id)
    waited = int((timezone.now() - upload.created_at).total_seconds() // 10)
    context = {
        "upload": upload,
        "poll": None if upload.over else POLL_SECONDS[min(waited, len(POLL_SECONDS) - 1)],
        "no_worker": upload.status == LeagueImportStatus.QUEUED and not worker_alive(),
    }
    htmx = getattr(request, "htmx", None)
    partial = "#progress" if htmx and not htmx.history_restore_request else ""
    response = render(request, f"backup/league_import_status.html{partial}", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _to_league(league: League) -> HttpResponseRedirect:
    return redirect("league_detail", league_id=league.pk)


urlpatterns = [
    path("leagues/<int:league_id>/export.json", league_export_json_file, name="league_export_json"),
    path("leagues/<int:league_id>/export.csv", league_export_csv_file, name="league_export_csv"),
    path("leagues/import/", league_import_page, name="league_import"),
    path("leagues/imports/<int:import_id>/", league_import_status, name="league_import_status"),
]
