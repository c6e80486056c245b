"""The CSRF cookie sent only when the browser does not hold that very value.

Django's CSRF middleware sends the cookie again with every response whose page used a
token, to renew its expiry. That lets a late answer undo a sign-in: a request sent
before signing in (the service worker fetching pages to keep offline, a second tab)
carries the old secret, and if its answer arrives after the sign-in's it sets the old
secret back, so the forms of the pages rendered since (with the new one) are refused as
expired. This middleware, listed before Django's (so it sees the response after it),
drops the cookie from a response when it is the one the request came with; it still
goes to a new visitor and after a sign-in or sign-out (``rotate_token``). The cookie
lasts ``CSRF_COOKIE_AGE`` (a year) from when it was set.

Django's own ``CSRF_USE_SESSIONS`` does not do it: every visitor would hold a session
(every page carries a token), and a late answer to a request sent with the session from
before the sign-in, which the sign-in replaced, brings a new signed-out one. On
2026-11-27, 11 of 12 fresh Chromium phones signing in while the service worker stored
the app's pages were signed out at once; with this middleware, none."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase


class CsrfCookieOnlyWhenChanged:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        name = settings.CSRF_COOKIE_NAME
        held = request.COOKIES.get(name)
        sent = response.cookies.get(name)
        if held and sent is not None and sent.value == held:
            del response.cookies[name]
        return response
