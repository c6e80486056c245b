"""The logs of the servers as the README starts them — gunicorn with ``gunicorn.conf.py``
(its access log, its error log, Django's loggers inside it) and the events server —
read after every kind of request that carries a secret: join links (live, revoked,
unknown, a guest's empty name, a post without its form token), a password reset (the
mail's link, a wrong token), sign-up invitations (good, guessed), event streams (a
good ticket, a forged one) and a malformed request line to each server. None of the
secrets is in them."""

from __future__ import annotations

import http.client
import socket
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from scorekeeper.live import capability
from scorekeeper.models import SignupInvitation
from scorekeeper.services.invites import invite_create, invite_revoke
from tests.production.http import Session
from tests.scorekeeper.factories import make_game, make_players
from tests.scorekeeper.served import EVENTS, GUNICORN, Served, database_url, serve
from tests.scorekeeper.test_log_secrets import MAILED_LINK

pytestmark = pytest.mark.django_db(transaction=True)


def open_stream(events: Served, ticket: str) -> bytes:
    """The first bytes of the stream at ``ticket`` (or of the refusal), then hang up."""
    conn = http.client.HTTPConnection("127.0.0.1", events.port, timeout=10)
    try:
        conn.request("GET", f"/events/{ticket}")
        return conn.getresponse().read1(200)
    finally:
        conn.close()


def test_no_secret_in_any_log(tmp_path: Path) -> None:
    user = User.objects.create_user("ana", "ana@example.org", "table-talk-42")
    game = make_game(user, "screw-your-neighbour", make_players("Ana", "Bo", "Cy", created_by=user))
    live = invite_create(game=game, user=user, role="score")
    revoked = invite_create(game=game, user=user, role="score")
    invite_revoke(invite=revoked, user=user)
    invitation = SignupInvitation.objects.create(note="Cy")
    ticket = capability.issue(game.pk, "score", live.pk)
    forged = ticket[:-6] + ("AAAAAA" if not ticket.endswith("AAAAAA") else "BBBBBB")
    mail = tmp_path / "mail"
    env = {
        "DATABASE_URL": database_url(),
        "SIGNUP": "invite",
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(mail),
    }
    secrets = [live.token, revoked.token, "Unknown-T0ken", invitation.code, "Guessed-C0de"]
    secrets += [ticket, ticket.rsplit(":", 1)[1], forged]

    with (
        serve("gunicorn", GUNICORN, env, tmp_path) as web,
        serve("events", EVENTS, env, tmp_path) as events,
    ):
        base = f"http://127.0.0.1:{web.port}"
        guest = Session(base)
        joined = f"{base}/join/{live.token}/"
        assert guest.get(f"/join/{live.token}/", headers={"Referer": joined}).status_code == 200
        assert guest.get(f"/join/{revoked.token}/").status_code == 404
        assert guest.get("/join/Unknown-T0ken/").status_code == 404
        assert Session(base).post(f"/join/{live.token}/", form={"name": "Maya"}).status_code == 403
        form = {"name": " ", "csrfmiddlewaretoken": guest.cookies["csrftoken"]}
        assert guest.post(f"/join/{live.token}/", form=form).status_code == 422
        form["name"] = "Maya"
        assert guest.post(f"/join/{live.token}/", form=form).status_code == 302

        for code in (invitation.code, "Guessed-C0de"):
            assert Session(base).get(f"/accounts/signup/?invite={code}").status_code == 200

        resetting = Session(base)
        resetting.get("/accounts/password/reset/")
        asked = {"email": "ana@example.org", "csrfmiddlewaretoken": resetting.cookies["csrftoken"]}
        assert resetting.post("/accounts/password/reset/", form=asked).status_code == 302
        (sent,) = mail.iterdir()
        found = MAILED_LINK.search(sent.read_text())
        assert found is not None
        link, uid, token = found.groups()
        secrets.append(token)
        assert resetting.get(link).status_code == 302
        assert Session(base).get(f"/accounts/password/reset/{uid}/Wr0ng-T0ken/").status_code == 200
        secrets.append("Wr0ng-T0ken")

        for server, path in ((web, f"/join/{live.token}"), (events, f"/events/{ticket}")):
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
                raw.sendall(f"GET {path}\x01 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                assert raw.recv(100).startswith(b"HTTP/1.1 400")

        assert open_stream(events, ticket).startswith(b"retry:")
        assert b"expired" in open_stream(events, forged)

    access = web.out.read_text()
    assert '"GET /join/[hidden]/ HTTP/1.1" 200' in access
    assert f'"{base}/join/[hidden]/"' in access  # the referrer
    assert '"POST /join/[hidden]/ HTTP/1.1" 422' in access
    assert '"GET /accounts/signup/?invite=[hidden] HTTP/1.1" 200' in access
    assert f'"GET /accounts/password/reset/{uid}/[hidden]/ HTTP/1.1" 302' in access
    errors = web.err.read_text()
    assert "Not Found: /join/[hidden]/" in errors
    assert "Forbidden (CSRF cookie not set.): /join/[hidden]/" in errors
    assert "Invalid request from ip=127.0.0.1: Invalid HTTP request line" in errors
    assert "Invalid HTTP request received." in events.log()
    for log in (web.log(), events.log()):
        for secret in secrets:
            assert secret not in log
