"""Who is asking, and telling the over-eager to wait.

Every counter lives in the database, which every app process shares, so running more
workers does not multiply a limit:

* wrong passwords — on the sign-in page, the admin's and ``POST /api/v1/auth/token/`` —
  are counted per username and client address by django-axes (settings ``AXES_*``); a
  lockout answers :func:`lockout_response`;
* requests per client address — sign-in, sign-up, the token endpoint, and any view that
  wants it — are counted in :class:`~scorekeeper.models.RateCounter` rows through
  :func:`rate_limit`. Sign-ins count only when they fail (``succeeded=``): a club on
  one Wi-Fi signs in many times from one address, a password guesser fails.

Throttling another view takes one line::

    from scorekeeper.security import rate_limit

    @rate_limit("join", "30/10m")          # 30 POSTs per client address per 10 minutes
    def join(request: HttpRequest, token: str) -> HttpResponse: ...

    @rate_limit("join", methods=("GET", "POST"))   # the rate from settings.RATE_LIMITS["join"]
    def join(request: HttpRequest, token: str) -> HttpResponse: ...

    @rate_limit("sign-in", succeeded=redirected)   # only attempts that fail stay counted
    def sign_in(request: HttpRequest) -> HttpResponse: ...

For a class-based view wrap ``as_view()``: ``rate_limit("api-token")(TokenApi.as_view())``.
Over the limit the view is not called: the client gets a ``429`` with ``Retry-After`` —
an HTML page, or ``{"detail": …}`` for the API (:func:`too_many_requests`).

The client's address is :func:`client_ip`: ``REMOTE_ADDR``, unless
``settings.TRUSTED_PROXY_COUNT`` proxies in front append to ``X-Forwarded-For`` (then the
address the first of them saw). An IPv6 client counts as its /64 network: one machine
usually has a whole /64 to pick addresses from.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from functools import wraps
from typing import Any, TypeVar, cast

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext, ngettext

from scorekeeper.api import API_ROOT
from scorekeeper.models import RateCounter

View = TypeVar("View", bound=Callable[..., HttpResponseBase])

IPV6_PREFIX = 64


def client_ip(request: HttpRequest) -> str:
    """The client's address as far as this install can trust it ("" if unknown).

    With ``TRUSTED_PROXY_COUNT = N`` each of the N proxies appends the address it was
    reached from to ``X-Forwarded-For``, so the client is the N-th entry from the end;
    anything before it was written by the client and is ignored. A missing or
    malformed entry falls back to ``REMOTE_ADDR``.
    """
    remote = str(request.META.get("REMOTE_ADDR") or "")
    proxies = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0))
    if proxies <= 0:
        return remote
    forwarded = [
        part.strip()
        for part in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")
        if part.strip()
    ]
    if len(forwarded) < proxies:
        return remote
    candidate = forwarded[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def client_network(request: HttpRequest) -> str | None:
    """:func:`client_ip` as counters use it: an IPv6 address as its /64 network."""
    try:
        address = ipaddress.ip_address(client_ip(request))
    except ValueError:
        return None
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/{IPV6_PREFIX}", strict=False).network_address)
    return str(address)


#: The longest username django-axes stores (its columns are 255 characters).
AXES_USERNAME_MAX = 255


def axes_username(request: HttpRequest, credentials: Any = None) -> str | None:
    """``AXES_USERNAME_CALLABLE``: the username a sign-in tried, cut to what django-axes
    can store. Django's sign-in form hands ``authenticate()`` a username of any length
    (its max_length is set after the field is built, so nothing checks it), and a
    20,000-character one must count as a failure, not fail the database insert."""
    if credentials:
        username = credentials.get("username")
    else:
        data = getattr(request, "data", None) or request.POST
        username = data.get("username")
    if username is None:
        return None
    return str(username)[:AXES_USERNAME_MAX]


def axes_client_ip(request: HttpRequest) -> str | None:
    """``AXES_CLIENT_IP_CALLABLE``: django-axes counts wrong passwords per this address."""
    return client_network(request)


class AxesSignInBackend(AxesStandaloneBackend):
    """django-axes' lockout check (first in ``AUTHENTICATION_BACKENDS``) for sign-ins
    that come from a client: every page and API sign-in passes its request. Without a
    request (a management command, the test client's ``login()``) there is no client
    to count, so this backend stands aside instead of failing."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


def is_api_request(request: HttpRequest) -> bool:
    """Whether the request is for the REST API, whose errors answer JSON. ``path_info``
    is the path below the app's root, so this holds under a prefix (``SCRIPT_NAME``)."""
    return request.path_info.lstrip("/").startswith(API_ROOT)


def too_many_requests(request: HttpRequest, retry_after: int, message: str = "") -> HttpResponse:
    """A ``429`` telling the client to wait ``retry_after`` seconds: JSON
    ``{"detail": …}`` for the API, an HTML page otherwise."""
    retry_after = max(int(retry_after), 1)
    minutes = math.ceil(retry_after / 60)
    wait = ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}
    message = message or gettext("Too many attempts. Try again in %(wait)s.") % {"wait": wait}
    response: HttpResponse
    if is_api_request(request):
        response = JsonResponse({"detail": message}, status=429)
    else:
        response = render(request, "429.html", {"message": message, "wait": wait}, status=429)
    response["Retry-After"] = str(retry_after)
    return response


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the answer to a sign-in while its username and address
    are locked out. Each attempt during the lockout starts the cool-off again."""
    cool_off = settings.AXES_COOLOFF_TIME
    minutes = math.ceil(cool_off.total_seconds() / 60)
    return too_many_requests(
        request,
        int(cool_off.total_seconds()),
        ngettext(
            "Too many wrong passwords for this account from here. Try again in %(count)s minute.",
            "Too many wrong passwords for this account from here. Try again in %(count)s minutes.",
            minutes,
        )
        % {"count": minutes},
    )


#: Seconds in each unit a rate may be given in: "30/15m" is 30 requests per 15 minutes.
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 24 * 3600}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"30/15m"`` as (30 requests, 900 seconds), ``"10/h"`` as (10, 3600)."""
    limit, _, period = rate.partition("/")
    return int(limit), int(period[:-1] or 1) * PERIODS[period[-1]]


