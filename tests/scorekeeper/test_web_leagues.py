"""League pages: my leagues, a league's standings/history/members, head to head and a
player's page — and the number of queries each takes does not grow with the data."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_script_prefix

from scorekeeper.models import League, MemberRole, Membership, Player
from scorekeeper.selectors.league_player import RatingSeries
from scorekeeper.services.games import hand_record
from scorekeeper.web.league_player import CHART_POINTS, rating_chart
from scorekeeper.web.leagues import OPTION_RUN
from tests.scorekeeper.league_factories import (
    SYN,
    dirt_hand,
    play_partner_dirt,
    play_syn,
    seed_league,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def league(user: User) -> League:
    return League.objects.create(name="Thursday table", owner=user)


@pytest.fixture
def four(make_players) -> list[Player]:  # type: ignore[no-untyped-def]
    return make_players("Ana", "Bo", "Cy", "Di")


def htmx(client: Client, url: str, target: str):  # type: ignore[no-untyped-def]
    return client.get(url, headers={"HX-Request": "true", "HX-Target": target})


def test_pages_need_sign_in(league: League, four: list[Player]) -> None:
    client = Client()
    for url in ("/leagues/", f"/leagues/{league.pk}/", f"/players/{four[0].pk}/"):
        response = client.get(url)
        assert response.status_code == 302
        assert "/accounts/login/" in response["Location"]


def test_start_a_league(client_in: Client, user: User) -> None:
    Player.objects.create(name="Ana", user=user)
    response = client_in.post("/leagues/", {"name": "Sunday crew"})
    league = League.objects.get(name="Sunday crew")
    assert response.status_code == 302
    assert response["Location"] == f"/leagues/{league.pk}/"
    assert league.owner == user
    assert not league.memberships.exists()  # the owner's player is not added behind their back
    page = client_in.get("/leagues/").content.decode()
    assert "Sunday crew" in page


def test_a_league_needs_a_name(client_in: Client) -> None:
    response = client_in.post("/leagues/", {"name": "  "})
    assert response.status_code == 400
    assert "A name is required" in response.content.decode()
    assert not League.objects.exists()


def test_someone_elses_league_is_not_found(client_in: Client, other_user: User) -> None:
    theirs = League.objects.create(name="Their table", owner=other_user)
    for url in (f"/leagues/{theirs.pk}/", f"/leagues/{theirs.pk}/head-to-head/"):
        assert client_in.get(url).status_code == 404
    assert client_in.post(f"/leagues/{theirs.pk}/members/", {"name": "X"}).status_code == 404
    assert not Player.objects.filter(name="X").exists()


def test_league_page_shows_standings_history_and_members(
    client_in: Client, user: User, league: League, four: list[Player]
) -> None:
    bo = four[1]
    game = play_syn(user, league, four, [bo])
    play_syn(user, league, four, [], target=2)  # still going
    page = client_in.get(f"/leagues/{league.pk}/").content.decode()

    standings = page[page.index('id="standings"') : page.index('id="members"')]
    assert standings.index(">Bo<") < standings.index(">Ana<")  # the winner rates first
    assert 'class="lg-prov"' in standings  # one game: provisional
    history = page[page.index('id="history"') :]
    assert f'href="/games/{game.pk}/"' in history
    assert f'href="/games/{game.pk}/#sheet-result"' in history
    assert "in progress" in history
    for p in four:
        assert f'href="/players/{p.pk}/?league={league.pk}"' in page
    assert ' style="' not in page  # the CSP allows no inline style
    assert "<script>" not in page


def test_standings_tabs_per_game(
    client_in: Client, user: User, league: League, four: list[Player]
) -> None:
    ana, bo, cy, di = four
    play_syn(user, league, four, [ana])
    play_partner_dirt(user, league, [ana, cy], [bo, di], [
        dirt_hand(bo, {ana: 10, cy: 20, di: 5}),
        dirt_hand(bo, {ana: 3, cy: 4, di: 30}),
        dirt_hand(bo, {ana: 1, cy: 2, di: 9}),
    ])  # fmt: skip
    page = client_in.get(f"/leagues/{league.pk}/").content.decode()
    assert 'href="?standings=dirt#standings"' in page
    assert f'href="?standings={SYN}#standings"' in page

    partial = htmx(client_in, f"/leagues/{league.pk}/?standings=dirt", "standings")
    html = partial.content.decode()
    assert html.lstrip().startswith('<section id="standings"')
    assert "<html" not in html
    assert 'aria-current="page">Dirt on Your Neighbor' in html
    # Bo and Di won the partner game: they lead the Dirt standings.
    rows = re.findall(r'class="lg-player"><a [^>]*>(\w+)</a>', html)
    assert set(rows[:2]) == {"Bo", "Di"}


def test_history_filters_and_pages(
    client_in: Client, user: User, league: League, make_players
) -> None:  # type: ignore[no-untyped-def]
    players = make_players("Ana", "Bo", "Cy", "Di", "Eve")
    seed_league(user, league, players, 23)
    page = client_in.get(f"/leagues/{league.pk}/").content.decode()
    assert page.count('class="lg-game"') == 15
    assert "Page 1<" in page
    assert 'href="?page=2#history"' in page

    second = htmx(client_in, f"/leagues/{league.pk}/?page=2", "history").content.decode()
    assert second.lstrip().startswith('<section id="history"')
    assert second.count('class="lg-game"') == 8

    eve = players[4]
    only_eve = htmx(client_in, f"/leagues/{league.pk}/?player={eve.pk}", "history")
    games = only_eve.content.decode().split('class="lg-game"')[1:]
    assert games
    assert all(f'href="/players/{eve.pk}/"' in g for g in games)

    dirt = htmx(client_in, f"/leagues/{league.pk}/?game=dirt", "history").content.decode()
    assert dirt.count('class="lg-game"') == 4
    assert "Screw Your Neighbour</a>" not in dirt

    # Nonsense in the query string shows everything rather than an error page.
    assert client_in.get(f"/leagues/{league.pk}/?game=chess&player=x&page=zz").status_code == 200


def test_add_members(client_in: Client, user: User, league: League, four: list[Player]) -> None:
    ana = four[0]
    four[1].created_by = user
    four[1].save()
    page = client_in.get(f"/leagues/{league.pk}/").content.decode()
    assert f'<option value="{ana.pk}">Ana</option>' in page

    response = client_in.post(f"/leagues/{league.pk}/members/", {"player": ana.pk})
    assert response.status_code == 302
    assert response["Location"] == f"/leagues/{league.pk}/#members"
    assert Membership.objects.filter(league=league, player=ana).exists()

    client_in.post(f"/leagues/{league.pk}/members/", {"name": "  Zed  "})
    zed = Player.objects.get(name="Zed")
    assert zed.created_by == user
    assert Membership.objects.filter(league=league, player=zed).exists()

    followed = client_in.post(f"/leagues/{league.pk}/members/", {}, follow=True)
    assert "Choose a player, or type the name of a new one." in followed.content.decode()
    followed = client_in.post(f"/leagues/{league.pk}/members/", {"player": 999999}, follow=True)
    assert "Choose a player from the list." in followed.content.decode()


def _options(html: str, select: str) -> list[tuple[str, bool]]:
    """A select's options as (label, selected), the empty choice left out."""
    body = html.split(f'<select id="{select}"', 1)[1].split("</select>", 1)[0]
    return [
        (label, bool(chosen))
        for value, chosen, label in re.findall(
            r'<option value="([^"]*)"( selected)?>([^<]*)</option>', body
        )
        if value
    ]


