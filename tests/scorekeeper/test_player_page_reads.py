"""The player page's plain-SQL reads (scorekeeper/selectors/player_page.py) equal what the
ORM queries they replaced computed, on the same data."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

from scorekeeper.models import League, Membership, Player, PlayerStanding, RatingPoint
from scorekeeper.selectors.games import player_visible_to
from scorekeeper.selectors.league_player import player_leagues_visible
from scorekeeper.selectors.player_page import page_player, series_rows, standing_rows
from tests.scorekeeper.league_factories import seed_league

pytestmark = pytest.mark.django_db


def _orm_standings(pid: int, league_ids: list[int] | None) -> list[tuple]:  # type: ignore[type-arg]
    rows = PlayerStanding.objects.filter(player_id=pid)
    if league_ids is not None:
        rows = rows.filter(league_id__in=league_ids)
    scope = {"league_id": OuterRef("league_id"), "ruleset": OuterRef("ruleset")}
    ahead = (
        PlayerStanding.objects.filter(**scope, rating__gt=OuterRef("rating"))
        .order_by()
        .values("league_id")
        .annotate(n=Count("*"))
        .values("n")
    )
    everyone = (
        PlayerStanding.objects.filter(**scope)
        .order_by()
        .values("league_id")
        .annotate(n=Count("*"))
        .values("n")
    )
    return list(
        rows.annotate(ahead=Coalesce(Subquery(ahead), 0), of=Subquery(everyone)).values_list(
            "league_id",
            "league__name",
            "ruleset",
            "games",
            "wins",
            "place_sum",
            "mu",
            "sigma",
            "rating",
            "ahead",
            "of",
        )
    )


@pytest.fixture
def leagues(user: User, make_players) -> tuple[League, League, list[Player]]:  # type: ignore[no-untyped-def]
    players = make_players(*(f"P{i}" for i in range(6)))
    first = League.objects.create(name="Thursday", owner=user)
    second = League.objects.create(name="Sunday", owner=user)
    seed_league(user, first, players, 12)
    seed_league(user, second, players[:4], 6)
    return first, second, players


def test_standing_rows_equal_the_orm_query(leagues: tuple[League, League, list[Player]]) -> None:
    first, second, players = leagues
    for player in players:
        for ids in (None, [first.pk], [second.pk], [first.pk, second.pk], []):
            assert sorted(standing_rows(player.pk, ids)) == sorted(_orm_standings(player.pk, ids))
    assert standing_rows(players[0].pk, None)  # there is something to compare


def test_series_rows_equal_the_orm_query(leagues: tuple[League, League, list[Player]]) -> None:
    first, second, players = leagues
    scopes = set(RatingPoint.objects.values_list("ruleset", flat=True))
    assert len(scopes) > 1
    for player in players:
        for league in (first, second):
            for scope in scopes:
                expected = list(
                    RatingPoint.objects.filter(
                        player=player, league=league, ruleset=scope, game_id__isnull=False
                    )
                    .order_by("played_at", "game_id")
                    .values_list("rating", "won", "games", "prior_mu", "prior_sigma")
                )
                assert series_rows(player.pk, league.pk, scope) == expected


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
