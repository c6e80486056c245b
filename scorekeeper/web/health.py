"""``/healthz`` for monitors and load balancers: JSON, no sign-in, nothing private; 200
when every check of :func:`scorekeeper.selectors.health.health` passes, 503 (naming the
ones that failed) otherwise.

:class:`HealthMiddleware`, first in ``MIDDLEWARE``, answers it before anything else can
get in the way: no https redirect, no ``ALLOWED_HOSTS`` check (a monitor may ask by the
server's address), no session, CSRF or rate limit. The address comes from the URL
configuration, so it holds under a prefix (``SCRIPT_NAME``) too."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.urls import Resolver404, path, resolve

from scorekeeper.selectors.health import health

NAME = "healthz"


def healthz(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    report = health()
    response = JsonResponse(
        {"status": "ok" if report["ok"] else "failing", **report},
        status=200 if report["ok"] else 503,
    )
    response["Cache-Control"] = "no-store"
    return response


class HealthMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.rstrip("/").endswith(NAME):
            try:
                match = resolve(request.path_info)
            except Resolver404:
                match = None
            if match is not None and match.url_name == NAME:
                return healthz(request)
        return self.get_response(request)


urlpatterns = [path(NAME, healthz, name=NAME)]