def test_member_selects_are_right_however_warm_the_cache(
    client_in: Client, user: User, other_user: User, league: League, make_players
) -> None:  # type: ignore[no-untyped-def]  # fmt: skip
    # More members than one cached run of options, and a few players not in the league.
    players = make_players(*(f"P{i:03}" for i in range(OPTION_RUN * 2 + 10)))
    members, outside = players[: OPTION_RUN * 2], players[OPTION_RUN * 2 :]
    Membership.objects.bulk_create(Membership(league=league, player=p) for p in members)
    url = f"/leagues/{league.pk}/"
    names = [p.name for p in members]
    for _ in range(2):  # cold, then warm
        page = client_in.get(url).content.decode()
        assert _options(page, "add-player") == [(p.name, False) for p in outside]
        assert _options(page, "history-player") == [(n, False) for n in names]
    # An admin of the league sees the players they may add, not the owner's.
    bo = Player.objects.create(name="Bo", user=other_user, created_by=other_user)
    Membership.objects.create(league=league, player=bo, role=MemberRole.ADMIN)
    Player.objects.create(name="Bo's friend", created_by=other_user)
    theirs = Client()
    theirs.force_login(other_user)
    assert _options(theirs.get(url).content.decode(), "add-player") == [("Bo&#x27;s friend", False)]
    assert ("Bo", False) in _options(client_in.get(url).content.decode(), "history-player")
    # A renamed member shows under the new name; the chosen one is selected, in any run.
    Player.objects.filter(pk=members[3].pk).update(name="P003 Renamed")
    chosen = members[OPTION_RUN + 1]
    page = client_in.get(f"{url}?player={chosen.pk}").content.decode()
    shown = _options(page, "history-player")
    assert ("P003 Renamed", False) in shown
    assert "P003" not in [label for label, _ in shown]
    assert [label for label, selected in shown if selected] == [chosen.name]
    h2h = client_in.get(f"{url}head-to-head/?a={members[0].pk}&b={chosen.pk}").content.decode()
    assert [label for label, selected in _options(h2h, "h2h-a") if selected] == ["P000"]
    assert [label for label, selected in _options(h2h, "h2h-b") if selected] == [chosen.name]


