"""The downloads written while they are sent — my data (``/accounts/data/``) and a
league's JSON and CSV exports — are the very bytes the whole-file builders made before
them, however the chunks fall, and keep their file name."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Prefetch, Q
from django.test import Client
from rest_framework.test import APIClient

from scorekeeper import downloads
from scorekeeper.models import Game, Hand, League, Player, Seat
from scorekeeper.selectors import accounts
from scorekeeper.services.backup import export_pieces, league_export_json
from tests.scorekeeper.factories import make_league, make_player
from tests.scorekeeper.league_factories import play_syn

pytestmark = pytest.mark.django_db


def _when(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def whole_account_data(user: User) -> str:
    """``/accounts/data/`` as it was built in memory until 2025's streaming: one dict of
    model instances (prefetched seats and hands), dumped at once."""
    players = Player.objects.filter(Q(user=user) | Q(created_by=user)).order_by("pk")
    leagues = (
        League.objects.filter(Q(owner=user) | Q(memberships__player__user=user))
        .distinct()
        .order_by("pk")
        .prefetch_related("memberships__player")
    )
    games = (
        Game.objects.filter(Q(owner=user) | Q(seats__player__user=user))
        .distinct()
        .order_by("pk")
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("player").order_by("position")),
            Prefetch("hands", Hand.objects.only("game_id", "number", "input", "created_at")),
        )
    )
    data: dict[str, Any] = {
        "format": "scorekeeper-account",
        "version": 1,
        "account": {
            "username": user.get_username(),
            "name": user.first_name,
            "email": user.email,
            "date_joined": _when(user.date_joined),
            "last_login": _when(user.last_login),
        },
        "players": [
            {
                "id": p.pk,
                "name": p.name,
                "mine": p.user_id == user.pk,
                "created_at": _when(p.created_at),
            }
            for p in players
        ],
        "leagues": [
            {
                "id": lg.pk,
                "name": lg.name,
                "owned": lg.owner_id == user.pk,
                "created_at": _when(lg.created_at),
                "members": [
                    {"player": m.player_id, "name": m.player.name, "joined_at": _when(m.joined_at)}
                    for m in lg.memberships.all()
                ],
            }
            for lg in leagues
        ],
        "games": [
            {
                "id": g.pk,
                "ruleset": g.ruleset,
                "variant": g.variant,
                "options": g.options,
                "teams": g.teams,
                "league": g.league_id,
                "owned": g.owner_id == user.pk,
                "status": g.status,
                "closed": g.closed,
                "created_at": _when(g.created_at),
                "finished_at": _when(g.finished_at),
                "seats": [
                    {
                        "player": s.player_id,
                        "name": s.player.name,
                        "position": s.position,
                        "team": s.team,
                        "score": s.score,
                        "place": s.place,
                        "won": s.won,
                    }
                    for s in g.seats.all()
                ],
                "hands": [
                    {"number": h.number, "input": h.input, "created_at": _when(h.created_at)}
                    for h in g.hands.all()
                ],
            }
            for g in games
        ],
    }
    return json.dumps(data, cls=DjangoJSONEncoder, indent=1)


@pytest.fixture
def ana(db: None) -> User:
    return User.objects.create_user("ana", "ana@example.org", "table-talk-42", first_name="Ána")


def _download(user: User) -> tuple[Any, bytes]:
    client = Client()
    client.force_login(user)
    response = client.get("/accounts/data/")
    assert response.status_code == 200
    return response, b"".join(response.streaming_content)  # type: ignore[attr-defined]


@pytest.mark.parametrize("chunk", [1, 300, downloads.CHUNK])
def test_my_data_streamed_is_the_file_built_whole(
    ana: User, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(downloads, "CHUNK", chunk)
    monkeypatch.setattr(accounts, "ACCOUNT_DATA_CHUNK", 2)  # several rounds of games
    bo = User.objects.create_user("bo")
    me = make_player("Ana", created_by=ana, user=ana)
    cy = make_player("Cy “the dealer” ✓", created_by=ana)
    other = make_player("Bo", created_by=bo, user=bo)
    dee = make_player("Dee", created_by=bo)
    league = make_league(bo, "Bo's table", [me, other, dee])
    play_syn(bo, league, [me, other, dee], [me])
    play_syn(ana, None, [me, cy, dee], [cy, dee], target=3)
    play_syn(ana, None, [cy, dee, other], [])  # owned, not seated, no hands
    play_syn(bo, None, [other, dee, me], [other, other], target=2)
    play_syn(bo, None, [other, dee, make_player("Eve", created_by=bo)], [other])  # not mine

    response, body = _download(ana)
    assert body == whole_account_data(ana).encode()
    assert len(json.loads(body)["games"]) == 4
    assert response["Content-Disposition"].startswith('attachment; filename="scorekeeper-ana-')
    assert response["Cache-Control"] == "private, no-store"


def test_my_data_without_games_is_the_file_built_whole(ana: User) -> None:
    _, body = _download(ana)
    assert body == whole_account_data(ana).encode()
    assert json.loads(body)["games"] == []


@pytest.fixture
def league(ana: User) -> League:
    seated = [make_player(name, created_by=ana) for name in ("Ana", "=Bo", "Cy ✓")]
    club = make_league(ana, "Thursday club", seated)
    for winners in ([seated[0]], [seated[1], seated[2]], [seated[2]]):
        play_syn(ana, club, seated, winners, target=len(winners))
    return club


EXPORTED_AT = re.compile(rb'"exported_at": "[^"]*"')


@pytest.mark.parametrize("chunk", [1, downloads.CHUNK])
def test_a_league_export_streamed_is_the_file_built_whole(
    ana: User, league: League, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(downloads, "CHUNK", chunk)
    api = APIClient()
    api.force_authenticate(ana)
    web = Client()
    web.force_login(ana)
    for chosen, answer in (
        ("json", api.get(f"/api/v1/leagues/{league.pk}/export/")),
        ("csv", api.get(f"/api/v1/leagues/{league.pk}/export/?format=csv")),
        ("json", web.get(f"/leagues/{league.pk}/export.json")),
        ("csv", web.get(f"/leagues/{league.pk}/export.csv")),
    ):
        assert answer.status_code == 200
        assert answer["Content-Disposition"].startswith('attachment; filename="thursday-club-')
        body = b"".join(answer.streaming_content)
        whole = "".join(export_pieces(league, chosen)).encode()
        # (The only difference: the moment of each export.)
        assert EXPORTED_AT.sub(b"", body) == EXPORTED_AT.sub(b"", whole)
        if chosen == "json":
            data = json.loads(body)
            del data["exported_at"]
            built = league_export_json(league)
            del built["exported_at"]
            assert data == built
        else:
            rows = list(csv.reader(io.StringIO(body.decode())))
            assert len(rows) == 1 + 3 * 3
            assert "'=Bo" in body.decode()  # still safe in a spreadsheet
