"""Password guessing and sign-up floods are refused with a 429 and Retry-After, on every
way in (sign-in page, admin, API token, sign-up), counted in the database that every app
process shares, per client address as far as it can be trusted."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory, override_settings
from rest_framework.test import APIClient

from scorekeeper.models import RateCounter
from scorekeeper.security import client_ip, client_network, count_request, parse_rate, rate_limit

TOKEN_URL = "/api/v1/auth/token/"
LOGIN_URL = "/accounts/login/"
PASSWORD = "table-talk-42"
PHRASE = "a-long-pass-phrase"
LIMIT = settings.AXES_FAILURE_LIMIT
COOL_OFF = int(settings.AXES_COOLOFF_TIME.total_seconds())


def token(client: Client, password: str, username: str = "ana", **headers: str) -> HttpResponse:
    return client.post(
        TOKEN_URL,
        {"username": username, "password": password},
        content_type="application/json",
        headers=headers,
    )


def sign_in(client: Client, password: str, username: str = "ana", **headers: str) -> HttpResponse:
    return client.post(LOGIN_URL, {"username": username, "password": password}, headers=headers)


def test_production_limits_are_strict() -> None:
    assert 3 <= LIMIT <= 10
    assert COOL_OFF >= 15 * 60
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.TRUSTED_PROXY_COUNT == 0


@pytest.mark.django_db
def test_token_wrong_passwords_then_locked_out_even_with_the_right_one(user: User) -> None:
    client = APIClient()
    statuses = [token(client, f"guess-{i}").status_code for i in range(LIMIT)]
    assert statuses == [400] * (LIMIT - 1) + [429]

    response = token(client, PASSWORD)
    assert response.status_code == 429
    assert response["Content-Type"] == "application/json"
    assert "Too many wrong passwords" in response.json()["detail"]
    assert int(response["Retry-After"]) == COOL_OFF
    assert "token" not in response.json()

    # Claiming to be someone else changes nothing: no proxy is trusted.
    spoofed = token(client, PASSWORD, **{"X-Forwarded-For": "203.0.113.9"})
    assert spoofed.status_code == 429


@pytest.mark.django_db
def test_lockout_is_per_username_and_address(user: User, other_user: User) -> None:
    for i in range(LIMIT):
        token(APIClient(), f"guess-{i}")
    assert token(APIClient(), PASSWORD).status_code == 429
    # Another account from the same address, or the same account from elsewhere, is fine.
    assert token(APIClient(), PASSWORD, username="bo").status_code == 200
    elsewhere = APIClient(REMOTE_ADDR="198.51.100.7")
    assert token(elsewhere, PASSWORD).status_code == 200


@pytest.mark.django_db
def test_sign_in_page_locks_out_with_a_page_saying_how_long(user: User) -> None:
    client = Client()
    statuses = [sign_in(client, f"guess-{i}").status_code for i in range(LIMIT)]
    assert statuses == [200] * (LIMIT - 1) + [429]

    response = sign_in(client, PASSWORD, **{"X-Forwarded-For": "203.0.113.9"})
    assert response.status_code == 429
    assert response["Retry-After"] == str(COOL_OFF)
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "<h1>Too many attempts</h1>" in html
    assert "Try again in 15 minutes" in html
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_good_sign_in_before_the_limit_starts_the_count_again(user: User) -> None:
    client = Client()
    for i in range(LIMIT - 1):
        sign_in(client, f"guess-{i}")
    assert sign_in(client, PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    assert sign_in(client, "guess-again").status_code == 200
    assert sign_in(client, PASSWORD).status_code == 302


@pytest.mark.django_db
def test_admin_sign_in_is_locked_out_too(db: None) -> None:
    User.objects.create_superuser("root", password=PASSWORD)
    client = Client()
    for i in range(LIMIT):
        response = client.post(
            "/admin/login/", {"username": "root", "password": f"guess-{i}", "next": "/admin/"}
        )
    assert response.status_code == 429
    response = client.post(
        "/admin/login/", {"username": "root", "password": PASSWORD, "next": "/admin/"}
    )
    assert response.status_code == 429
    assert response["Retry-After"] == str(COOL_OFF)
    assert client.get("/admin/").status_code == 302  # still signed out


@pytest.mark.django_db
def test_the_count_is_in_the_database_every_process_shares(user: User) -> None:
    """Separate clients (separate sessions, as separate workers would see them) add up
    to one count, kept as rows in the database rather than in a process's memory."""
    assert settings.AXES_HANDLER == "axes.handlers.database.AxesDatabaseHandler"

    clients = [Client(), APIClient()]
    for i in range(LIMIT - 1):
        if i % 2:
            token(clients[1], f"guess-{i}")
        else:
            sign_in(clients[0], f"guess-{i}")
    attempt = AccessAttempt.objects.get(username="ana")
    assert attempt.failures_since_start == LIMIT - 1
    assert RateCounter.objects.filter(key__startswith="sign-in:127.0.0.1:").exists()
    assert token(APIClient(), "one-more").status_code == 429
    assert sign_in(Client(), PASSWORD).status_code == 429


