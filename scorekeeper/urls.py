from django.contrib import admin
from django.urls import include, path

from scorekeeper.security import rate_limit

#: The REST API's root: every answer below it is JSON, errors included
#: (scorekeeper.security.is_api_request).
API_ROOT = "api/"

urlpatterns = [
    # The admin's sign-in counts towards the same per-address limit as the sign-in page.
    path("admin/login/", rate_limit("sign-in")(admin.site.login)),
    path("admin/", admin.site.urls),
    path(f"{API_ROOT}v1/", include("scorekeeper.api.urls")),
    path("", include("scorekeeper.web.urls")),
]

handler404 = "scorekeeper.api.errors.page_not_found"
