"""The page a refused form gets (``CSRF_FAILURE_VIEW``): the app's own, saying nothing
was saved and what to do, instead of Django's technical one. (The 400, 403, 404 and 500
pages are the templates of those names, served by ``handler400``… in ``api.errors``,
which answer JSON under the API.)"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.shortcuts import render

from scorekeeper.security import is_api_request


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if is_api_request(request):
        return JsonResponse({"detail": f"CSRF check failed: {reason}"}, status=403)
    context = {"no_cookies": reason == REASON_NO_CSRF_COOKIE and not request.COOKIES}
    response = render(request, "403_csrf.html", context, status=403)
    # For the phone's outbox: its kept hand met an expired form token; this page carries
    # a current one (the body's hx-headers), with which it sends the hand again.
    response["X-CSRF-Failure"] = "1"
    return response