@pytest.mark.django_db
def test_many_usernames_from_one_address_hit_the_address_limit(db: None) -> None:
    """Trying one password on many accounts is limited per address, whatever the names."""
    allowed = int(settings.RATE_LIMITS["sign-in"].split("/")[0])
    client = Client()
    statuses = [
        sign_in(client, "password1", username=f"user{i}").status_code for i in range(allowed)
    ]
    assert statuses == [200] * allowed
    response = sign_in(client, "pass", username="someone-else")
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 15 * 60
    # A sign-in page to read is still there; only attempts count.
    assert client.get(LOGIN_URL).status_code == 200


@pytest.mark.django_db
def test_the_admin_sign_in_shares_the_address_limit_of_the_sign_in_page(db: None) -> None:
    allowed = int(settings.RATE_LIMITS["sign-in"].split("/")[0])
    client = Client()
    for i in range(allowed - 1):
        sign_in(client, "pass", username=f"user{i}")
    admin = client.post("/admin/login/", {"username": "root", "password": "x", "next": "/admin/"})
    assert admin.status_code == 200  # the form again: wrong password
    assert client.post("/admin/login/", {"username": "root", "password": "x"}).status_code == 429
    assert sign_in(client, "pass", username="someone").status_code == 429


@pytest.mark.django_db
def test_token_requests_are_limited_per_address(db: None) -> None:
    allowed = int(settings.RATE_LIMITS["api-token"].split("/")[0])
    client = APIClient()
    for i in range(allowed):
        assert token(client, "x", username=f"user{i}").status_code == 400
    response = token(client, "x", username="another")
    assert response.status_code == 429
    assert response.json()["detail"].startswith("Too many attempts. Try again in")
    assert int(response["Retry-After"]) > 0


@pytest.mark.django_db
def test_sign_up_is_limited_per_address(db: None) -> None:
    allowed = int(settings.RATE_LIMITS["sign-up"].split("/")[0])
    client = Client()
    for i in range(allowed):
        response = client.post(
            "/accounts/signup/",
            {
                "username": f"new{i}",
                "email": f"new{i}@example.org",
                "password1": "a-long-pass-phrase",
                "password2": "a-long-pass-phrase",
            },
        )
        assert response.status_code == 302, i
        client.post("/accounts/logout/")
    response = client.post(
        "/accounts/signup/",
        {
            "username": "one-too-many",
            "email": "more@example.org",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
    )
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert not User.objects.filter(username="one-too-many").exists()
    assert User.objects.filter(username__startswith="new").count() == allowed


@pytest.mark.django_db
@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_one_proxy_the_address_it_saw_counts(user: User) -> None:
    """The proxy appends the address it was reached from; what the client wrote before
    that is ignored, and clients the proxy tells apart are counted apart."""
    client = Client(REMOTE_ADDR="10.0.0.2")
    for i in range(LIMIT):
        sign_in(client, f"guess-{i}", **{"X-Forwarded-For": f"1.2.3.{i}, 198.51.100.20"})
    assert AccessAttempt.objects.get().ip_address == "198.51.100.20"
    locked = sign_in(client, PASSWORD, **{"X-Forwarded-For": "198.51.100.20"})
    assert locked.status_code == 429
    other = sign_in(client, PASSWORD, **{"X-Forwarded-For": "198.51.100.21"})
    assert other.status_code == 302


def test_client_ip_trusts_only_the_configured_proxies() -> None:
    factory = RequestFactory()
    request = factory.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 7.7.7.7")
    assert client_ip(request) == "10.0.0.2"
    with override_settings(TRUSTED_PROXY_COUNT=1):
        assert client_ip(request) == "7.7.7.7"
    with override_settings(TRUSTED_PROXY_COUNT=2):
        assert client_ip(request) == "6.6.6.6"
    with override_settings(TRUSTED_PROXY_COUNT=3):
        assert client_ip(request) == "10.0.0.2"  # fewer entries than proxies: misconfigured
    garbage = factory.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="not-an-address")
    with override_settings(TRUSTED_PROXY_COUNT=1):
        assert client_ip(garbage) == "10.0.0.2"


