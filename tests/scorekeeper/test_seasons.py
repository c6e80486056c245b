"""Seasons: each season's standings, ratings and champion are those of its games alone;
a closed season's table is kept as it was; the owner and admins start them (pages and
API; every role: test_season_roles), and backups carry them."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games import RuleError
from scorekeeper.models import ALL_GAMES, Game, League, Membership, Player, Season
from scorekeeper.selectors.league_seasons import (
    champion,
    league_seasons,
    season_span,
    season_standings,
)
from scorekeeper.selectors.leagues import head_to_head, standings_for_league
from scorekeeper.services.games import game_delete
from scorekeeper.services.seasons import season_start
from tests.scorekeeper.season_factories import Played, days_ago, play, schedule

pytestmark = pytest.mark.django_db

SCOPES = (ALL_GAMES, "screw-your-neighbour", "dirt")


@pytest.fixture
def league(user: User) -> League:
    return League.objects.create(name="Thursday table", owner=user)


@pytest.fixture
def six(make_players) -> list[Player]:  # type: ignore[no-untyped-def]
    return make_players("Ana", "Bo", "Cy", "Di", "Ed", "Flo")


def _first(players: list[Player]) -> list[Played]:
    return schedule(players, [days_ago(n) for n in range(30, 20, -2)], seed=1)


def _second(players: list[Player]) -> list[Played]:
    return schedule(players, [days_ago(n) for n in range(19, 0, -3)], seed=2)


@pytest.fixture
def two_seasons(user: User, league: League, six: list[Player]) -> League:
    """Autumn from 31 days ago (its games 30 to 22 days ago), Winter from 20 days ago
    (its games 19 to 1 days ago)."""
    season_start(league=league, user=user, name="Autumn", start=days_ago(31))
    play(user, league, _first(six))
    season_start(league=league, user=user, name="Winter", start=days_ago(20))
    play(user, league, _second(six))
    return league


def _key(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["rank"], r["name"], r["games"], r["wins"], r["rating"], r["mu"]) for r in rows]


def _alone(user: User, players: list[Player], games: list[Played], name: str) -> League:
    alone = League.objects.create(name=name, owner=user)
    play(user, alone, games)
    return alone


def test_each_season_is_its_games_alone(user: User, two_seasons: League, six: list[Player]) -> None:
    autumn, winter = sorted(league_seasons(two_seasons), key=lambda s: s.start)
    assert (autumn.end, winter.end) == (days_ago(21), None)
    for season, games in ((autumn, _first(six)), (winter, _second(six))):
        alone = _alone(user, six, games, f"{season.name} alone")
        for scope in SCOPES:
            expected = _key(standings_for_league(alone, scope or None))
            assert expected, scope
            assert _key(season_standings(season, scope or None)) == expected
        # Each season starts level: its ratings are not the league's all-time ones.
        assert season_standings(season) != standings_for_league(two_seasons)
    # The champion is the kept table's leader, and it was the alone league's leader.
    autumn_alone = League.objects.get(name="Autumn alone")
    assert champion(autumn) == standings_for_league(autumn_alone)[0]
    assert champion(winter) is None  # still being played
    # All time runs on over both seasons.
    everything = _alone(user, six, _first(six) + _second(six), "Both")
    assert _key(standings_for_league(two_seasons)) == _key(standings_for_league(everything))


def test_a_closed_seasons_table_is_kept_as_it_was(
    user: User, two_seasons: League, six: list[Player]
) -> None:
    autumn = Season.objects.get(league=two_seasons, name="Autumn")
    kept = season_standings(autumn)
    # A game of the closed season deleted, a player renamed: the final table stands.
    first = Game.objects.filter(league=two_seasons).order_by("created_at").first()
    assert first is not None
    game_delete(game=first, user=user)
    Player.objects.filter(pk=kept[0]["player"]).update(name="Renamed")
    autumn.refresh_from_db()
    assert season_standings(autumn) == kept
    kept_champion = champion(autumn)
    assert kept_champion is not None
    assert kept_champion["name"] == kept[0]["name"]


def test_head_to_head_per_season_adds_up_to_all_time(
    two_seasons: League, six: list[Player]
) -> None:
    a, b = six[0], six[1]
    total = head_to_head(two_seasons, a, b)
    parts = []
    for season in league_seasons(two_seasons):
        span = season_span(season)
        parts.append(head_to_head(two_seasons, a, b, since=span.since, until=span.until))
    for key in ("games", "a_ahead", "b_ahead", "ties", "partners", "a_wins", "b_wins"):
        assert sum(p[key] for p in parts) == total[key], key
    assert all(p["games"] < total["games"] for p in parts)


def test_the_first_season_closes_the_games_before_it(
    user: User, league: League, six: list[Player]
) -> None:
    play(user, league, _first(six))
    season_start(league=league, user=user, name="Spring", start=days_ago(5))
    earlier, spring = sorted(league_seasons(league), key=lambda s: s.start)
    assert (earlier.name, earlier.start, earlier.end) == ("Season 1", days_ago(30), days_ago(6))
    assert _key(season_standings(earlier)) == _key(standings_for_league(league))
    assert (spring.start, spring.end, season_standings(spring)) == (days_ago(5), None, [])


def test_a_season_on_an_empty_league_starts_alone(user: User, league: League) -> None:
    season_start(league=league, user=user, name="Opening", start=None)
    [only] = league_seasons(league)
    assert (only.name, only.end) == ("Opening", None)


@pytest.mark.parametrize(
    ("name", "start", "field"),
    [
        ("", None, "name"),
        ("   ", None, "name"),
        ("x" * 81, None, "name"),
        ("winter", None, "name"),  # taken, whatever the case
        ("Spring", "yesterday", "start"),
        ("Spring", "2026-02-30", "start"),
        ("Spring", "tomorrow", "start"),  # in the future
        ("Spring", "day 20", "start"),  # on the current season's first day
        ("Spring", "day 25", "start"),  # before it
    ],
)
def test_bad_seasons_are_refused_and_nothing_changes(
    user: User, two_seasons: League, name: str, start: str | None, field: str
) -> None:
    if start == "tomorrow":
        start = (days_ago(0) + timedelta(days=1)).isoformat()
    elif start is not None and start.startswith("day "):
        start = days_ago(int(start[4:])).isoformat()
    before = list(Season.objects.filter(league=two_seasons).values())
    with pytest.raises(RuleError) as caught:
        season_start(league=two_seasons, user=user, name=name, start=start)
    assert caught.value.field == field
    assert list(Season.objects.filter(league=two_seasons).values()) == before


def test_only_the_owner_starts_a_season(
    other_user: User, league: League, six: list[Player]
) -> None:
    Player.objects.filter(pk=six[1].pk).update(user=other_user)
    Membership.objects.create(league=league, player=six[1])
    with pytest.raises(PermissionDenied):
        season_start(league=league, user=other_user, name="Mine")
    assert not Season.objects.exists()


# -- the API --------------------------------------------------------------------------


def url(league: League, rest: str = "") -> str:
    return f"/api/v1/leagues/{league.pk}/{rest}"


def test_api_lists_seasons_with_champions(api: APIClient, two_seasons: League) -> None:
    response = api.get(url(two_seasons, "seasons/"))
    assert response.status_code == 200
    winter, autumn = response.json()
    assert (winter["name"], winter["current"], winter["end"], winter["champion"]) == (
        "Winter", True, None, None,
    )  # fmt: skip
    season = Season.objects.get(name="Autumn")
    leader = season_standings(season)[0]
    assert autumn == {
        "id": season.pk,
        "name": "Autumn",
        "start": days_ago(31).isoformat(),
        "end": days_ago(21).isoformat(),
        "current": False,
        "champion": {k: leader[k] for k in ("player", "name", "rating", "games", "wins")},
    }


def test_api_standings_by_season(api: APIClient, two_seasons: League) -> None:
    autumn = Season.objects.get(name="Autumn")
    winter = Season.objects.get(name="Winter")
    every = api.get(url(two_seasons, "standings/")).json()
    assert api.get(url(two_seasons, "standings/?season=all")).json() == every
    got = api.get(url(two_seasons, f"standings/?season={autumn.pk}&ruleset=dirt")).json()
    assert [(r["player"], r["rating"]) for r in got] == [
        (r["player"], r["rating"]) for r in season_standings(autumn, "dirt")
    ]
    got = api.get(url(two_seasons, f"standings/?season={winter.pk}")).json()
    assert [r["name"] for r in got] == [r["name"] for r in season_standings(winter)]
    assert got != every


@pytest.mark.parametrize(
    ("query", "field"),
    [("season=abc", "season"), ("season=999999", "season"), ("season=-1", "season")],
)
def test_api_standings_refuse_a_bad_season(
    api: APIClient, two_seasons: League, query: str, field: str
) -> None:
    response = api.get(url(two_seasons, f"standings/?{query}"))
    assert response.status_code == 400
    assert field in response.json()


def test_api_a_season_of_another_league_is_not_one(
    api: APIClient, user: User, two_seasons: League
) -> None:
    other = League.objects.create(name="Other", owner=user)
    season_start(league=other, user=user, name="Theirs")
    theirs = Season.objects.get(league=other)
    response = api.get(url(two_seasons, f"standings/?season={theirs.pk}"))
    assert response.status_code == 400
    assert "season" in response.json()


def test_api_owner_starts_a_season(api: APIClient, two_seasons: League) -> None:
    response = api.post(
        url(two_seasons, "seasons/"), {"name": "Spring", "start": days_ago(2).isoformat()},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201
    body = response.json()
    assert (body["name"], body["start"], body["current"]) == (
        "Spring", days_ago(2).isoformat(), True,
    )  # fmt: skip
    winter = Season.objects.get(name="Winter")
    assert winter.end == days_ago(3)
    assert winter.final_table is not None
    assert api.get(url(two_seasons, "seasons/")).json()[1]["champion"] is not None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "x" * 81}, "name"),
        ({"name": "\u202e"}, "name"),
        ({"name": "Winter"}, "name"),
        ({"name": "Spring", "start": "soon"}, "start"),
        ({"name": "Spring", "start": "2026-13-01"}, "start"),
        ({"name": "Spring", "start": "9999-01-01"}, "start"),
        ({"name": "Spring", "start": "2000-01-01"}, "start"),
        ({"name": ["Spring"]}, "name"),
    ],
)
def test_api_bad_seasons_are_400s_naming_the_field(
    api: APIClient, two_seasons: League, body: dict[str, Any], field: str
) -> None:
    before = Season.objects.count()
    response = api.post(url(two_seasons, "seasons/"), body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert Season.objects.count() == before


def test_api_members_may_list_but_not_start(
    other_user: User, league: League, six: list[Player]
) -> None:
    Player.objects.filter(pk=six[1].pk).update(user=other_user)
    Membership.objects.create(league=league, player=six[1])
    member = APIClient()
    member.force_authenticate(other_user)
    assert member.get(url(league, "seasons/")).json() == []
    assert member.post(url(league, "seasons/"), {"name": "Mine"}, format="json").status_code == 403
    stranger = APIClient()
    stranger.force_authenticate(User.objects.create_user("zed"))
    assert stranger.get(url(league, "seasons/")).status_code == 404
    assert not Season.objects.exists()


# -- the league page ------------------------------------------------------------------


@pytest.fixture
def client_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_league_page_shows_the_current_season_and_the_champions(
    client_in: Client, two_seasons: League
) -> None:
    autumn = Season.objects.get(name="Autumn")
    page = client_in.get(f"/leagues/{two_seasons.pk}/").content.decode()
    assert 'Standings <span class="lg-season-name">· Winter</span>' in page
    winter_leader = season_standings(Season.objects.get(name="Winter"))[0]["name"]
    assert page.index(winter_leader) < page.index('id="members"')
    assert f'href="?season={autumn.pk}#standings"' in page
    assert 'href="?season=all#standings"' in page
    champ = champion(autumn)
    assert champ is not None
    assert f"Champion: <strong>{champ['name']}</strong>" in page
    assert "Start a new season" in page
    closed = client_in.get(f"/leagues/{two_seasons.pk}/?season={autumn.pk}").content.decode()
    assert "kept as it stood when the season closed" in closed
    assert 'Standings <span class="lg-season-name">· Autumn</span>' in closed
    every = client_in.get(f"/leagues/{two_seasons.pk}/?season=all").content.decode()
    assert "· All time</span>" in every


def test_the_start_form_answers_bad_input_with_a_message(
    client_in: Client, two_seasons: League
) -> None:
    before = Season.objects.count()
    response = client_in.post(
        f"/leagues/{two_seasons.pk}/seasons/", {"name": "Winter", "start": ""}, follow=True
    )
    assert response.status_code == 200
    assert "already has a season called “Winter”" in response.content.decode()
    response = client_in.post(
        f"/leagues/{two_seasons.pk}/seasons/", {"name": "Spring", "start": "31/12"}, follow=True
    )
    assert "First day: give the first day as a date" in response.content.decode()
    assert Season.objects.count() == before
    response = client_in.post(
        f"/leagues/{two_seasons.pk}/seasons/", {"name": "Spring", "start": ""}, follow=True
    )
    assert "“Spring” has started" in response.content.decode()
    assert Season.objects.get(end__isnull=True).name == "Spring"


def test_a_member_sees_no_start_form_and_cannot_post_one(
    other_user: User, league: League, six: list[Player]
) -> None:
    Player.objects.filter(pk=six[1].pk).update(user=other_user)
    Membership.objects.create(league=league, player=six[1])
    client = Client()
    client.force_login(other_user)
    assert "Start a new season" not in client.get(f"/leagues/{league.pk}/").content.decode()
    response = client.post(f"/leagues/{league.pk}/seasons/", {"name": "Mine"}, follow=True)
    refused = "Only the league&#x27;s owner and admins may start a new season."
    assert refused in response.content.decode()
    assert not Season.objects.exists()


def test_head_to_head_page_over_one_season(
    client_in: Client, two_seasons: League, six: list[Player]
) -> None:
    autumn = Season.objects.get(name="Autumn")
    a, b = six[0], six[1]
    base = f"/leagues/{two_seasons.pk}/head-to-head/?a={a.pk}&b={b.pk}"
    page = client_in.get(f"{base}&season={autumn.pk}").content.decode()
    assert "In Autumn only." in page
    assert f'<option value="{autumn.pk}" selected>Autumn</option>' in page
    span = season_span(autumn)
    record = head_to_head(two_seasons, a, b, since=span.since, until=span.until)
    assert f"{record['games']} game{'s' if record['games'] != 1 else ''} together" in page


# -- reads do not grow with the data --------------------------------------------------


def _queries(client: Client, url: str, **headers: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, headers=headers)
    assert response.status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize(
    "url",
    [
        "/leagues/{league}/",
        "/leagues/{league}/?season={autumn}&standings=dirt",
        "/leagues/{league}/?season=all",
        "/leagues/{league}/head-to-head/?a={a}&b={b}&season={autumn}",
    ],
)
def test_pages_with_seasons_take_the_same_queries_however_many_games(
    client_in: Client, user: User, two_seasons: League, six: list[Player], url: str
) -> None:
    autumn = Season.objects.get(name="Autumn")
    url = url.format(league=two_seasons.pk, autumn=autumn.pk, a=six[0].pk, b=six[1].pk)
    small = _queries(client_in, url)
    partial = _queries(client_in, url, HX_Request="true", HX_Target="standings")
    play(user, two_seasons, schedule(six, [days_ago(n) for n in (9, 7, 4, 3)], seed=5))
    assert _queries(client_in, url) == small
    assert _queries(client_in, url, HX_Request="true", HX_Target="standings") == partial


def test_api_standings_of_a_season_take_few_queries(
    api: APIClient, two_seasons: League, django_assert_num_queries: Any
) -> None:
    autumn = Season.objects.get(name="Autumn")
    winter = Season.objects.get(name="Winter")
    with django_assert_num_queries(2):  # the league, its seasons: the kept table
        assert api.get(url(two_seasons, f"standings/?season={autumn.pk}")).status_code == 200
    with django_assert_num_queries(4):  # …then the season's games and their players' names
        assert api.get(url(two_seasons, f"standings/?season={winter.pk}")).status_code == 200
    with django_assert_num_queries(2):  # the league, its seasons
        assert api.get(url(two_seasons, "seasons/")).status_code == 200


# -- an invariant: seasons split the games, nothing lost or counted twice --------------


@pytest.fixture
def played(user: User, league: League, six: list[Player]) -> League:
    play(user, league, _first(six) + _second(six))
    return league


@pytest.mark.django_db
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(starts=st.lists(st.integers(0, 32), min_size=1, max_size=4, unique=True))
def test_seasons_split_the_games_whatever_their_days(
    user: User, played: League, starts: list[int]
) -> None:
    every = {r["player"]: (r["games"], r["wins"]) for r in standings_for_league(played)}
    with transaction.atomic():
        for n, back in enumerate(sorted(starts, reverse=True)):
            season_start(league=played, user=user, name=f"S{n}", start=days_ago(back))
        seasons = league_seasons(played)
        summed: dict[int, tuple[int, int]] = {}
        for season in seasons:
            rows = season_standings(season)
            assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
            for r in rows:
                games, wins = summed.get(r["player"], (0, 0))
                summed[r["player"]] = (games + r["games"], wins + r["wins"])
        assert summed == every
        # Each day after the first season's first belongs to exactly one season.
        ordered = sorted(seasons, key=lambda s: s.start)
        for before, after in itertools.pairwise(ordered):
            assert before.end == after.start - timedelta(days=1)
        transaction.set_rollback(True)
