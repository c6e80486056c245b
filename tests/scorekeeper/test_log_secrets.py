"""No secret in any log line: join links' tokens, password-reset tokens, sign-up
invitation codes and stream tickets are blotted out of what Django's loggers write
(``LOGGING``), after every kind of request that carries one. gunicorn's and the events
server's own logs are read in ``test_logs_served.py``."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory, override_settings
from gunicorn.glogging import SafeAtoms

from scorekeeper.log_secrets import HideSecrets, blot
from scorekeeper.models import Game, SignupInvitation
from scorekeeper.services.invites import invite_create, invite_revoke
from tests.scorekeeper.factories import make_game, make_players
from tests.scorekeeper.log_capture import app_log

#: The link of a password-reset mail: its path, the user's id, the token.
MAILED_LINK = re.compile(r"http://[^/\s]+(/accounts/password/reset/(\w+)/([\w-]+)/)")


@pytest.fixture
def log() -> Iterator[io.StringIO]:
    with app_log() as written:
        yield written


@pytest.fixture
def game(user: User) -> Game:
    return make_game(user, "screw-your-neighbour", make_players("Ana", "Bo", "Cy", created_by=user))


# -- blot ---------------------------------------------------------------------------------


def test_secrets_in_addresses_are_blotted_out() -> None:
    line = '"GET /scores/join/Abc-_9x/qr.svg?token=s3cret&x=1 HTTP/1.1" "https://h/join/Q1/"'
    assert blot(line) == (
        '"GET /scores/join/[hidden]/qr.svg?token=[hidden]&x=1 HTTP/1.1" "https://h/join/[hidden]/"'
    )
    assert blot("/events/health /events/abc:def?ticket=1") == (
        "/events/health /events/[hidden]?ticket=[hidden]"
    )
    assert blot("GET /accounts/password/reset/MQ/cz1x-0123abcd/ HTTP/1.1") == (
        "GET /accounts/password/reset/MQ/[hidden]/ HTTP/1.1"
    )
    assert blot("/accounts/signup/?invite=tuesday-club&next=/") == (
        "/accounts/signup/?invite=[hidden]&next=/"
    )
    assert blot("/r/Zq9/result.png?api_key=k;Password=p") == (
        "/r/[hidden]/result.png?api_key=[hidden];Password=[hidden]"
    )
    # As uvicorn's trace shows a scope: a repr, quotes and bytes.
    assert blot("{'path': '/events/T1', 'raw_path': b'/events/T1'}") == (
        "{'path': '/events/[hidden]', 'raw_path': b'/events/[hidden]'}"
    )


@pytest.mark.parametrize(
    "address",
    [
        "/games/12/live/?v=3&hand=2",
        "/events/health",
        "/accounts/password/reset/",
        "/accounts/password/reset/sent/",
        "/accounts/password/reset/MQ/set-password/",
        "/accounts/password/reset/done/",
        "/rules/dirt/?q=skip",
        "/join/",
    ],
)
def test_addresses_without_a_secret_stay_as_they_are(address: str) -> None:
    assert blot(address) == address


def record(msg: str, args: object = (), **extra: object) -> logging.LogRecord:
    made = logging.LogRecord("django.request", logging.WARNING, __file__, 1, msg, (), None)
    made.args = args  # type: ignore[assignment]
    made.__dict__.update(extra)
    HideSecrets().filter(made)
    return made


def test_the_filter_blots_arguments_messages_requests_and_exceptions() -> None:
    not_found = record("%s: %s", ("Not Found", "/join/abc/"))
    assert not_found.getMessage() == "Not Found: /join/[hidden]/"
    # gunicorn's access atoms: blotted one by one (a structured formatter reads them),
    # credentials in a header whatever they look like, and "-" for a missing atom still.
    atoms = SafeAtoms({"r": "GET /join/abc/ HTTP/1.1", "{authorization}i": "Token 9f8e"})
    shown = record("%(r)s %({authorization}i)s %(b)s", atoms)
    assert shown.getMessage() == "GET /join/[hidden]/ HTTP/1.1 [hidden] -"
    assert isinstance(shown.args, SafeAtoms)
    assert shown.args["r"] == "GET /join/[hidden]/ HTTP/1.1"
    # In an object printed by the message (uvicorn's scope), or in the message itself.
    assert record("scope=%s", ({"path": "/events/T1"},)).getMessage() == (
        "scope={'path': '/events/[hidden]'}"
    )
    assert record("opened /r/T2/").getMessage() == "opened /r/[hidden]/"

    request = RequestFactory().get("/join/abc/")
    formatted = logging.Formatter("%(request)s").format(record("x", request=request))
    assert "abc" not in formatted
    assert "/join/[hidden]/" in formatted

    try:
        raise LookupError("no live link /join/abc/")
    except LookupError as error:
        failed = record("failed", exc_info=(type(error), error, error.__traceback__))
    written = logging.Formatter().format(failed)
    assert "LookupError: no live link /join/[hidden]/" in written
    assert "abc" not in written


# -- Django's loggers, after each kind of request ------------------------------------------


def test_join_links_leave_no_token_in_the_log(game: Game, user: User, log: io.StringIO) -> None:
    live = invite_create(game=game, user=user, role="score")
    revoked = invite_create(game=game, user=user, role="watch")
    invite_revoke(invite=revoked, user=user)
    guest = Client()
    assert guest.get(f"/join/{live.token}/").status_code == 200
    assert guest.get(f"/join/{live.token}/qr.svg").status_code in (200, 403, 404)
    assert guest.get(f"/join/{revoked.token}/").status_code == 404
    assert guest.get("/join/Unknown-T0ken/").status_code == 404
    assert guest.get("/join/Unknown-T0ken/qr.svg").status_code == 404
    assert guest.post(f"/join/{live.token}/", {"name": "   "}).status_code == 422
    refused = Client(enforce_csrf_checks=True).post(f"/join/{live.token}/", {"name": "Maya"})
    assert refused.status_code == 403
    assert guest.post(f"/join/{live.token}/", {"name": "Maya"}).status_code == 302

    written = log.getvalue()
    assert "Not Found: /join/[hidden]/" in written
    assert re.search(r"Unprocessable \w+: /join/\[hidden\]/", written)
    assert "Forbidden (CSRF cookie not set.): /join/[hidden]/" in written
    for secret in (live.token, revoked.token, "Unknown-T0ken"):
        assert secret not in written


def test_password_reset_links_leave_no_token_in_the_log(
    db: None, tmp_path: Path, log: io.StringIO, settings: Any
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "password-reset": "3/h"}
    User.objects.create_user("ana", "ana@example.org", "table-talk-42")
    client = Client()
    with override_settings(
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend", EMAIL_FILE_PATH=tmp_path
    ):
        assert client.post("/accounts/password/reset/", {"email": "ana@example.org"}).status_code
    (sent,) = tmp_path.iterdir()
    found = MAILED_LINK.search(sent.read_text())
    assert found is not None
    link, uid, token = found.groups()
    opened = client.get(link)
    assert opened.status_code == 302
    assert opened["Location"] == f"/accounts/password/reset/{uid}/set-password/"
    wrong = f"/accounts/password/reset/{uid}/{token[:-4]}WXYZ/"
    assert Client().get(wrong).status_code == 200  # "The link has been used or has expired"
    # Passwords sent with it until the rate limit answers 429 (Django logs its path).
    new = {"new_password1": "a-brand-new-phrase-7", "new_password2": "a-brand-new-phrase-7"}
    assert [Client().post(wrong, new).status_code for _ in range(3)] == [200, 200, 429]

    written = log.getvalue()
    assert f"Too Many Requests: /accounts/password/reset/{uid}/[hidden]/" in written
    assert token not in written
    assert token[:-4] not in written


def test_sign_up_invitations_leave_no_code_in_the_log(db: None, log: io.StringIO) -> None:
    invitation = SignupInvitation.objects.create(note="Cy")
    for code in (invitation.code, "Guessed-C0de"):
        with override_settings(SIGNUP="invite"):
            assert Client().get(f"/accounts/signup/?invite={code}").status_code == 200
            body = {"username": "cy", "email": "cy@example.org", "invite": code}
            Client().post("/accounts/signup/", body)
        with override_settings(SIGNUP="closed"):
            assert Client().get(f"/accounts/signup/?invite={code}").status_code == 403

    written = log.getvalue()
    assert "Forbidden: /accounts/signup/" in written  # the path only: Django's own choice
    assert invitation.code not in written
    assert "Guessed-C0de" not in written


def test_runservers_request_lines_are_blotted(log: io.StringIO) -> None:
    server = logging.getLogger("django.server")
    extra = {"request": None, "server_time": "27/Nov/2026 19:00:00", "status_code": 404}
    server.info('"%s" %s %s', "GET /join/S3cret/?invite=C0de HTTP/1.1", "404", "12", extra=extra)
    written = log.getvalue()
    assert '"GET /join/[hidden]/?invite=[hidden] HTTP/1.1" 404 12' in written
    assert "S3cret" not in written
    assert "C0de" not in written
