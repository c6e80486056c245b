"""Every error the API gives is DRF-style JSON with a 4xx status, never a 500 for bad input."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games import RuleError
from scorekeeper.api.parsers import too_large_message
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
        return Response(exc.as_dict(), status=status.HTTP_400_BAD_REQUEST)
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
