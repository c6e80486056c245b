"""The start page: the five games with their scoring tables, and (signed in) my games."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET

from games import RULESETS


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    rulesets = [{"meta": r.metadata(), "card_points": r.card_points()} for r in RULESETS.values()]
    return render(request, "home.html", {"rulesets": rulesets})


urlpatterns = [path("", home, name="home")]
