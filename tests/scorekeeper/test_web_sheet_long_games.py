"""A game of many hands keeps a sheet of a known size: the most recent hands with a link
to all of them, totals counting every hand, and a chart of a bounded number of points."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Game, Player
from scorekeeper.selectors.games import game_config, game_state, game_with_related, player_names
from scorekeeper.selectors.rows import RECENT_HANDS
from scorekeeper.services.backup import MAX_HANDS, league_import
from scorekeeper.services.games import game_create, hand_record
from scorekeeper.simulate import next_hand
from scorekeeper.web import sheet

pytestmark = pytest.mark.django_db

HAND_ROW = re.compile(r'<tr class="hand-row" data-hand="(\d+)"')


def long_game(owner: User, hands: int) -> Game:
    """A finished game of Screw Your Neighbour (no target) of ``hands`` hands, six seats."""
    doc = {
        "format": "scorekeeper.league",
        "version": 1,
        "league": {"name": "Marathon"},
        "players": [{"id": i, "name": f"P{i}"} for i in range(1, 7)],
        "games": [
            {
                "ruleset": "screw-your-neighbour",
                "options": {"target_wins": 0},
                "closed": True,
                "seats": [{"player": i} for i in range(1, 7)],
                "hands": [
                    {"number": n, "input": {"winner": 1 + (n * 7) % 6}} for n in range(1, hands + 1)
                ],
            }
        ],
    }
    return Game.objects.get(league=league_import(doc, owner=owner).league)


@pytest.fixture
def client(user: User) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_the_sheet_shows_the_last_hands_and_links_to_all(user: User, client: Client) -> None:
    game = long_game(user, 60)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert [int(n) for n in HAND_ROW.findall(page)] == list(range(11, 61))
    assert "The last 50 of 60 hands." in page
    assert f'href="/games/{game.pk}/?hands=all#sheet-grid">Show all 60 hands</a>' in page
    every = client.get(f"/games/{game.pk}/?hands=all").content.decode()
    assert [int(n) for n in HAND_ROW.findall(every)] == list(range(1, 61))
    assert "Show all" not in every
    # The totals row counts every hand either way.
    footer = re.compile(r"<tfoot>.*?</tfoot>", re.S)
    assert footer.search(page).group() == footer.search(every).group()  # type: ignore[union-attr]


def test_live_updates_keep_every_hand_on_a_page_that_shows_them(user: User, client: Client) -> None:
    game = long_game(user, 55)
    headers = {"HX-Request": "true"}
    live = client.get(f"/games/{game.pk}/live/", headers=headers).content.decode()
    assert len(HAND_ROW.findall(live)) == RECENT_HANDS
    live = client.get(
        f"/games/{game.pk}/live/",
        headers={**headers, "HX-Current-URL": f"http://testserver/games/{game.pk}/?hands=all"},
    ).content.decode()
    assert len(HAND_ROW.findall(live)) == 55


def test_a_live_answer_with_the_changed_rows_says_how_many_the_sheet_shows(
    user: User, client: Client
) -> None:
    """A phone told that hand 60 changed gets that row only, and the grid's words still
    count the hands its sheet shows."""
    game = long_game(user, 60)
    version = Game.objects.get(pk=game.pk).version
    live = client.get(
        f"/games/{game.pk}/live/?v=0&hand=end&from=60&to={version}", headers={"HX-Request": "true"}
    ).content.decode()
    assert [int(n) for n in HAND_ROW.findall(live)] == [60]
    assert 'data-from="60" data-first="11" data-total="60"' in live
    assert "The last 50 of 60 hands." in live


def test_partner_totals_count_the_hands_not_shown(user: User) -> None:
    players = [Player.objects.create(name=n, created_by=user).pk for n in "ABCD"]
    game = game_create(
        owner=user,
        ruleset="dirt",
        players=players,
        variant="baby",
        teams=[[players[0], players[2]], [players[1], players[3]]],
    )
    rng = random.Random(3)
    state = game_state(game)
    while not state.finished:
        state = hand_record(
            game=game, user=user, hand_input=next_hand(rng, game_config(game), state, {})
        ).state
    # A write's state holds only the last hands: the sheet reads the whole game.
    game = game_with_related(Game.objects.filter(pk=game.pk)).get()
    state = game_state(game)
    names = player_names(game)
    every = sheet.build_grid(game, state, names)
    recent = sheet.build_grid(game, state, names, recent=2)
    assert (recent.hidden, recent.total, len(recent.rows)) == (len(state.hands) - 2, 6, 2)
    assert recent.rows == every.rows[-2:]


def test_a_game_of_the_most_hands_has_a_page_of_bounded_size(user: User, client: Client) -> None:
    """Before: a sheet of 1.4 MB for 1,000 hands (16 MB for 20,000), its chart
    drawing every hand."""
    game = long_game(user, MAX_HANDS)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert len(page) < 150_000
    assert len(HAND_ROW.findall(page)) == RECENT_HANDS
    lines = re.findall(r'<polyline class="chart-line[^"]*" fill="none" points="([^"]*)"', page)
    assert len(lines) == 6
    assert all(len(points.split()) <= sheet.CHART_POINTS for points in lines)
    assert len(re.findall(r"chart-tick-x", page)) <= 12
    # The chart still ends at the last hand: every line at the right of the plot, where
    # the dots at their ends are.
    ends = {points.split()[-1].split(",")[0] for points in lines}
    dots = set(re.findall(r'<circle class="chart-dot[^"]*" cx="([^"]*)"', page))
    assert ends == dots
    assert len(ends) == 1
