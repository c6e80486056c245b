"""The rules reference pages, their search, and what makes them work offline.

* ``/rules/`` — the five games and a search box;
* ``/rules/<slug>/`` — a game's rules: contents, every section, the quick reference card;
* ``/rules/<slug>/panel/`` — the same rules as a fragment for the score sheet's overlay;
* ``/rules/search/?q=&ruleset=`` — results as a page, or just the results for htmx;
* ``/rules/index.json`` — the paragraphs the browser searches when offline;
* ``/offline/`` — what the service worker shows for a page it does not have;
* ``/sw.js`` — the service worker, at the app's root so that it controls the whole app.

The text comes from :mod:`games.rules`, the search from :mod:`scorekeeper.rules_index`;
nothing here knows a rule.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import engines
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import path, reverse
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import etag, require_GET

from games import RULESETS, rules
from scorekeeper import engine_text
from scorekeeper import rules_index as searching

#: The score sheet's scripts: ES modules, and the modules they import, which no tag of
#: the page names (a sheet kept on the phone, offline-keep.js, brings its tags' files
#: only). A module that cannot load stops every module importing it: all are kept.
SHEET_MODULES = (
    "js/backoff.js",
    "js/confirm.js",
    "js/grid-cue.js",
    "js/kept-draft.js",
    "js/live.js",
    "js/night-follow.js",
    "js/offline-ahead.js",
    "js/offline-drafts.js",
    "js/offline-keep.js",
    "js/offline-queue.js",
    "js/offline-sheet.js",
    "js/pad-keys.js",
    "js/points-entry.js",
    "js/result-share.js",
    "js/savebar-undo.js",
    "js/sheet-layout.js",
    "js/sheet.js",
    "js/table-tools.js",
    "js/tools-fold.js",
    "js/wakelock.js",
)

#: Static files every page needs; the service worker keeps them for offline use.
SHELL_STATIC = (
    "css/app.css",
    "css/rules.css",
    "js/pwa.js",
    "js/who.js",
    "js/rules-offline.js",
    "js/rules-overlay.js",
    *SHEET_MODULES,
    "vendor/minisearch/index.js",
    # the scripts' words, every language's (a page switched offline still has them)
    *(f"jsi18n/{code}/djangojs.js" for code, _name in settings.LANGUAGES),
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/icon-maskable-512.png",
    "icons/apple-touch-icon.png",
    "icons/icon.svg",
)


def _game(slug: str) -> rules.Rules:
    if slug not in RULESETS:
        raise Http404(f"No game '{slug}'.")
    return engine_text.rules_for(slug)


def _games() -> list[dict[str, Any]]:
    return [
        {
            "slug": r.slug,
            "name": engine_text.rules_for(r.slug).name,
            "meta": r.metadata(),
            "url": reverse("rules_detail", args=[r.slug]),
        }
        for r in RULESETS.values()
    ]


@require_GET
def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", {"games": _games()})


@require_GET
def rules_detail(request: HttpRequest, slug: str) -> HttpResponse:
    game = _game(slug)
    return render(
        request,
        "rules/detail.html",
        {"game": game, "meta": RULESETS[slug].metadata(), "games": _games()},
    )


@require_GET
def rules_panel(request: HttpRequest, slug: str) -> HttpResponse:
    """The rules as a fragment (no page around it) for the overlay on the score sheet."""
    game = _game(slug)
    response = render(request, "rules/_panel.html", {"game": game, "prefix": "rp-"})
    patch_cache_control(response, no_cache=True)
    return response


class SearchForm(forms.Form):
    q = forms.CharField(max_length=200, required=False)
    ruleset = forms.ChoiceField(choices=[(slug, slug) for slug in RULESETS], required=False)
    panel = forms.BooleanField(required=False)  # the search box of the sheet's overlay


@require_GET
def rules_search(request: HttpRequest) -> HttpResponse:
    form = SearchForm(request.GET)
    form.is_valid()  # a field that is not leaves nothing: an unknown game searches them all
    q, ruleset = form.cleaned_data.get("q", ""), form.cleaned_data.get("ruleset", "")
    hits = searching.search(q, ruleset) if q else []
    context = {
        "q": q,
        "ruleset": ruleset,
        "ruleset_name": engine_text.rules_for(ruleset).name if ruleset else "",
        "panel": form.cleaned_data.get("panel", False),
        "hits": hits,
        "suggestions": searching.suggest(q, ruleset) if q and not hits else [],
        "games": _games(),
    }
    htmx = getattr(request, "htmx", None)
    partial = "#results" if htmx and not htmx.history_restore_request else ""
    response = render(request, f"rules/search.html{partial}", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
@etag(lambda request: searching.version())
def rules_index_json(request: HttpRequest) -> HttpResponse:
    response = JsonResponse(searching.index_json(), json_dumps_params={"ensure_ascii": False})
    patch_cache_control(response, no_cache=True)
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/offline.html", {"games": _games()})


def _htmx_static_urls() -> list[str]:
    """The htmx scripts base.html loads (whatever django-htmx version is installed)."""
    template = engines["django"].from_string(
        "{% load django_htmx %}{% htmx_script %}{% django_htmx_script %}"
    )
    return re.findall(r'src="([^"]+)"', template.render({}))


def precache_urls() -> list[str]:
    """What the service worker stores on install: the app shell and every rules page."""
    pages = [reverse("rules_index"), reverse("rules_search"), reverse("offline")]
    for slug in RULESETS:
        pages.append(reverse("rules_detail", args=[slug]))
        pages.append(reverse("rules_panel", args=[slug]))
    pages.append(reverse("rules_index_json"))
    assets = [static(name) for name in SHELL_STATIC] + _htmx_static_urls()
    return pages + list(dict.fromkeys(assets))


def _static_fingerprint() -> str:
    """A hash of the shell's static files, so that a changed file makes a new service
    worker even where static URLs carry no content hash (DEBUG, tests)."""
    digest = hashlib.sha256()
    for name in SHELL_STATIC:
        found = finders.find(name)
        if isinstance(found, str):
            digest.update(Path(found).read_bytes())
    return digest.hexdigest()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, in the language of the page that registered it (``?lang=``,
    the page's own: a phone switching language installs the worker of the new one)."""
    asked = request.GET.get("lang", "")
    if asked not in {code for code, _name in settings.LANGUAGES}:
        asked = engine_text.language()
    with translation.override(asked):
        return _service_worker()