def test_head_to_head_page(
    client_in: Client, user: User, league: League, four: list[Player]
) -> None:
    ana, bo = four[:2]
    play_syn(user, league, four, [ana], minutes_ago=30)
    play_syn(user, league, four, [ana], minutes_ago=20)
    play_syn(user, league, four, [bo], minutes_ago=10)
    url = f"/leagues/{league.pk}/head-to-head/"
    assert "Pick two members" in client_in.get(url).content.decode()

    page = client_in.get(f"{url}?a={ana.pk}&b={bo.pk}").content.decode()
    board = page[page.index("lg-score-board") :]
    assert re.search(r"Ana</a>\s*<strong>2</strong>", board)
    assert re.search(r"Bo</a>\s*<strong>1</strong>", board)
    assert "3 games together" in board
    assert page.count('class="lg-game"') == 3

    same = client_in.get(f"{url}?a={ana.pk}&b={ana.pk}")
    assert same.status_code == 400
    assert "Pick two different players." in same.content.decode()
    assert client_in.get(f"{url}?a={ana.pk}&b=nope").status_code == 400


def test_player_page(
    client_in: Client, user: User, other_user: User, league: League, four: list[Player]
) -> None:
    ana, bo = four[:2]
    for i in range(6):
        play_syn(user, league, four, [bo if i % 2 else ana], minutes_ago=60 - i)
    casual = play_syn(user, None, four, [bo])  # no league: listed, not rated
    theirs = League.objects.create(name="Their table", owner=other_user)
    Membership.objects.bulk_create(Membership(league=theirs, player=p) for p in four)
    hidden = play_syn(other_user, theirs, four, [bo])

    page = client_in.get(f"/players/{bo.pk}/").content.decode()
    assert "Rating in" in page
    assert "Thursday table" in page
    assert "Their table" not in page
    assert '<svg class="lg-chart-svg"' in page
    assert page.count('class="lg-chart-dot') == 6
    assert f'href="/games/{casual.pk}/"' in page
    assert f'href="/games/{hidden.pk}/"' not in page
    assert ' style="' not in page

    chart = htmx(client_in, f"/players/{bo.pk}/?league={league.pk}&scope={SYN}", "rating")
    html = chart.content.decode()
    assert html.lstrip().startswith('<section id="rating"')
    assert "Screw Your Neighbour: rating after each game" in html
    assert client_in.get("/players/999999/").status_code == 404


