"""Every error the API gives is DRF-style JSON with a 4xx status, never a 500 for bad input;
and the site's error handlers (``handler400``, ``403``, ``404``, ``500``), which answer JSON
under ``/api/`` too, and ``503`` with ``Retry-After`` while the database is away."""

from __future__ import annotations

import sys
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig, TooManyFieldsSent
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games import RuleError
from scorekeeper.api.parsers import too_large_message
from scorekeeper.engine_text import speak
from scorekeeper.errors import ConflictError, IdempotencyKeyReused
from scorekeeper.security import is_api_request


def _messages(detail: Any, where: str = "") -> list[str]:
    """The messages of a nested validation error, each saying where it belongs
    ("item 2: A valid integer is required.")."""
    if isinstance(detail, dict):
        return [m for key, value in detail.items() for m in _messages(value, _join(where, key))]
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return [f"{where}: {item}" if where else str(item) for item in detail]
        return [
            m for index, item in enumerate(detail) for m in _messages(item, _join(where, index))
        ]
    return [f"{where}: {detail}" if where else str(detail)]


def _join(where: str, key: object) -> str:
    part = f"item {key + 1}" if isinstance(key, int) else str(key)
    return f"{where}, {part}" if where else part


def flatten_validation_errors(detail: Any) -> Any:
    """Keep the contract's ``{"field": ["message"]}`` shape when DRF nests errors of list
    items or nested objects (``{"teams": {0: {1: [...]}}}``)."""
    if not isinstance(detail, dict):
        return detail
    return {field: _messages(value) for field, value in detail.items()}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleError):
        # The message in the request's language (English when none is asked for).
        return Response(exc.as_dict(speak), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ConflictError):
        return Response({"detail": exc.message}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, IdempotencyKeyReused):
        return Response({"detail": exc.message}, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
    if isinstance(exc, RequestDataTooBig):
        # A form post over DATA_UPLOAD_MAX_MEMORY_SIZE: Django's own answer is an HTML 400.
        return Response(
            {"detail": too_large_message(None)}, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
        )
    if isinstance(exc, TooManyFieldsSent):
        return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ObjectDoesNotExist):
        return Response({"detail": str(exc) or "Not found."}, status=status.HTTP_404_NOT_FOUND)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, ValidationError):
        response.data = flatten_validation_errors(response.data)
    return response


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's 404 (``handler404``): JSON for the API (an address no API route
    matches, such as ``/api/v1/games/abc/``), the HTML page everywhere else."""
    if is_api_request(request):
        return JsonResponse({"detail": "There is no such address in the API."}, status=404)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400`` (a host not allowed, a malformed request Django refused)."""
    if is_api_request(request):
        return JsonResponse({"detail": "Bad request."}, status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler403`` (a view's PermissionDenied outside the API's own handling)."""
    if is_api_request(request):
        return JsonResponse({"detail": "You may not do this."}, status=403)
    return defaults.permission_denied(request, exception)


#: How long a client waits before trying again while the database is away (a restart).
RETRY_AFTER = 10
UNAVAILABLE = "The scores are out of reach for a moment. Try again in a few seconds."


def wants_json(request: HttpRequest) -> bool:
    """Whether the client prefers JSON to a page (``Accept: application/json``; a
    browser's ``text/html, …, */*`` and a bare ``*/*`` get the page)."""
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``, called while the exception is being handled: a database that
    cannot be reached (restarting, a dropped connection) answers ``503`` with
    ``Retry-After`` — JSON under ``/api/`` and to a client that asks for JSON (the
    table tools' state), one line of text to htmx (a phone's live answer, which it
    asks for again and again and swaps nothing of on an error), the app's page
    (rendered without the session, which lives in that database) elsewhere; any other
    error a ``500``, JSON under ``/api/`` too."""
    response: HttpResponse
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        if is_api_request(request) or wants_json(request):
            response = JsonResponse({"detail": UNAVAILABLE}, status=503)
        elif request.headers.get("HX-Request") == "true":
            response = HttpResponse(f"{UNAVAILABLE}\n", status=503, content_type="text/plain")
        else:
            context = {"user": AnonymousUser(), "messages": (), "message": UNAVAILABLE}
            response = render(request, "503.html", context, status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    if is_api_request(request):
        return JsonResponse({"detail": "Something went wrong on the server."}, status=500)
    try:  # the app's page, signed out: whatever failed may be the session's own reads
        return render(request, "500.html", {"user": AnonymousUser(), "messages": ()}, status=500)
    except Exception:  # the page itself failed: Django's plain one
        return defaults.server_error(request, template_name="none.html")
