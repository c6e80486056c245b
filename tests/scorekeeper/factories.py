"""Plain factory functions for the Django side's tests."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from scorekeeper.models import Game, League, Membership, Player
from scorekeeper.services.games import game_create


def make_user(username: str, password: str = "table-talk-42") -> User:
    return User.objects.create_user(username, password=password)


def make_player(name: str, *, created_by: User | None = None, user: User | None = None) -> Player:
    return Player.objects.create(name=name, created_by=created_by, user=user)


def make_players(*names: str, created_by: User | None = None) -> list[Player]:
    return [make_player(n, created_by=created_by) for n in names]


def make_game(owner: User, ruleset: str, players: list[Player], **kwargs: Any) -> Game:
    return game_create(owner=owner, ruleset=ruleset, players=[p.pk for p in players], **kwargs)


def make_league(
    owner: User, name: str = "Thursday table", members: list[Player] | None = None
) -> League:
    league = League.objects.create(name=name, owner=owner)
    for player in members or []:
        Membership.objects.create(league=league, player=player)
    return league
