from django.http import HttpRequest, HttpResponse
from django.urls import path


def rules_index(request: HttpRequest) -> HttpResponse:
    return HttpResponse("rules")


urlpatterns = [path("rules/", rules_index, name="rules_index")]
