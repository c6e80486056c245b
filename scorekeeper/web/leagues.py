from django.http import HttpRequest, HttpResponse
from django.urls import path


def league_list(request: HttpRequest) -> HttpResponse:
    return HttpResponse("leagues")


urlpatterns = [path("leagues/", league_list, name="league_list")]
