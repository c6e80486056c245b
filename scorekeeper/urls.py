"""The site's URLs: the pages (``web.urls``), the API under ``API_ROOT``, the admin and
the web app manifest."""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from scorekeeper.api import API_ROOT
from scorekeeper.security import rate_limit, redirected
from scorekeeper.web.language import language_set

urlpatterns = [
    # The admin's failed sign-ins count towards the same per-address limit as the page's.
    path("admin/login/", rate_limit("sign-in", succeeded=redirected)(admin.site.login)),
    path("admin/", admin.site.urls),
    # The language switch in every page's footer posts here (Django's set_language).
    path("i18n/setlang/", language_set, name="set_language"),
    path(f"{API_ROOT}v1/", include("scorekeeper.api.urls")),
    # The web app manifest: a template, for its addresses come from the URL configuration.
    path(
        "manifest.webmanifest",
        TemplateView.as_view(
            template_name="manifest.webmanifest", content_type="application/manifest+json"
        ),
        name="web_manifest",
    ),
    path("", include("scorekeeper.web.urls")),
]

handler400 = "scorekeeper.api.errors.bad_request"
handler403 = "scorekeeper.api.errors.permission_denied"
handler404 = "scorekeeper.api.errors.page_not_found"
handler500 = "scorekeeper.api.errors.server_error"
