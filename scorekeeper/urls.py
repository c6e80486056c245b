from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("scorekeeper.api.urls")),
    path("", include("scorekeeper.web.urls")),
]

handler404 = "scorekeeper.api.errors.page_not_found"
