"""The player page's reads (scorekeeper/selectors/league_player.py): a player's standings
lines rank them as the league's standings do, and the page's visibility check agrees with
``player_visible_to``."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from scorekeeper.models import League, Membership, Player
from scorekeeper.selectors.games import player_visible_to
from scorekeeper.selectors.league_player import (
    page_player,
    player_leagues_visible,
    player_standings,
)
from scorekeeper.selectors.leagues import standings_for_league
from tests.scorekeeper.league_factories import seed_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def leagues(user: User, make_players) -> tuple[League, League, list[Player]]:  # type: ignore[no-untyped-def]
    players = make_players(*(f"P{i}" for i in range(6)))
    first = League.objects.create(name="Thursday", owner=user)
    second = League.objects.create(name="Sunday", owner=user)
    seed_league(user, first, players, 12)
    seed_league(user, second, players[:4], 6)
    return first, second, players


def test_a_player_s_lines_rank_them_as_the_league_standings_do(
    leagues: tuple[League, League, list[Player]],
) -> None:
    first, second, players = leagues
    for player in players:
        for line in player_standings(player, [first.pk, second.pk]):
            league = first if line["league"] == first.pk else second
            table = standings_for_league(league, line["ruleset"])
            row = next(r for r in table if r["player"] == player.pk)
            # Ties share the better rank; ``of`` is everyone in that league and scope.
            ahead = sum(r["rating"] > row["rating"] for r in table)
            assert (line["rank"], line["of"], line["rating"]) == (
                ahead + 1,
                len(table),
                row["rating"],
            )
    assert player_standings(players[5], [second.pk]) == []  # never played there
    assert len(player_standings(players[0])) > len(player_standings(players[0], [first.pk]))


def test_page_player_agrees_with_player_visible_to(
    leagues: tuple[League, League, list[Player]], user: User, other_user: User
) -> None:
    _, second, players = leagues
    stranger = User.objects.create_user("cy", password="table-talk-42")
    own = Player.objects.create(name="Bo", user=other_user, created_by=other_user)
    Membership.objects.create(league=second, player=own)
    ids = [*(p.pk for p in players), own.pk, 10**9]
    for viewer in (user, other_user, stranger):
        visible = [lg.pk for lg in player_leagues_visible(viewer, players[0].pk)]
        for pid in ids:
            assert page_player(viewer, pid, visible) == player_visible_to(viewer, pid)
    # The member sees the players of their league, not those only in the other one.
    visible = [lg.pk for lg in player_leagues_visible(other_user, players[0].pk)]
    assert page_player(other_user, players[0].pk, visible) == players[0]
    assert page_player(other_user, players[5].pk, visible) is None
    assert page_player(stranger, players[0].pk, []) is None
