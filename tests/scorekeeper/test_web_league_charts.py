"""The league pages' charts: the rating race of the leaders over game nights (league
page) and two players' meetings game after game (head to head), each line ending in
its player's name, in a few queries whatever the size of the league."""

from __future__ import annotations

import itertools
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from scorekeeper.models import League, Player, RatingPoint
from scorekeeper.selectors.league_charts import meetings, rating_race
from scorekeeper.selectors.leagues import head_to_head, standings_for_league
from scorekeeper.services.games import hand_record
from scorekeeper.web.sheet import END_LABEL
from tests.scorekeeper.factories import make_game
from tests.scorekeeper.league_factories import play_syn

pytestmark = pytest.mark.django_db

DAY = 24 * 60


@pytest.fixture
def client_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def league(user: User) -> League:
    return League.objects.create(name="Thursday table", owner=user)


@pytest.fixture
def eleven(make_players) -> list[Player]:  # type: ignore[no-untyped-def]
    return make_players(*(f"Player {chr(65 + i)}" for i in range(11)))


def _play_nights(user: User, league: League, players: list[Player], nights: int) -> None:
    """Three games a night at tables of four, the night before first: each night's games
    at 20:00, 20:30 and 21:00 of one day in the site's time zone, whatever the time the
    tests run at (a night counted back from now crossed midnight between 23:00 and 24:00)."""
    n = len(players)
    now = timezone.localtime()
    evening = now.replace(hour=20, minute=0, second=0, microsecond=0)
    for night in range(nights):
        for k in range(3):
            start = (night * 3 + k) * 4
            table = [players[(start + s) % n] for s in range(4)]
            played = evening - timedelta(days=nights - night) + timedelta(minutes=k * 30)
            minutes_ago = int((now - played).total_seconds() // 60)
            play_syn(user, league, table, [table[(night + k) % 4]], minutes_ago=minutes_ago)


def _labels(html: str, chart: str) -> list[str]:
    """The end labels of the chart whose ids start with ``chart``."""
    start = html.index(f'aria-labelledby="{chart}-title')
    svg = html[start : html.index("</svg>", start)]
    return re.findall(r'class="ch-label"[^>]*>([^<]*)<title>', svg)


def test_the_league_page_races_its_ten_leaders_over_game_nights(
    client_in: Client, user: User, league: League, eleven: list[Player]
) -> None:
    _play_nights(user, league, eleven, 4)
    html = client_in.get(f"/leagues/{league.pk}/").content.decode()
    standings = re.findall(r'class="lg-player"><a [^>]*>([^<]*)</a>', html)
    assert len(standings) == 11
    labels = _labels(html, "race")
    # The ten best of the standings, each named at the end of their line; not the 11th.
    assert sorted(labels) == sorted(standings[:10])
    assert standings[10] not in labels
    assert "Rating race: All games, top 10" in html
    # Described for a screen reader, and as a table.
    desc = html[html.index('id="race-desc"') :]
    assert all(name in desc[: desc.index("</desc>")] for name in standings[:10])
    assert "The race as a table" in html


def test_a_chosen_colour_is_kept_and_the_others_all_differ(
    client_in: Client, user: User, league: League, eleven: list[Player]
) -> None:
    _play_nights(user, league, eleven, 3)
    leader = Player.objects.get(pk=standings_for_league(league)[0]["player"])
    leader.colour = 7
    leader.save()
    html = client_in.get(f"/leagues/{league.pk}/").content.decode()
    start = html.index('aria-labelledby="race-title')
    svg = html[start : html.index("</svg>", start)]
    series = re.findall(
        r'<g class="ch-series (player-c\d+)"[^>]*>.*?class="ch-label"[^>]*>([^<]*)<', svg, re.S
    )
    colours = {name: css for css, name in series}
    assert len(set(colours.values())) == len(colours) == 10
    assert colours[leader.name] == "player-c7"


def test_one_game_night_draws_no_race(
    client_in: Client, user: User, league: League, eleven: list[Player]
) -> None:
    _play_nights(user, league, eleven, 1)
    html = client_in.get(f"/leagues/{league.pk}/").content.decode()
    assert "lg-standings" in html
    assert "Rating race" not in html


def test_the_race_follows_the_standings_tab(
    client_in: Client, user: User, league: League, eleven: list[Player]
) -> None:
    _play_nights(user, league, eleven, 3)
    response = client_in.get(
        f"/leagues/{league.pk}/?standings=screw-your-neighbour",
        headers={"HX-Request": "true", "HX-Target": "standings"},
    )
    html = response.content.decode()
    assert "Rating race: Screw Your Neighbour, top 10" in html
    assert len(_labels(html, "race")) == 10


def test_the_league_page_reads_a_few_queries_however_many_nights(
    client_in: Client, user: User, league: League, eleven: list[Player],
    django_assert_max_num_queries,
) -> None:  # type: ignore[no-untyped-def]  # fmt: skip
    _play_nights(user, league, eleven, 6)
    # Session and account (2), the league, tabs, standings, the race's points and
    # colours, members and their roles, merges, a page of history and its seats…: never
    # one per player.
    with django_assert_max_num_queries(13):
        response = client_in.get(f"/leagues/{league.pk}/")
    assert len(_labels(response.content.decode(), "race")) == 10


def test_a_rating_race_carries_a_rating_over_the_nights_a_player_sat_out(
    user: User, league: League, eleven: list[Player]
) -> None:
    _play_nights(user, league, eleven, 4)
    ids = [p.pk for p in eleven]
    race = rating_race(league, None, ids)
    assert len(race.nights) == 4
    assert race.nights == sorted(race.nights)
    for pid in ids:
        line = race.ratings[pid]
        points = list(
            RatingPoint.objects.filter(league=league, ruleset="", player_id=pid)
            .order_by("played_at", "game_id")
            .values_list("rating", flat=True)
        )
        # Nothing before their first game; their latest rating at the end.
        known = [v for v in line if v is not None]
        assert line[len(line) - len(known) :] == known
        assert known[-1] == pytest.approx(points[-1], abs=0.01)
    # The window keeps the latest nights only.
    assert rating_race(league, None, ids, nights=2).nights == race.nights[-2:]


def test_head_to_head_draws_the_two_players_game_after_game(
    client_in: Client, user: User, league: League, eleven: list[Player]
) -> None:
    ana, bo, cy, di = eleven[:4]
    for i, winner in enumerate([ana, ana, bo, ana]):
        play_syn(user, league, [ana, bo, cy, di], [winner], minutes_ago=(10 - i) * DAY)
    html = client_in.get(
        f"/leagues/{league.pk}/head-to-head/?a={ana.pk}&b={bo.pk}"
    ).content.decode()
    assert sorted(_labels(html, "timeline")) == sorted([ana.name, bo.name])
    desc = html[html.index('id="timeline-desc"') :]
    desc = desc[: desc.index("</desc>")]
    assert f"{ana.name} from 0 to 3" in desc
    assert f"{bo.name} from 0 to 1" in desc


def test_a_single_game_together_draws_no_timeline(
    client_in: Client, user: User, league: League, eleven: list[Player]
) -> None:
    ana, bo, cy, di = eleven[:4]
    play_syn(user, league, [ana, bo, cy, di], [ana])
    html = client_in.get(
        f"/leagues/{league.pk}/head-to-head/?a={ana.pk}&b={bo.pk}"
    ).content.decode()
    assert "1 game together" in html
    assert 'aria-labelledby="timeline-title' not in html


def test_the_timeline_of_many_meetings_counts_from_the_first_one(
    user: User, league: League, eleven: list[Player]
) -> None:
    ana, bo, cy, di = eleven[:4]
    for i, winner in enumerate([ana, bo, ana, cy, bo, ana]):
        play_syn(user, league, [ana, bo, cy, di], [winner], minutes_ago=(10 - i) * DAY)
    record = head_to_head(league, ana.pk, bo.pk)
    full = meetings(
        league, ana.pk, bo.pk, total_a=record["a_ahead"], total_b=record["b_ahead"],
        games=record["games"],
    )  # fmt: skip
    assert full.a_ahead == [0, 1, 1, 2, 2, 2, 3]
    assert full.b_ahead == [0, 0, 1, 1, 1, 2, 2]
    assert full.skipped == 0
    latest = meetings(
        league, ana.pk, bo.pk, total_a=record["a_ahead"], total_b=record["b_ahead"],
        games=record["games"], most=2,
    )  # fmt: skip
    assert latest.a_ahead == full.a_ahead[-3:]
    assert latest.b_ahead == full.b_ahead[-3:]
    assert latest.skipped == 4


def test_a_finished_games_chart_names_each_line_at_its_end(
    client_in: Client, user: User, eleven: list[Player]
) -> None:
    """Nine players tied at the end: nine names, none written over another."""
    table = eleven[:9]
    game = make_game(user, "screw-your-neighbour", table, options={"target_wins": 1})
    hand_record(game=game, user=None, hand_input={"winner": table[4].pk})
    html = client_in.get(f"/games/{game.pk}/").content.decode()
    svg = html[html.index('<svg class="chart-svg"') :]
    svg = svg[: svg.index("</svg>")]
    labels = re.findall(
        r'<text class="chart-end-label" x="[^"]*" y="([^"]*)"[^>]*>([^<]*)</text>', svg
    )
    assert sorted(name for _, name in labels) == sorted(p.name for p in table)
    heights = sorted(float(y) for y, _ in labels)
    assert all(b - a >= END_LABEL + 2 - 0.11 for a, b in itertools.pairwise(heights))
