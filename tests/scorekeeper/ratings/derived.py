"""What the ratings tests compare: a league's standings and rating points as plain
values, the ratings openskill gives by hand, and the same state after a rebuild."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from scorekeeper.models import League, Player, PlayerStanding, RatingPoint
from scorekeeper.ratings.rebuild import league_stats_rebuild

Ranking = Sequence[tuple[Sequence[Player], int]]


def expected_ratings(rankings: Sequence[Ranking]) -> dict[int, tuple[float, float]]:
    """openskill applied by hand, game after game: (mu, sigma) per player id."""
    model = PlackettLuce()
    state: dict[int, tuple[float, float]] = {}
    for ranking in rankings:
        teams = [
            [model.rating(*state.get(p.pk, (model.mu, model.sigma))) for p in group]
            for group, _ in ranking
        ]
        rated = model.rate(teams, ranks=[float(place) for _, place in ranking])
        for (group, _), new in zip(ranking, rated, strict=True):
            for player, r in zip(group, new, strict=True):
                state[player.pk] = (r.mu, r.sigma)
    return state


def snapshot(league: League) -> dict[tuple[str, int], tuple[int, int, int, float, float]]:
    return {
        (s.ruleset, s.player_id): (s.games, s.wins, s.place_sum, s.mu, s.sigma)
        for s in PlayerStanding.objects.filter(league=league)
    }


def points(league: League) -> list[tuple[str, int, int | None, int, float]]:
    return sorted(
        RatingPoint.objects.filter(league=league).values_list(
            "ruleset", "player_id", "game_id", "place", "rating"
        )
    )


def assert_same_as_rebuild(league: League) -> None:
    before, before_points = snapshot(league), points(league)
    league_stats_rebuild(league)
    assert snapshot(league) == before
    assert points(league) == before_points
