"""The background worker (``manage.py worker``) over HTTP: a league sent to the API is
imported by it, then a correction to an old league game is carried through the later
games' ratings off the request, and the standings catch up without anyone waiting on
the league lock."""

from __future__ import annotations

import secrets
import time
from collections import Counter

import pytest

from tests.production.http import Session

pytestmark = pytest.mark.production

GAMES = 120  # 4 players each: far more rating points after the first game than are
# replayed on the request (ratings.hooks.INLINE_POINTS, 400)
PLAYERS = (1, 2, 3, 4)


def _backup(suffix: str) -> dict[str, object]:
    """A league of Screw Your Neighbour games to one hand win, oldest first; player
    ``(i % 4) + 1`` wins game ``i``."""
    return {
        "format": "scorekeeper.league",
        "version": 1,
        "league": {"name": f"Worker check {suffix}"},
        "players": [{"id": p, "name": f"Worker {p} {suffix}"} for p in PLAYERS],
        "members": [{"player": p} for p in PLAYERS],
        "games": [
            {
                "ruleset": "screw-your-neighbour",
                "options": {"target_wins": 1},
                "created_at": f"2024-01-{1 + i // 60:02d}T{(i % 60) // 6:02d}:{i % 60:02d}:00Z",
                "seats": [{"player": p, "position": p - 1} for p in PLAYERS],
                "hands": [{"number": 1, "input": {"winner": PLAYERS[i % 4]}}],
            }
            for i in range(GAMES)
        ],
    }


def _wins(api: Session, league_id: int, auth: dict[str, str]) -> tuple[dict[str, int], bool]:
    response = api.get(f"/api/v1/leagues/{league_id}/standings/", headers=auth)
    assert response.status_code == 200, response.text
    updating = response.header("X-Ratings-Updating") == "1"
    return {row["name"]: row["wins"] for row in response.json()}, updating


def test_a_correction_to_an_old_game_is_rerated_by_the_worker(base_url: str) -> None:
    api = Session(base_url)
    token = api.post("/api/v1/auth/token/", json_body={"username": "demo", "password": "demo"})
    assert token.status_code == 200, token.text
    auth = {"Authorization": f"Token {token.json()['token']}"}
    suffix = secrets.token_hex(3)

    # The worker imports the league, then carries the correction through it.
    queued = api.post("/api/v1/leagues/import/", json_body=_backup(suffix), headers=auth)
    assert queued.status_code == 202, queued.text
    deadline = time.monotonic() + 90
    while (imported := api.get(queued.header("Location"), headers=auth).json())["status"] != "done":
        assert imported["status"] != "failed", imported
        assert time.monotonic() < deadline, f"the worker did not import the league: {imported}"
        time.sleep(0.5)
    league_id = imported["league"]
    assert imported["progress"] == {"games_checked": GAMES, "games": GAMES}
    names = {p: f"Worker {p} {suffix}" for p in PLAYERS}
    wins, updating = _wins(api, league_id, auth)
    assert wins == {names[p]: GAMES // 4 for p in PLAYERS}
    assert not updating

    # The oldest game is the last on the history's last page (newest first).
    first = api.get(f"/api/v1/leagues/{league_id}/games/", headers=auth).json()
    last_page = -(-first["count"] // len(first["results"]))
    oldest = api.get(f"/api/v1/leagues/{league_id}/games/?page={last_page}", headers=auth)
    game = oldest.json()["results"][-1]
    assert [p["name"] for p in game["players"]] == [names[p] for p in PLAYERS]
    assert game["winners"] == [game["players"][0]["id"]]

    # Player 2 went out first in that game, not player 1.
    started = time.monotonic()
    corrected = api.request(
        "PUT",
        f"/api/v1/games/{game['id']}/hands/1/",
        json_body={"winner": game["players"][1]["id"]},
        headers=auth,
    )
    assert corrected.status_code == 200, corrected.text
    # The request did not replay 119 later games under the league lock.
    assert time.monotonic() - started < 5

    expected = Counter({names[p]: GAMES // 4 for p in PLAYERS})
    expected[names[1]] -= 1
    expected[names[2]] += 1
    deadline = time.monotonic() + 90
    while True:
        wins, updating = _wins(api, league_id, auth)
        if wins == dict(expected) and not updating:
            break
        assert time.monotonic() < deadline, (
            f"the worker did not carry the correction through: {wins}, updating={updating}"
        )
        time.sleep(0.5)
    # The game's own record changed at once; the league's ratings followed.
    history = api.get(f"/api/v1/leagues/{league_id}/games/?page={last_page}", headers=auth)
    assert history.json()["results"][-1]["winners"] == [game["players"][1]["id"]]