def _service_worker() -> HttpResponse:
    urls = precache_urls()
    template = get_template("rules/sw.js")
    source = getattr(getattr(template, "template", None), "source", "")
    # The pages it keeps are in this phone's language: another language, another worker
    # (the browser installs it, and it keeps the pages again, in the new language).
    language = engine_text.language()
    version = hashlib.sha256(
        json.dumps([searching.version(), urls, source, _static_fingerprint(), language]).encode()
    ).hexdigest()[:16]
    body = template.render(
        {
            "version": version,
            "precache_json": json.dumps(urls),
            "search_script_json": json.dumps(static("js/rules-offline.js")),
            "catalog_script_json": json.dumps(static(f"jsi18n/{language}/djangojs.js")),
            "minisearch_script_json": json.dumps(static("vendor/minisearch/index.js")),
            "offline_url_json": json.dumps(reverse("offline")),
            "search_url_json": json.dumps(reverse("rules_search")),
            "index_url_json": json.dumps(reverse("rules_index_json")),
            "rules_prefix_json": json.dumps(reverse("rules_index")),
            # STATIC_URL itself: static("") would ask the manifest for a file named "".
            "static_prefix_json": json.dumps(settings.STATIC_URL),
            "logout_url_json": json.dumps(reverse("logout")),
        }
    )
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    patch_cache_control(response, no_cache=True, max_age=0)
    patch_vary_headers(response, ["Cookie"])
    return response


urlpatterns = [
    path("rules/", rules_index, name="rules_index"),
    path("rules/search/", rules_search, name="rules_search"),
    path("rules/index.json", rules_index_json, name="rules_index_json"),
    path("rules/<slug:slug>/", rules_detail, name="rules_detail"),
    path("rules/<slug:slug>/panel/", rules_panel, name="rules_panel"),
    path("offline/", offline, name="offline"),
    path("sw.js", service_worker, name="service_worker"),
]
