"""Downloading a league (JSON backup, CSV of results) and importing a JSON backup as a
new league. The league page links here; only the league's owner and members (and
superusers) may download it, everyone else gets a 404, as for the league itself. A
download is the whole file or, when the export fails, the league page saying so."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.views.decorators.http import require_GET, require_http_methods

from games import RuleError
from scorekeeper.models import League
from scorekeeper.selectors.games import leagues_visible_to
from scorekeeper.services.backup import (
    CONTENT_TYPES,
    MAX_IMPORT_BYTES,
    ExportFailed,
    export_file,
    export_filename,
    league_import,
    load_backup,
)


def _visible_league(request: HttpRequest, league_id: int) -> League:
    return get_object_or_404(leagues_visible_to(request.user).select_related("owner"), pk=league_id)


def _download(request: HttpRequest, league_id: int, chosen: str) -> HttpResponse | FileResponse:
    league = _visible_league(request, league_id)
    try:
        export = export_file(league, chosen)
    except ExportFailed:
        messages.error(
            request,
            "The download failed part way, so nothing was saved on your device. "
            "Try again in a moment.",
        )
        return _to_league(league)
    return FileResponse(
        export,
        as_attachment=True,
        filename=export_filename(league, chosen),
        content_type=CONTENT_TYPES[chosen],
    )


@require_GET
@login_required
def league_export_json_file(request: HttpRequest, league_id: int) -> HttpResponse | FileResponse:
    return _download(request, league_id, "json")


@require_GET
@login_required
def league_export_csv_file(request: HttpRequest, league_id: int) -> HttpResponse | FileResponse:
    return _download(request, league_id, "csv")


class LeagueImportForm(forms.Form):
    file = forms.FileField(
        label="League backup (.json)",
        help_text="A file downloaded with “Download backup (JSON)” from a league page, "
        "here or on another scorekeeper install.",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                f"This file is {upload.size / 1_048_576:.1f} MB; the import page takes up to "
                f"{MAX_IMPORT_BYTES // 1_048_576} MB (the server's administrator can import "
                "bigger ones with manage.py import_league)."
            )
        try:
            return load_backup(upload.read(MAX_IMPORT_BYTES + 1))
        except RuleError as exc:
            raise forms.ValidationError(exc.message) from None


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
            result = league_import(
                form.cleaned_data["file"],
                owner=request.user,  # type: ignore[arg-type]
                trusted=bool(getattr(request.user, "is_superuser", False)),
            )
        except RuleError as exc:
            form.add_error("file", f"This backup cannot be imported: {exc.message}")
        else:
            league = result.league
            messages.success(
                request,
                f"Imported “{league.name}”: {result.games} game"
                f"{'s' if result.games != 1 else ''}, {result.hands} hand"
                f"{'s' if result.hands != 1 else ''}.",
            )
            return _to_league(league)
    return render(request, "backup/league_import.html", {"form": form})


def _to_league(league: League) -> HttpResponseRedirect:
    return redirect("league_detail", league_id=league.pk)


urlpatterns = [
    path("leagues/<int:league_id>/export.json", league_export_json_file, name="league_export_json"),
    path("leagues/<int:league_id>/export.csv", league_export_csv_file, name="league_export_csv"),
    path("leagues/import/", league_import_page, name="league_import"),
]
