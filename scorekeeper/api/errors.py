"""Every error the API gives is DRF-style JSON with a 4xx status, never a 500 for bad input."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games import RuleError
from scorekeeper.errors import ConflictError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleError):
        return Response(exc.as_dict(), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ConflictError):
        return Response({"detail": exc.message}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, ObjectDoesNotExist):
        return Response({"detail": str(exc) or "Not found."}, status=status.HTTP_404_NOT_FOUND)
    return drf_exception_handler(exc, context)
