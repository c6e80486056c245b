"""The OpenAPI schema of the whole API and its interactive page.

The page is Swagger UI from drf-spectacular-sidecar (served from our own static files,
no CDN). Our Content Security Policy allows no inline script or style, so the page's
set-up script is fetched as a separate file (``SpectacularSwaggerSplitView`` serves it
from ``?script``) and the template keeps its few styles in ``static/css/api-docs.css``.

The errors every operation can answer whatever its view does (401 without a valid
token, 403 for a browser session without a CSRF token, 400 for bad parameters, 404
for a missing object or page, 413 for a body over 1 MB, 415 for a body in
another format) are added to each operation
by :func:`document_common_errors`, a drf-spectacular post-processing hook, so no view
forgets them; a view documents its own errors (409, 422, …) with ``extend_schema``,
and its description of a code wins over the generic one here.
"""

from __future__ import annotations

from typing import Any

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

#: ``{"detail": "message"}``: every error that is not about one field.
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An error that is not about one field of the request.",
    "properties": {"detail": {"type": "string"}},
    "required": ["detail"],
}
#: ``{"field": ["message", ...]}`` (or ``{"detail": "message"}``): bad input.
INVALID_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "What is wrong with the request: each field (or parameter, or header) "
    "with its messages, or `detail` for the request as a whole.",
    "properties": {
        "detail": {"type": "string"},
        "errors": {
            "type": "array",
            "description": "When a hand's entry has several problems: each one, with the "
            "player it concerns (null for the hand as a whole).",
            "items": {
                "type": "object",
                "properties": {
                    "field": {"type": "string"},
                    "player": {"type": "integer", "nullable": True},
                    "message": {"type": "string"},
                },
                "required": ["field", "player", "message"],
            },
        },
    },
    "additionalProperties": {"type": "array", "items": {"type": "string"}},
}
ERROR_REF = {"$ref": "#/components/schemas/Error"}
INVALID_REF = {"$ref": "#/components/schemas/Invalid"}

#: The largest JSON body the API reads (see the "Limits" of the API contract).
MAX_JSON_BODY_MB = 1

UNSAFE_METHODS = {"post", "put", "patch", "delete"}

#: code -> (description, body schema) of the errors any operation may answer.
COMMON_ERRORS: dict[str, tuple[str, dict[str, Any]]] = {
    "400": (
        "Bad input: each field, parameter or header in error with the problem, "
        "`{field: [message]}`.",
        INVALID_REF,
    ),
    "401": ("No credentials, or a wrong or revoked token.", ERROR_REF),
    "403": (
        "Not allowed: signed in through the browser session without a CSRF token, "
        "or not yours to change.",
        ERROR_REF,
    ),
    "404": ("No such object that you can see, or no such page of results.", ERROR_REF),
    "413": (f"The body is larger than {MAX_JSON_BODY_MB} MB.", ERROR_REF),
    "415": (
        "The body is not JSON, a form or multipart form data (see its Content-Type), "
        "or a multipart body cannot be read.",
        ERROR_REF,
    ),
}


def error_response(code: str, description: str | None = None) -> dict[str, Any]:
    text, schema = COMMON_ERRORS.get(code, ("", ERROR_REF))
    return {
        "description": description or text,
        "content": {"application/json": {"schema": schema}},
    }


def _common_error_codes(method: str, operation: dict[str, Any]) -> list[str]:
    """The generic errors this operation can answer, from what the schema says of it."""
    schemes = {name for requirement in operation.get("security", []) for name in requirement}
    parameters = operation.get("parameters", [])
    places = {p["in"] for p in parameters}
    codes = []
    if places - {"path"} or "requestBody" in operation:
        codes.append("400")
    if "tokenAuth" in schemes:
        codes.append("401")
    if method in UNSAFE_METHODS and "cookieAuth" in schemes:
        codes.append("403")
    if "path" in places or any(p["name"] == "page" for p in parameters):
        codes.append("404")
    if "requestBody" in operation:
        codes += ["413", "415"]
    return codes


def document_common_errors(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular post-processing hook: every operation documents the errors it can
    answer, each with its JSON body; a view's own description of a code is kept."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Error", ERROR_SCHEMA)
    schemas.setdefault("Invalid", INVALID_SCHEMA)
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for code in _common_error_codes(method, operation):
                responses.setdefault(code, error_response(code))
            for code, response in responses.items():
                # An error a view documents with a description only gets its body.
                if code.startswith(("4", "5")) and "content" not in response:
                    response.update(error_response(code, response.get("description")))
            operation["responses"] = dict(sorted(responses.items()))
    return result


class SchemaApi(SpectacularAPIView):
    """The OpenAPI 3 schema (YAML by default; JSON with ``?format=json`` or
    ``Accept: application/vnd.oai.openapi+json``)."""


class DocsPage(SpectacularSwaggerSplitView):
    url_name = "api-schema"
    template_name = "api/swagger_ui.html"
    title = "scorekeeper API v1"


urlpatterns = [
    path("schema/", SchemaApi.as_view(), name="api-schema"),
    path("docs/", DocsPage.as_view(), name="api-docs"),
]