def test_warm_pages_show_every_change(
    client_in: Client, user: User, league: League, four: list[Player]
) -> None:
    ana, bo, cy, _ = four
    play_syn(user, league, four, [ana], minutes_ago=30)
    going = play_syn(user, league, four, [bo], target=2, minutes_ago=20)
    page = client_in.get(f"/leagues/{league.pk}/").content.decode()
    assert page.count(">Ana</a>") == 4  # standings, members, each game's ranking
    player = client_in.get(f"/players/{bo.pk}/").content.decode()
    assert "· Thursday table ·" in player
    # A renamed league, a renamed player, a game finished: the cached pieces follow.
    League.objects.filter(pk=league.pk).update(name="Friday table")
    player = client_in.get(f"/players/{bo.pk}/").content.decode()
    assert "· Thursday table ·" not in player
    assert "· Friday table ·" in player
    Player.objects.filter(pk=ana.pk).update(name="Anastasia")
    hand_record(game=going, user=None, hand_input={"winner": bo.pk})
    page = client_in.get(f"/leagues/{league.pk}/").content.decode()
    assert ">Ana</a>" not in page
    assert page.count(">Anastasia</a>") == 4
    assert "in progress" not in page
    standings = page[page.index('id="standings"') : page.index('id="members"')]
    assert standings.index(">Bo<") < standings.index(">Anastasia<")  # two wins to one
    player = client_in.get(f"/players/{bo.pk}/").content.decode()
    # The same game, another player's page: their name is the one marked.
    assert f'href="/players/{bo.pk}/" class="lg-me"' in player
    theirs = client_in.get(f"/players/{cy.pk}/").content.decode()
    assert f'href="/players/{cy.pk}/" class="lg-me"' in theirs
    assert 'class="lg-me"' not in page


def test_player_page_without_league_games(client_in: Client, user: User, four) -> None:  # type: ignore[no-untyped-def]
    play_syn(user, None, four, [four[0]])
    page = client_in.get(f"/players/{four[0].pk}/").content.decode()
    assert "no finished league game" in page
    assert page.count('class="lg-game"') == 1


def test_player_page_latest_games_follow_the_rating_history(
    client_in: Client, user: User, league: League, four: list[Player]
) -> None:
    ana, bo = four[:2]
    for i in range(8):
        play_syn(user, league, four, [bo if i % 3 else ana], minutes_ago=60 - i)
    history = client_in.get(f"/api/v1/players/{bo.pk}/ratings/?league={league.pk}").json()
    page = client_in.get(f"/players/{bo.pk}/").content.decode()
    latest = page[page.index('class="lg-recent"') :].split("</ul>")[0]
    shown = [int(g) for g in re.findall(r'href="/games/(\d+)/"', latest)]
    assert shown == [point["game"] for point in reversed(history[-5:])]
    assert page.count('class="lg-chart-dot') == 8


def test_every_link_of_the_league_pages_follows_the_script_prefix(
    client_in: Client, user: User, league: League, four: list[Player]
) -> None:
    """Served under a path prefix (gunicorn's ``SCRIPT_NAME``, which Django's handler
    makes the script prefix), each address the league pages give is under it."""
    play_syn(user, league, four, [four[0]])
    play_syn(user, league, four, [], target=2)
    a, b = four[0].pk, four[1].pk
    pages = [
        (f"/leagues/{league.pk}/", None),
        (f"/leagues/{league.pk}/?page=1", "history"),
        (f"/leagues/{league.pk}/?standings=screw-your-neighbour", "standings"),
        (f"/leagues/{league.pk}/head-to-head/?a={a}&b={b}", None),
        (f"/players/{a}/?league={league.pk}", None),
    ]
    for url, target in pages:  # the cached fragments, warm without the prefix
        assert htmx(client_in, url, target or "").status_code == 200
    with override_script_prefix("/scores/"):
        for url, target in pages:
            headers = {"HX-Request": "true", "HX-Target": target} if target else {}
            body = client_in.get(url, headers=headers, SCRIPT_NAME="/scores").content.decode()
            body = body.split('<main id="main"', 1)[-1].split("</main>", 1)[0]
            found = re.findall(r'(?:href|action|hx-get)="(/[^"]*)"', body)
            assert found, url
            assert [f for f in found if not f.startswith("/scores/")] == [], url


