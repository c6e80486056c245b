"""Deep pages of a league's history: the game counts the database keeps
(``LeagueGameCount``, by triggers) always equal a recount, and a page read from the
oldest end is the very page an ``OFFSET`` from the newest end gives."""

from __future__ import annotations

import math
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.models import Game, League, LeagueGameCount, Player
from scorekeeper.selectors.league_counts import league_game_count
from scorekeeper.selectors.leagues import league_games, page_of_games
from scorekeeper.web.leagues import DEEP_HISTORY, HISTORY_PAGE

RULESETS = ("dirt", "damn-you", "dirty-uno", "screw-your-neighbour")
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _stored() -> dict[tuple[int, str], int]:
    return {
        (c.league_id, c.ruleset): c.games
        for c in LeagueGameCount.objects.all()
        if c.games  # a count back to zero may stay as a row
    }


def _recount() -> dict[tuple[int, str], int]:
    rows = (
        Game.objects.filter(league__isnull=False)
        .order_by()
        .values_list("league_id", "ruleset")
        .annotate(n=Count("*"))
    )
    return {(league_id, ruleset): n for league_id, ruleset, n in rows}


def _game(owner: User, dealer: Player, league: League | None, ruleset: str, minutes: int) -> Game:
    return Game.objects.create(
        ruleset=ruleset,
        first_dealer=dealer,
        league=league,
        owner=owner,
        created_at=timezone.now() - timedelta(minutes=minutes),
    )


# Each step: ("add", league or None, ruleset), ("delete", which), ("move", which, league
# or None), ("rules", which, ruleset); "which" picks among the games made so far.
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.sampled_from([0, 1, None]), st.sampled_from(RULESETS)),
        st.tuples(st.just("delete"), st.integers(0, 50)),
        st.tuples(st.just("move"), st.integers(0, 50), st.sampled_from([0, 1, None])),
        st.tuples(st.just("rules"), st.integers(0, 50), st.sampled_from(RULESETS)),
        st.tuples(st.just("bulk"), st.integers(1, 6), st.sampled_from([0, 1])),
    ),
    max_size=30,
)


@pytest.mark.django_db
@SETTINGS
@given(steps=STEPS)
def test_stored_game_counts_equal_a_recount_whatever_writes_the_games(
    user: User, steps: list[tuple]
) -> None:  # type: ignore[type-arg]  # fmt: skip
    with transaction.atomic():
        dealer = Player.objects.create(name="Dealer", created_by=user)
        leagues = [League.objects.create(name=f"L{i}", owner=user) for i in range(2)]
        games: list[Game] = []
        for step in steps:
            kind = step[0]
            if kind == "add":
                league = leagues[step[1]] if step[1] is not None else None
                games.append(_game(user, dealer, league, step[2], len(games)))
            elif kind == "bulk":
                games += Game.objects.bulk_create(
                    Game(ruleset="dirt", first_dealer=dealer, league=leagues[step[2]], owner=user)
                    for _ in range(step[1])
                )
            elif games:
                game = games[step[1] % len(games)]
                if kind == "delete":
                    Game.objects.filter(pk=game.pk).delete()
                    games.remove(game)
                elif kind == "move":
                    league = leagues[step[2]] if step[2] is not None else None
                    Game.objects.filter(pk=game.pk).update(league=league)
                else:
                    Game.objects.filter(pk=game.pk).update(ruleset=step[2])
            assert _stored() == _recount()
        for league in leagues:
            assert league_game_count(league) == league_games(league).count()
            for slug in RULESETS:
                assert league_game_count(league, slug) == league_games(league, slug).count()
        transaction.set_rollback(True)


@pytest.mark.django_db
@SETTINGS
@given(
    n=st.integers(0, 40),
    same_instant=st.integers(1, 4),
    start=st.integers(0, 45),
    size=st.integers(1, 12),
    ruleset=st.sampled_from([None, "dirt"]),
)
def test_a_page_read_from_the_oldest_end_is_the_page_an_offset_gives(
    user: User, n: int, same_instant: int, start: int, size: int, ruleset: str | None
) -> None:
    with transaction.atomic():
        dealer = Player.objects.create(name="Dealer", created_by=user)
        league = League.objects.create(name="L", owner=user)
        for i in range(n):
            # Several games start in the same instant: their order is by id.
            _game(user, dealer, league, RULESETS[i % 2], i // same_instant)
        games = league_games(league, ruleset)
        expected = [g.pk for g in list(games)[start : start + size]]
        total = league_game_count(league, ruleset)
        read = page_of_games(games, start, start + size, total=total)
        assert [g.pk for g in read] == expected
        assert [g.pk for g in page_of_games(games, start, start + size)] == expected
        transaction.set_rollback(True)


def _game_links(html: str) -> list[str]:
    return re.findall(r'class="lg-game-title" href="/games/(\d+)/"', html)


@pytest.mark.django_db
def test_the_last_pages_of_a_long_history_page_and_api(user: User) -> None:
    dealer = Player.objects.create(name="Dealer", created_by=user)
    league = League.objects.create(name="Long", owner=user)
    n = DEEP_HISTORY + 2 * HISTORY_PAGE + 7
    for i in range(n):
        _game(user, dealer, league, RULESETS[i % 3], n - i)
    newest_first = [str(g.pk) for g in league_games(league)]
    client = Client()
    client.force_login(user)
    last = math.ceil(n / HISTORY_PAGE)
    for page in (last - 2, last - 1, last, last + 1):
        html = client.get(f"/leagues/{league.pk}/?page={page}").content.decode()
        start = (page - 1) * HISTORY_PAGE
        assert _game_links(html) == newest_first[start : start + HISTORY_PAGE]
        assert ("Older →" in html) == (page < last)
    dirt = [str(g.pk) for g in league_games(league, "dirt")]
    page = math.ceil(len(dirt) / HISTORY_PAGE)
    html = client.get(f"/leagues/{league.pk}/?game=dirt&page={page}").content.decode()
    assert _game_links(html) == dirt[(page - 1) * HISTORY_PAGE :]

    body = client.get(f"/api/v1/leagues/{league.pk}/games/?page=1").json()
    assert body["count"] == n
    size = len(body["results"])
    last_api = math.ceil(n / size)
    body = client.get(f"/api/v1/leagues/{league.pk}/games/?page={last_api}").json()
    assert body["count"] == n
    assert body["next"] is None
    assert [str(g["id"]) for g in body["results"]] == newest_first[(last_api - 1) * size :]
    body = client.get(f"/api/v1/leagues/{league.pk}/games/?ruleset=dirt&page=2").json()
    assert body["count"] == len(dirt)
    assert [str(g["id"]) for g in body["results"]] == dirt[size : 2 * size]
    assert client.get(f"/api/v1/leagues/{league.pk}/games/?page={last_api + 1}").status_code == 404
