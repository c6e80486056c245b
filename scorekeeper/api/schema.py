"""The OpenAPI schema of the whole API and its interactive page.

The page is Swagger UI from drf-spectacular-sidecar (served from our own static files,
no CDN). Our Content Security Policy allows no inline script or style, so the page's
set-up script is fetched as a separate file (``SpectacularSwaggerSplitView`` serves it
from ``?script``) and the template keeps its few styles in ``static/css/api-docs.css``.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView


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
