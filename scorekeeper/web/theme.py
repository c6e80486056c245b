"""Light, dark or the system's choice: the theme lives in a cookie and the server renders
it as ``<html data-theme="auto|light|dark">``, so a page is painted in its theme from the
first frame with no script (the Content Security Policy forbids inline ones).

The switch in the top bar is a small form: without JavaScript it POSTs here, the cookie
is set and the browser comes back to the page it was on; with JavaScript
(static/js/theme.js) the page changes at once and the script sets the same cookie."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

COOKIE = "theme"
THEMES = ("auto", "light", "dark")
DEFAULT = "auto"
#: What each choice is called on the switch.
LABELS = {"auto": "Auto", "light": "Light", "dark": "Dark"}
#: A year: a preference, not a session.
MAX_AGE = 365 * 24 * 3600


def theme_of(request: HttpRequest) -> str:
    value = request.COOKIES.get(COOKIE, DEFAULT)
    return value if value in THEMES else DEFAULT


def next_theme(theme: str) -> str:
    """The switch cycles auto → light → dark → auto."""
    return THEMES[(THEMES.index(theme) + 1) % len(THEMES)]


def theme_context(request: HttpRequest) -> dict[str, object]:
    """For base.html: the theme to render and what the switch offers next."""
    theme = theme_of(request)
    following = next_theme(theme)
    return {
        "theme": theme,
        "theme_label": LABELS[theme],
        "theme_next": following,
        "theme_next_label": LABELS[following],
    }


@require_POST
def theme_set(request: HttpRequest) -> HttpResponse:
    """Set the theme (``theme`` = auto, light or dark; anything else cycles from the
    current one) and go back to ``next`` when it is a page of this site."""
    chosen = request.POST.get("theme", "")
    if chosen not in THEMES:
        chosen = next_theme(theme_of(request))
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("home")
    response = HttpResponseRedirect(target)
    response.set_cookie(
        COOKIE,
        chosen,
        max_age=MAX_AGE,
        path=reverse("home"),  # the app's root, under a prefix too
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
        # Read by theme.js too, so that a page kept for offline use shows today's choice.
        httponly=False,
    )
    return response


urlpatterns = [path("theme/", theme_set, name="theme_set")]
