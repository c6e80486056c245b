"""On PostgreSQL, removing one guest is announced as its link's revocation is: the
streams on that link are told to resync and end, so the removed guest's sheet asks at
once and is refused (the link's other guests reconnect, and are let in).

    .ci/with-postgres.sh .venv/bin/pytest tests/scorekeeper/test_live_guest_remove.py
"""

from __future__ import annotations

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from scorekeeper.live import CHANNEL
from scorekeeper.live.hub import RESYNC, Hub
from scorekeeper.live.sources import conninfo, deliver
from scorekeeper.models import Guest
from scorekeeper.services.invites import guest_remove, invite_create
from tests.scorekeeper.factories import make_game, make_players
from tests.scorekeeper.test_live_notify import heard, pytestmark  # noqa: F401


@pytest.fixture
def listener() -> psycopg.Connection:
    conn = psycopg.connect(conninfo(connection.settings_dict), autocommit=True)
    conn.execute(f"LISTEN {CHANNEL}")
    yield conn
    conn.close()


def test_removing_a_guest_is_heard_and_resyncs_its_links_streams(
    listener: psycopg.Connection, user: User
) -> None:
    a, b, c = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", [a, b, c], options={"target_wins": 0})
    link = invite_create(game=game, user=user, role="score")
    for name in ("Maya", "Theo"):
        assert Client().post(f"/join/{link.token}/", {"name": name}).status_code == 302
    heard(listener, timeout=0.3)
    maya = Guest.objects.get(name="Maya")
    guest_remove(guest=maya, user=user)
    guest_remove(guest=maya, user=user)  # again: nothing more to say
    payloads = heard(listener)
    assert payloads == [f"revoked {game.pk} {link.pk}"]
    hub = Hub()
    phone, owner = hub.subscribe(game.pk, link.pk), hub.subscribe(game.pk)
    assert deliver(hub, payloads[0]) == 1
    assert phone.queue.get_nowait() == RESYNC
    assert owner.queue.empty()
