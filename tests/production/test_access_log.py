"""nginx's access log keeps no secret that rides in an address
(``deploy/nginx/snippets/scorekeeper-http.conf``): after a join link, a stream's ticket,
a password-reset link, a sign-up invitation, a public result link and any ``token=``
value, in the address or the referrer, the log holds ``[hidden]`` in their place."""

from __future__ import annotations

import os
import re
import secrets
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.production.http import Session, new_game

pytestmark = pytest.mark.production

LOG_ENV = "SCOREKEEPER_ACCESS_LOG"


def test_secrets_in_addresses_stay_out_of_the_access_log(
    base_url: str, demo: Session, token_auth: dict[str, str]
) -> None:
    log = Path(os.environ.get(LOG_ENV, ""))
    if not log.is_file():
        pytest.skip(f"needs nginx's access log: .ci/production-smoke.sh ({LOG_ENV})")
    written = log.stat().st_size
    game, _seats = new_game(base_url, token_auth)
    api = Session(base_url)
    invite = api.post(
        f"/api/v1/games/{game}/invites/", json_body={"role": "watch"}, headers=token_auth
    )
    assert invite.status_code == 201, invite.text
    join = invite.json()["url"]
    token = urlsplit(join).path.strip("/").split("/")[-1]
    sheet = demo.get(f"/games/{game}/")
    ticket = re.search(r'data-events="[^"]*/events/([^"/]+)"', sheet.text)
    assert ticket is not None, "the sheet names no event stream"
    made_up = secrets.token_hex(8)
    guest = Session(base_url)
    answers = {
        "join": guest.get(join, headers={"Referer": join}),
        "ticket": demo.request("HEAD", f"/events/{ticket.group(1)}"),
        "reset": guest.get(f"/accounts/password/reset/MQ/{made_up}-reset/"),
        "invite": guest.get(f"/accounts/signup/?invite={made_up}-invite"),
        "result": guest.get(f"/r/{made_up}-result/"),
        "token": guest.get(f"/rules/?token={made_up}-token&q=dealer"),
    }
    assert answers["join"].status_code == 302  # a watch link: straight to the sheet
    assert answers["ticket"].status_code == 200
    time.sleep(0.2)
    with log.open() as lines:
        lines.seek(written)
        logged = lines.read()
    assert not [secret for secret in (token, ticket.group(1), made_up) if secret in logged]
    prefix = urlsplit(base_url).path
    for line in [
        "GET /join/[hidden]/ ",
        "HEAD /events/[hidden] ",
        "GET /accounts/password/reset/[hidden]/ ",
        "GET /accounts/signup/?[hidden] ",
        "GET /r/[hidden]/ ",
        "GET /rules/?[hidden] ",
    ]:
        verb, path = line.split(" ", 1)
        assert f"{verb} {prefix}{path}" in logged, line
    assert f'"{join.replace(token, "[hidden]")}"' in logged  # the referrer too
