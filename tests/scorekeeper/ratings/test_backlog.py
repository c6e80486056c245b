"""A correction to an old league game is re-rated in the background: the request only
leaves a mark, the task replays the later games in chunks to the same numbers as a full
rebuild, and the standings say they are updating meanwhile."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scorekeeper.models import League, PlayerStanding, RatingBacklog, RatingPoint
from scorekeeper.ratings import hooks
from scorekeeper.ratings.backlog import process_backlog
from scorekeeper.ratings.rebuild import rebuild_derived
from scorekeeper.services.games import game_delete, hand_replace
from scorekeeper.tasks import rerate_league
from tests.scorekeeper.league_factories import play_syn
from tests.scorekeeper.ratings.derived import points, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def queued(settings, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Tasks are queued, not run (as with a worker that has not got to them yet), and a
    replay of more than two later games is left to the background."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    monkeypatch.setattr(hooks, "INLINE_POINTS", 8)


def play_night(user, league, four, games: int = 8):  # type: ignore[no-untyped-def]
    """Games started a minute apart, each won by the next player round the table."""
    return [play_syn(user, league, four, [four[i % 4]], minutes_ago=100 - i) for i in range(games)]


def rebuilt(league: League) -> tuple[object, object]:
    """The standings and rating points a full rebuild gives (the state is restored by
    the test's transaction only, so compare before calling this)."""
    rebuild_derived(leagues=[league.pk], games=[])
    return snapshot(league), points(league)


def test_a_correction_to_an_old_game_is_left_to_the_background(user, league, four, monkeypatch):
    games = play_night(user, league, four, games=12)
    before = snapshot(league)
    replays: list[object] = []
    real = hooks.replay_league_ratings
    monkeypatch.setattr(
        hooks, "replay_league_ratings", lambda *a, **k: replays.append(a) or real(*a, **k)
    )

    with CaptureQueriesContext(connection) as queries:
        hand_replace(game=games[0], number=1, user=None, hand_input={"winner": four[3].pk})

    assert replays == []  # nothing replayed on the request
    assert len(queries) < 40
    marks = set(RatingBacklog.objects.values_list("ruleset", "since_game_id"))
    assert marks == {("", games[0].pk), (games[0].ruleset, games[0].pk)}
    assert snapshot(league) == before  # behind until the worker runs

    rated = process_backlog(league.pk, chunk_games=5)

    assert rated == 24  # 12 games in each of the two scopes
    assert not RatingBacklog.objects.exists()
    after = (snapshot(league), points(league))
    assert after != (before, after[1])
    assert after == rebuilt(league)


def test_the_last_game_of_the_league_is_still_rated_on_the_request(user, league, four):
    play_night(user, league, four, games=12)
    assert not RatingBacklog.objects.exists()
    assert PlayerStanding.objects.get(league=league, ruleset="", player=four[0]).games == 12


def test_games_finishing_while_a_replay_is_pending_join_it(user, league, four):
    games = play_night(user, league, four, games=10)
    hand_replace(game=games[1], number=1, user=None, hand_input={"winner": four[2].pk})
    mark = RatingBacklog.objects.get(ruleset="")

    late = play_syn(user, league, four, [four[1]], minutes_ago=1)

    assert not RatingPoint.objects.filter(game=late).exists()  # the replay rates it
    assert RatingBacklog.objects.get(ruleset="").since_game_id == mark.since_game_id
    process_backlog(league.pk, chunk_games=3)
    assert RatingPoint.objects.filter(game=late, ruleset="").count() == 4
    assert PlayerStanding.objects.get(league=league, ruleset="", player=four[1]).games == 11
    state = (snapshot(league), points(league))
    assert state == rebuilt(league)


def test_marks_merge_to_the_earliest_change(user, league, four):
    games = play_night(user, league, four, games=10)
    hand_replace(game=games[5], number=1, user=None, hand_input={"winner": four[0].pk})
    hand_replace(game=games[2], number=1, user=None, hand_input={"winner": four[0].pk})
    hand_replace(game=games[7], number=1, user=None, hand_input={"winner": four[0].pk})
    assert set(RatingBacklog.objects.values_list("since_game_id", flat=True)) == {games[2].pk}

    process_backlog(league.pk)

    state = (snapshot(league), points(league))
    assert state == rebuilt(league)


def test_a_change_behind_a_running_replay_restarts_it_from_there(user, league, four):
    games = play_night(user, league, four, games=12)
    hand_replace(game=games[6], number=1, user=None, hand_input={"winner": four[1].pk})
    changed: list[bool] = []

    def meanwhile(_seconds: float, _games: int) -> None:
        if not changed:  # between two chunks, someone corrects an earlier game
            changed.append(True)
            hand_replace(game=games[0], number=1, user=None, hand_input={"winner": four[2].pk})

    process_backlog(league.pk, chunk_games=2, on_chunk=meanwhile)

    assert changed
    assert not RatingBacklog.objects.exists()
    state = (snapshot(league), points(league))
    assert state == rebuilt(league)


def test_a_correction_rated_in_one_scope_and_not_yet_the_other_is_replayed_in_both(
    user, league, four
):
    """The replay has carried one scope (all games) past a corrected game and not yet the
    other (the game's ruleset); the game is corrected back to its first ranking, which
    the second scope still holds: the first scope is replayed again all the same."""
    games = play_night(user, league, four, games=10)
    hand_replace(game=games[0], number=1, user=None, hand_input={"winner": four[1].pk})
    hand_replace(game=games[5], number=1, user=None, hand_input={"winner": four[2].pk})

    class Stop(Exception):
        pass

    def stop(_seconds: float, _games: int) -> None:
        raise Stop  # after the all-games scope's only chunk

    with pytest.raises(Stop):
        process_backlog(league.pk, chunk_games=100, on_chunk=stop)
    assert set(RatingBacklog.objects.values_list("ruleset", flat=True)) == {games[5].ruleset}

    hand_replace(game=games[5], number=1, user=None, hand_input={"winner": four[1].pk})
    process_backlog(league.pk)

    state = (snapshot(league), points(league))
    assert state == rebuilt(league)


def test_deleting_an_old_game_is_replayed_in_the_background(user, league, make_players, four):
    (eve,) = make_players("Eve")
    play_night(user, league, four, games=6)
    odd = play_syn(user, league, [four[0], four[1], eve], [eve], minutes_ago=99)
    play_night(user, league, four, games=2)

    game_delete(game=odd, user=None)
    assert RatingBacklog.objects.exists()
    process_backlog(league.pk, chunk_games=2)

    assert not PlayerStanding.objects.filter(player=eve).exists()
    assert not RatingPoint.objects.filter(game__isnull=True).exists()
    state = (snapshot(league), points(league))
    assert state == rebuilt(league)


def test_the_task_processes_the_backlog(user, league, four, settings):
    games = play_night(user, league, four, games=10)
    hand_replace(game=games[0], number=1, user=None, hand_input={"winner": four[1].pk})
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}

    result = rerate_league.enqueue(league.pk)

    assert result.return_value == 20
    assert not RatingBacklog.objects.exists()