def _window(key: str, period: int, now: float) -> tuple[str, int]:
    """The counter row of ``key`` for the window of ``period`` seconds that holds
    ``now``, and when that window ends (a Unix time)."""
    ends = (int(now) // period + 1) * period
    return f"{key}:{ends}", ends


def count_request(key: str, period: int, now: float | None = None) -> tuple[int, int]:
    """Count one request against ``key`` in the current window of ``period`` seconds:
    the requests counted in that window so far, this one included, and the seconds
    until it ends. Every process adds to the same row with ``count = count + 1``, which
    the database applies one after another, so none is lost; the first request of a
    window makes its row and deletes the rows of windows that ended."""
    now = time.time() if now is None else now
    window, ends = _window(key, period, now)
    left = math.ceil(ends - now)
    counter = RateCounter.objects.filter(key=window)
    if not counter.update(count=F("count") + 1):
        try:
            with transaction.atomic():
                expires = datetime.fromtimestamp(ends, UTC)
                RateCounter.objects.create(key=window, count=1, expires=expires)
        except IntegrityError:  # another process started the window a moment ago
            counter.update(count=F("count") + 1)
        else:
            RateCounter.objects.filter(expires__lte=datetime.fromtimestamp(now, UTC)).delete()
            return 1, left
    # (None: the row went with the windows that ended, by the clock of another host.)
    return counter.values_list("count", flat=True).first() or 1, left


def uncount_request(key: str, period: int, now: float) -> None:
    """Take back one request that :func:`count_request` counted at ``now`` — from the
    window it was counted in, even if a new one has started since (``count - 1`` in
    the database, as the counting is)."""
    window, _ = _window(key, period, now)
    RateCounter.objects.filter(key=window, count__gt=0).update(count=F("count") - 1)


def redirected(response: HttpResponseBase) -> bool:
    """``succeeded=`` for a sign-in page: a form that worked sends the browser on; one
    that failed is shown again (or a ``429``)."""
    return response.status_code in (301, 302, 303)


def answered_ok(response: HttpResponseBase) -> bool:
    """``succeeded=`` for an API sign-in: a ``2xx`` answer."""
    return 200 <= response.status_code < 300


def rate_limit(
    group: str,
    rate: str | None = None,
    *,
    methods: Iterable[str] = ("POST",),
    succeeded: Callable[[HttpResponseBase], bool] | None = None,
) -> Callable[[View], View]:
    """Limit a view to ``rate`` requests (``"30/10m"``, ``"10/h"``) per client address;
    only requests whose method is in ``methods`` count. Without ``rate`` the rate is
    ``settings.RATE_LIMITS[group]``, read at each request (tests may change it).

    With ``succeeded``, a request whose answer it calls a success is taken back off the
    count, so only failures add up to the limit (sign-ins: 60 members signing in from
    one Wi-Fi are not refused; 31 wrong guesses are). Every request is counted before
    the view runs, so attempts sent at once cannot slip past the limit together."""
    counted = {method.upper() for method in methods}

    def decorate(view: View) -> View:
        @wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method not in counted:
                return view(request, *args, **kwargs)
            limit, period = parse_rate(rate or settings.RATE_LIMITS[group])
            key = f"{group}:{client_network(request) or 'unknown'}"
            now = time.time()
            count, left = count_request(key, period, now)
            if count > limit:
                return too_many_requests(request, left)
            response = view(request, *args, **kwargs)
            if succeeded is not None and succeeded(response):
                uncount_request(key, period, now)
            return response

        return cast(View, limited)

    return decorate