def test_an_ipv6_client_counts_as_its_network() -> None:
    factory = RequestFactory()
    one = factory.get("/", REMOTE_ADDR="2001:db8:1:2:aaaa::1")
    two = factory.get("/", REMOTE_ADDR="2001:db8:1:2:bbbb::7")
    assert client_network(one) == client_network(two) == "2001:db8:1:2::"
    assert client_network(factory.get("/", REMOTE_ADDR="")) is None


@pytest.mark.django_db
def test_rate_limit_decorator_for_any_view() -> None:
    @rate_limit("join-test", "2/10m", methods=("GET", "POST"))
    def view(request: HttpRequest) -> HttpResponse:
        return HttpResponse("welcome")

    factory = RequestFactory()
    answers = [view(factory.get("/join/abc/")) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert 0 < int(answers[2]["Retry-After"]) <= 600
    api = view(factory.post("/api/v1/join/"))
    assert api.status_code == 429
    assert api["Content-Type"] == "application/json"
    # Another address has its own count.
    assert view(factory.get("/join/abc/", REMOTE_ADDR="192.0.2.50")).status_code == 200


def test_rates_read_as_requests_per_period() -> None:
    assert parse_rate("30/15m") == (30, 15 * 60)
    assert parse_rate("10/h") == (10, 3600)
    assert parse_rate("5/2d") == (5, 2 * 24 * 3600)
    assert parse_rate("3/s") == (3, 1)


@pytest.mark.django_db
def test_a_counter_counts_in_its_window_and_then_starts_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = {"now": 1_800_000_040.25}  # 40 s into a 10-minute window
    monkeypatch.setattr("scorekeeper.security.time", SimpleNamespace(time=lambda: clock["now"]))
    assert count_request("join:192.0.2.1", 600) == (1, 560)
    assert count_request("join:192.0.2.1", 600) == (2, 560)
    assert count_request("join:192.0.2.2", 600) == (1, 560)
    clock["now"] += 559.5
    assert count_request("join:192.0.2.1", 600) == (3, 1)
    # The next window counts from one again, and the counters of the last one are gone.
    clock["now"] += 1
    assert count_request("join:192.0.2.1", 600) == (1, 600)
    assert RateCounter.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_counting_loses_no_request() -> None:
    """Workers counting at the same moment (threads, each with its own database
    connection) all count, the first of them racing to start the window too."""
    from django.db import connection

    threads, rounds = 6, 15
    barrier = threading.Barrier(threads)
    failures: list[BaseException] = []
    counts: list[int] = []

    def count() -> None:
        try:
            barrier.wait()
            for _ in range(rounds):
                counts.append(count_request("burst", 3600)[0])
        except BaseException as error:  # reported below, in the test's thread
            failures.append(error)
        finally:
            connection.close()

    workers = [threading.Thread(target=count) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert failures == []
    assert RateCounter.objects.get(key__startswith="burst:").count == threads * rounds
    assert max(counts) == threads * rounds


@pytest.mark.django_db
def test_a_username_too_long_to_store_is_a_failed_sign_in_not_an_error(db: None) -> None:
    """Django's sign-in form passes a username of any length on; django-axes keeps at most
    255 characters of it (PostgreSQL refused the insert: a 500)."""
    response = sign_in(Client(), "pass", username="x" * 20_000)
    assert response.status_code == 200
    assert AccessAttempt.objects.get().username == "x" * 255
    token = APIClient().post(
        "/api/v1/auth/token/", {"username": "y" * 5_000, "password": "pass"}, format="json"
    )
    assert token.status_code == 400
    assert AccessAttempt.objects.filter(username="y" * 255).exists()


def club(size: int) -> list[str]:
    """Members of a club that sign in from one Wi-Fi (one address)."""
    for i in range(size):
        User.objects.create_user(f"member{i}", password=PASSWORD)
    return [f"member{i}" for i in range(size)]


@pytest.mark.django_db
def test_sixty_good_sign_ins_from_one_address_are_never_refused(db: None) -> None:
    """A club on one Wi-Fi: the members sign in (and out, and in again on another
    phone) far more often than the address limit, and every one gets in. Only failed
    attempts count, so guessing from that address is still cut off at the limit."""
    allowed = int(settings.RATE_LIMITS["sign-in"].split("/")[0])
    members = club(12)
    statuses = []
    for i in range(60):
        client = Client()
        statuses.append(sign_in(client, PASSWORD, username=members[i % 12]).status_code)
        assert "_auth_user_id" in client.session
    assert statuses == [302] * 60
    admin = User.objects.create_superuser("root", password=PASSWORD)
    for _ in range(5):
        signed_in = Client().post(
            "/admin/login/", {"username": admin.username, "password": PASSWORD, "next": "/admin/"}
        )
        assert signed_in.status_code == 302

    client = Client()
    failed = [sign_in(client, "guess", username=f"nobody{i}").status_code for i in range(allowed)]
    assert failed == [200] * allowed
    refused = sign_in(client, "guess", username="one-more")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    # Past the limit the address waits, a right password too.
    assert sign_in(Client(), PASSWORD, username=members[0]).status_code == 429


@pytest.mark.django_db
def test_sixty_tokens_from_one_address_are_never_refused(db: None) -> None:
    allowed = int(settings.RATE_LIMITS["api-token"].split("/")[0])
    members = club(6)
    answers = [token(APIClient(), PASSWORD, username=members[i % 6]) for i in range(60)]
    assert [a.status_code for a in answers] == [200] * 60
    assert all(a.json()["token"] for a in answers)

    client = APIClient()
    failed = [token(client, "x", username=f"nobody{i}").status_code for i in range(allowed)]
    assert failed == [400] * allowed
    refused = token(client, "x", username="another")
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("Too many attempts. Try again in")
    assert token(APIClient(), PASSWORD, username=members[0]).status_code == 429


@pytest.mark.django_db
def test_good_sign_ins_between_failures_do_not_reset_the_failures(db: None) -> None:
    """Signing in in between does not wipe the address's failed attempts either."""
    allowed = int(settings.RATE_LIMITS["sign-in"].split("/")[0])
    members = club(1)
    for i in range(allowed - 1):
        assert sign_in(Client(), "guess", username=f"nobody{i}").status_code == 200
        assert sign_in(Client(), PASSWORD, username=members[0]).status_code == 302
    assert sign_in(Client(), "guess", username="nobody").status_code == 200
    assert sign_in(Client(), "guess", username="nobody").status_code == 429


@pytest.mark.django_db
def test_rate_limit_counting_failures_only() -> None:
    @rate_limit("check-test", "2/10m", succeeded=lambda response: response.status_code == 200)
    def view(request: HttpRequest) -> HttpResponse:
        return HttpResponse(status=200 if request.POST.get("ok") else 400)

    factory = RequestFactory()
    assert [view(factory.post("/", {"ok": "1"})).status_code for _ in range(5)] == [200] * 5
    assert [view(factory.post("/")).status_code for _ in range(3)] == [400, 400, 429]
    assert view(factory.post("/", {"ok": "1"})).status_code == 429
    assert RateCounter.objects.get(key__startswith="check-test:").count == 4