def test_rebuild_derived_clears_the_backlog(user, league, four):
    games = play_night(user, league, four, games=10)
    hand_replace(game=games[0], number=1, user=None, hand_input={"winner": four[1].pk})
    rebuild_derived(leagues=[league.pk], games=[])
    assert not RatingBacklog.objects.exists()


def test_the_standings_say_they_are_updating(user, league, four, client, api: APIClient):
    games = play_night(user, league, four, games=10)
    client.force_login(user)
    url = f"/api/v1/leagues/{league.pk}/standings/"
    assert "X-Ratings-Updating" not in api.get(url)
    assert "Ratings are updating" not in client.get(f"/leagues/{league.pk}/").text

    hand_replace(game=games[0], number=1, user=None, hand_input={"winner": four[1].pk})

    response = api.get(url)
    assert response.status_code == 200
    assert response["X-Ratings-Updating"] == "1"
    assert isinstance(response.json(), list)
    assert "Ratings are updating" in client.get(f"/leagues/{league.pk}/").text
    partial = client.get(
        f"/leagues/{league.pk}/", headers={"HX-Request": "true", "HX-Target": "standings"}
    )
    assert "Ratings are updating" in partial.text

    process_backlog(league.pk)
    assert "X-Ratings-Updating" not in api.get(url)
    assert "Ratings are updating" not in client.get(f"/leagues/{league.pk}/").text
