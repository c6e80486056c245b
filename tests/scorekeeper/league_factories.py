"""Games played through the real services, for the league tests."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from scorekeeper.models import Game, League, Player
from scorekeeper.services.games import game_close, game_create, hand_record

SYN = "screw-your-neighbour"


def play_syn(
    owner: User,
    league: League | None,
    players: Sequence[Player],
    winners: Sequence[Player],
    *,
    target: int = 1,
    close: bool = False,
    minutes_ago: int | None = None,
) -> Game:
    """A Screw Your Neighbour game: one hand per entry of ``winners``. With the default
    target of one hand win the first hand ends it (its winner first, everyone else
    sharing second place)."""
    game = game_create(
        owner=owner, ruleset=SYN, players=[p.pk for p in players],
        options={"target_wins": target}, league=league,
    )  # fmt: skip
    _backdate(game, minutes_ago)
    for winner in winners:
        hand_record(game=game, user=None, hand_input={"winner": winner.pk})
    if close:
        game_close(game=game, user=None)
    game.refresh_from_db()
    return game


def dirt_hand(winner: Player, points: dict[Player, int]) -> dict[str, Any]:
    return {
        "winner": winner.pk,
        "results": [{"player": p.pk, "points": n} for p, n in points.items()],
    }


def play_partner_dirt(
    owner: User, league: League | None, team_a: Sequence[Player], team_b: Sequence[Player],
    hands: Sequence[dict[str, Any]], *, minutes_ago: int | None = None,
) -> Game:  # fmt: skip
    """Partner Dirt (Tiny Baby Dirt, three hands) between two teams seated alternately."""
    seating = [p for pair in zip(team_a, team_b, strict=True) for p in pair]
    game = game_create(
        owner=owner, ruleset="dirt", variant="tiny-baby-down",
        players=[p.pk for p in seating],
        teams=[[p.pk for p in team_a], [p.pk for p in team_b]], league=league,
    )  # fmt: skip
    _backdate(game, minutes_ago)
    for hand in hands:
        hand_record(game=game, user=None, hand_input=hand)
    game.refresh_from_db()
    return game


def _backdate(game: Game, minutes_ago: int | None) -> None:
    if minutes_ago is not None:
        Game.objects.filter(pk=game.pk).update(
            created_at=timezone.now() - timedelta(minutes=minutes_ago)
        )
        game.refresh_from_db()


def seed_league(owner: User, league: League, players: Sequence[Player], games: int) -> None:
    """A league with some history, oldest first: Screw Your Neighbour among rotating
    tables of four, and every fifth game a Partner Dirt match."""
    n = len(players)
    # Counted back from 00:50 of the day before, not from now: which games share a night
    # (the rating race's) is then the same whatever the hour the tests run at.
    anchor = timezone.localtime().replace(hour=0, minute=50, second=0, microsecond=0)
    offset = int((timezone.now() - (anchor - timedelta(days=1))).total_seconds() // 60)
    for i in range(games):
        table = [players[(i * 3 + k) % n] for k in range(4)]
        minutes_ago = offset + (games - i) * 60
        if i % 5 == 4:
            a, b, c, d = table
            out = table[i % 4]
            hand = dirt_hand(out, {p: 3 + (i + j) % 7 for j, p in enumerate(table) if p != out})
            play_partner_dirt(owner, league, [a, c], [b, d], [hand] * 3, minutes_ago=minutes_ago)
        else:
            winners = [table[(i + k * k) % 4] for k in range(3)]
            play_syn(owner, league, table, winners, target=2, minutes_ago=minutes_ago)
