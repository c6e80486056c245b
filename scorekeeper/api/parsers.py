"""The API's JSON parser: bad JSON of any kind is a 400 naming the problem, too much of
it a 413, and never a 500 (``DEFAULT_PARSER_CLASSES``, so every view uses it, the token
view included).

It refuses, before any view sees the body:

* bodies over the view's ``max_body_bytes`` (1 MB; the league import sets 20 MB): a JSON
  ``413 {"detail": …}``. The body is read straight from the request stream (this class
  is not a subclass of DRF's ``JSONParser``, which DRF feeds through ``request.body``
  and so through Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` and its HTML 400), up to one
  byte past the limit. Form posts still go through Django's limit;
  ``api.errors.exception_handler`` answers that with the same JSON 413.
* nesting deeper than ``max_json_depth`` (32; no request needs more than 8): Python's
  JSON reader would recurse until ``RecursionError``.
* NUL characters (PostgreSQL cannot store them in text) and lone surrogates (not
  encodable as UTF-8), in keys and values.
* whole numbers beyond 64 bits and non-finite numbers (``1e999``, ``NaN``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import IO, Any, NoReturn

from django.conf import settings
from django.utils.translation import gettext_lazy
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError, ValidationError
from rest_framework.parsers import BaseParser
from rest_framework.renderers import JSONRenderer

MB = 1024 * 1024
#: The largest JSON body a view takes unless it says otherwise (``max_body_bytes``).
MAX_JSON_BYTES = 1 * MB
#: The deepest nesting of objects and lists a view takes (``max_json_depth``).
MAX_JSON_DEPTH = 32
MIN_INT, MAX_INT = -(2**63), 2**63 - 1


class RequestTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("The request body is too large.")
    default_code = "too_large"


def too_large_message(limit: int | None) -> str:
    if limit is None:
        return "The request body is too large."
    return (
        f"The request body is larger than {limit / MB:g} MB, the most this endpoint takes "
        "(JSON bodies up to 1 MB; league imports up to 20 MB)."
    )


def _view_setting(parser_context: Mapping[str, Any], name: str, default: int) -> int:
    value = getattr(parser_context.get("view"), name, None)
    return value if isinstance(value, int) else default


def _content_length(parser_context: Mapping[str, Any]) -> int:
    request = parser_context.get("request")
    meta = getattr(request, "META", {})
    try:
        return int(meta.get("CONTENT_LENGTH") or 0)
    except (TypeError, ValueError):
        return 0


def _read_at_most(stream: IO[Any] | None, size: int) -> bytes:
    """Up to ``size`` bytes of the body (a read may return less than asked before the end)."""
    if stream is None:
        return b""
    chunks: list[bytes] = []
    got = 0
    while got < size:
        chunk = stream.read(min(size - got, 64 * 1024))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


#: Where a value sits inside a field of the body: (the parent's place, key or index),
#: spelled out only when something there is refused.
Place = tuple["Place", str | int] | None


#: In JSON text, NUL and surrogates can only be ``\u`` escapes (raw, they are invalid
#: JSON or invalid UTF-8); numbers beyond 64 bits or float range need many digits.
_SUSPECT_TEXT = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")
_SUSPECT_NUMBER = re.compile(r"\d{19}|[eE][+-]?\d{3}")


def check_json(data: object, *, max_depth: int = MAX_JSON_DEPTH, text: str | None = None) -> None:
    """Walk parsed JSON without recursion. The first thing refused is a 400 in the API's
    error shape: ``{"players": ["item 3: …"]}`` under a field of the body, else
    ``{"detail": "…"}``. Given the JSON ``text``, strings and numbers are only looked at
    when the text holds something suspect (a league import has a million of them)."""
    scalars = text is None or bool(_SUSPECT_TEXT.search(text) or _SUSPECT_NUMBER.search(text))
    # (value, depth, the body's field it is under, its place in that field)
    stack: list[tuple[object, int, str | None, Place]] = [(data, 0, None, None)]
    while stack:
        value, depth, field, place = stack.pop()
        if isinstance(value, dict | list):
            if depth >= max_depth:
                _refuse(field, place, f"nested deeper than {max_depth} levels")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            top = field is None and depth == 0 and isinstance(value, dict)
            for key, item in items:
                if not scalars and not isinstance(item, dict | list):
                    continue
                if isinstance(key, str):
                    _check_string(key, field, place, "in a key: ")
                if top:
                    stack.append((item, 1, str(key), None))
                elif field is None:
                    stack.append((item, depth + 1, None, None))
                else:
                    stack.append((item, depth + 1, field, (place, key)))
        elif isinstance(value, str):
            _check_string(value, field, place)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not MIN_INT <= value <= MAX_INT:
                _refuse(field, place, "whole numbers must fit in 64 bits")
        elif isinstance(value, float) and not math.isfinite(value):
            _refuse(field, place, "numbers must be finite")


def _spelled(place: Place) -> str:
    """A place as the API's other errors spell it: ``item 1, cards, item 2``."""
    parts: list[str] = []
    while place is not None:
        place, key = place
        parts.append(f"item {key + 1}" if isinstance(key, int) else key)
    return ", ".join(reversed(parts))


def _check_string(text: str, field: str | None, place: Place, what: str = "") -> None:
    if "\x00" in text:
        _refuse(field, place, f"{what}NUL characters are not allowed")
    if not text.isascii() and not _encodable(text):
        _refuse(field, place, f"{what}lone surrogate characters are not valid Unicode")


def _encodable(text: str) -> bool:
    """False when ``text`` holds a lone surrogate (the only str UTF-8 cannot encode)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _refuse(field: str | None, place: Place, message: str) -> NoReturn:
    where = _safe(_spelled(place))
    text = f"{where}: {message}." if where else f"{message[:1].upper()}{message[1:]}."
    if field is None:
        raise ParseError(f"JSON refused - {text}")
    raise ValidationError({_safe(field[:60]): [text]})


def _safe(text: str) -> str:
    """Text from the body that can go back in an error: no NUL, no lone surrogate."""
    return text.replace("\x00", "?").encode("utf-8", "replace").decode("utf-8")


class JSONParser(BaseParser):
    """JSON with limits (see the module's docstring)."""

    media_type = "application/json"
    renderer_class = JSONRenderer

    def parse(
        self,
        stream: IO[Any] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        context = parser_context or {}
        limit = _view_setting(context, "max_body_bytes", MAX_JSON_BYTES)
        if _content_length(context) > limit:
            raise RequestTooLarge(too_large_message(limit))
        raw = _read_at_most(stream, limit + 1)
        if len(raw) > limit:
            raise RequestTooLarge(too_large_message(limit))
        encoding = context.get("encoding") or settings.DEFAULT_CHARSET
        try:
            text = raw.decode(encoding)
        except (LookupError, UnicodeDecodeError):
            raise ParseError(f"JSON parse error - the body is not valid {encoding}.") from None
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply.") from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {str(exc)[:200]}") from None
        depth = _view_setting(context, "max_json_depth", MAX_JSON_DEPTH)
        check_json(data, max_depth=depth, text=text)
        return data
