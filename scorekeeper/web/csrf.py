"""Django's CSRF middleware, sending the CSRF cookie only when the browser does not hold
that very value.

Django sends the cookie again with every response whose page used a token, to renew its
expiry. That lets a late answer undo a sign-in: a request sent before signing in (the
service worker fetching pages to keep offline, a second tab) carries the old secret, and
if its answer arrives after the sign-in's it sets the old secret back, so the forms of
the pages rendered since (with the new one) are refused as expired. Here a response sets
the cookie only when its secret is not the one the request came with: a new visitor, a
sign-in or sign-out (``rotate_token``). The cookie still lasts ``CSRF_COOKIE_AGE`` (a
year) from when it was set."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.csrf import CsrfViewMiddleware as DjangoCsrfViewMiddleware


class CsrfViewMiddleware(DjangoCsrfViewMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        response = super().process_response(request, response)
        # Also when a view's own csrf_protect or ensure_csrf_cookie set it (the sign-in
        # page's), before this middleware saw the response.
        name = settings.CSRF_COOKIE_NAME
        held = request.COOKIES.get(name)
        sent = response.cookies.get(name)
        if held and sent is not None and sent.value == held:
            del response.cookies[name]
        return response
