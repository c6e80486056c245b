"""The language a phone speaks: Django's own machinery (``LocaleMiddleware`` reads the
language cookie, else ``Accept-Language``), plus the account's choice.

* The switch in every page's footer posts to :func:`language_set`, Django's
  ``set_language`` (it sets the cookie and comes back to the page); for a signed-in
  account the choice is also kept on the account (:class:`AccountLanguage`).
* Signing in on another device brings the account's language along: :func:`on_sign_in`
  notes it on the request, and :class:`AccountLanguageMiddleware` sets the cookie on the
  sign-in's answer, so the next page is in that language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from scorekeeper.models import AccountLanguage

#: Where :func:`on_sign_in` leaves the account's language for the middleware.
SIGN_IN_LANGUAGE = "account_language"


def known_language(code: str | None) -> str | None:
    """``code`` if it is one of ``LANGUAGES`` (a region such as ``de-at`` falls back to
    its language), else ``None``."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language``; a signed-in account keeps the choice too."""
    response = set_language(request)
    language = known_language(request.POST.get("language"))
    user = request.user
    if language and user.is_authenticated:
        AccountLanguage.objects.update_or_create(user=user, defaults={"language": language})
    return response


@receiver(user_logged_in, dispatch_uid="scorekeeper.account-language")
def on_sign_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is None:
        return
    choice = AccountLanguage.objects.filter(user=user).values_list("language", flat=True)
    language = known_language(choice.first())
    if language:
        setattr(request, SIGN_IN_LANGUAGE, language)
        translation.activate(language)


class AccountLanguageMiddleware:
    """Sets the language cookie on the answer to a sign-in whose account chose a
    language (see :func:`on_sign_in`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        language = getattr(request, SIGN_IN_LANGUAGE, None)
        if language:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite="Lax",
            )
        return response
