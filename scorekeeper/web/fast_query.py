"""``request.GET.get(name)`` without building the ``QueryDict``, for the live poll.

A watching phone asks "anything new since version v?" every two seconds, and building
``request.GET`` (parsing, decoding, the field-count check) is a fair share of what that
answer costs. :func:`query_value` reads a plain query string (ASCII, no ``%`` escapes
or ``+``, well under Django's field limit) itself, the way ``QueryDict`` does: parts
split on ``&``, empty ones skipped, a part without ``=`` an empty value, the last of a
repeated name winning. Anything else goes to ``request.GET``.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def query_value(request: HttpRequest, name: str) -> str | None:
    """``request.GET.get(name)``."""
    query = request.META.get("QUERY_STRING", "")
    limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    if (
        not isinstance(query, str)
        or "GET" in request.__dict__
        or not query.isascii()
        or "%" in query
        or "+" in query
        or (limit is not None and query.count("&") >= limit - 1)
    ):
        return request.GET.get(name)
    found = None
    for part in query.split("&"):
        if part:
            key, _, value = part.partition("=")
            if key == name:
                found = value
    return found
