"""A web worker loads what its requests need, not every library the app can use: a
fresh process that starts as gunicorn's workers do (``scorekeeper.wsgi``), resolves the
URLs and serves a score sheet has not loaded Pillow (result images) or segno (join QR
codes); each loads with the first request that draws one."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.contrib.auth.models import User

from tests.scorekeeper.factories import make_game, make_players
from tests.scorekeeper.served import ROOT, database_url, environment

pytestmark = pytest.mark.django_db(transaction=True)

#: Libraries only some requests use, by the module that marks them loaded.
LAZY = ("PIL", "segno")

WORKER = """
import json, sys
from scorekeeper.wsgi import application
from django.contrib.auth.models import User
from django.test import Client
from django.urls import get_resolver, reverse

get_resolver().resolve("/games/"), reverse("home")
client = Client()
client.force_login(User.objects.get(username="ana"))
seen = {"sheet": client.get("/games/%(game)d/").status_code}
seen["loaded"] = [name for name in %(lazy)r if name in sys.modules]
seen["qr"] = client.get("/join/%(token)s/qr.svg").status_code
seen["after_qr"] = [name for name in %(lazy)r if name in sys.modules]
print(json.dumps(seen))
"""


def test_a_worker_serving_a_sheet_has_not_loaded_the_image_libraries() -> None:
    from scorekeeper.services.invites import invite_create

    ana = User.objects.create_user("ana", password="table-talk-42")
    game = make_game(ana, "dirt", make_players("Ana", "Bo", "Cy", "Dee", created_by=ana))
    invite = invite_create(game=game, user=ana, role="watch")
    script = WORKER % {"game": game.pk, "lazy": LAZY, "token": invite.token}
    env = environment(
        DATABASE_URL=database_url(),
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
        ALLOWED_HOSTS="testserver",
        SECURE_COOKIES="0",
    )
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", script],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["sheet"] == 200
    assert seen["loaded"] == []
    assert seen["qr"] == 200
    assert seen["after_qr"] == ["segno"]