def _series(ratings: list[float]) -> RatingSeries:
    return RatingSeries(
        start=0.0, ratings=ratings, won=[False] * len(ratings), provisional=4, recent=[]
    )


def _drawn(chart: dict[str, Any]) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in chart["line"].split())]


def test_a_long_rating_line_is_thinned_keeping_its_ends_and_extremes() -> None:
    ratings = [round(5 * math.sin(i / 9) + i / 40, 2) for i in range(500)]
    ratings[123], ratings[321] = 40.0, -30.0  # the best and the worst, mid-line
    chart = rating_chart(_series(ratings))
    assert chart is not None
    line = _drawn(chart)
    assert len(line) <= CHART_POINTS
    assert line[0][0] == chart["left"]
    assert line[-1][0] == chart["right"]
    assert [x for x, _ in line] == sorted(x for x, _ in line)
    # Game 124 (the best) is the highest point, game 322 (the worst) the lowest, each
    # where it belongs along the line.
    top = min(line, key=lambda p: p[1])
    bottom = max(line, key=lambda p: p[1])
    width = chart["right"] - chart["left"]
    assert top[0] == round(chart["left"] + width * 124 / 500, 1)
    assert bottom[0] == round(chart["left"] + width * 322 / 500, 1)
    assert (chart["games"], chart["best"], chart["dots"]) == (500, 40.0, [])


def test_a_short_rating_line_keeps_every_game() -> None:
    ratings = [float(i % 7) for i in range(100)]
    chart = rating_chart(_series(ratings))
    assert chart is not None
    assert len(_drawn(chart)) == 101  # the rating before the first game, then each game


# -- query counts do not grow with the data -------------------------------------------


def _queries(client: Client, url: str, **headers: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, headers=headers)
    assert response.status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize(
    ("url", "queries"),
    [
        # Each page: the session and the account (2), then what it reads; a league's
        # page two of them for its rating race (the leaders' points, their colours)
        # and one for its members' roles.
        ("/leagues/", 4),
        ("/leagues/{league}/", 13),
        ("/leagues/{league}/?standings=screw-your-neighbour&page=2", 13),
        ("/leagues/{league}/?game=dirt&player={a}", 13),
        # The league, its members, the record, the timeline (the latest meetings, the
        # two players' colours), the games together and their seats.
        ("/leagues/{league}/head-to-head/?a={a}&b={b}", 9),
        # The player, their leagues, their standings, their rating (the series and the
        # latest games), a page of their games and its seats, their merges; the league
        # asked for is among the leagues read already.
        ("/players/{a}/", 10),
        ("/players/{a}/?league={league}&scope=dirt", 10),
    ],
)
def test_pages_take_the_same_number_of_queries_however_big_the_league(
    client_in: Client, user: User, league: League, make_players, url: str, queries: int
) -> None:  # type: ignore[no-untyped-def]  # fmt: skip
    players = make_players(*(f"P{i}" for i in range(7)))
    seed_league(user, league, players, 25)
    url = url.format(league=league.pk, a=players[0].pk, b=players[1].pk)
    small = _queries(client_in, url)
    seed_league(user, league, players, 40)
    assert _queries(client_in, url) == small == queries


# Session and account, the league, then: the tabs, the rows and the rating race (the
# leaders' points and colours); or the members, a page of games and their seats.
@pytest.mark.parametrize(("target", "queries"), [("standings", 7), ("history", 7)])
def test_htmx_partials_take_few_queries(
    client_in: Client, user: User, league: League, make_players, target: str, queries: int,
    django_assert_num_queries,
) -> None:  # type: ignore[no-untyped-def]  # fmt: skip
    players = make_players(*(f"P{i}" for i in range(7)))
    seed_league(user, league, players, 25)
    with django_assert_num_queries(queries):
        response = htmx(client_in, f"/leagues/{league.pk}/?page=2", target)
    assert response.status_code == 200
