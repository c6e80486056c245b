"""Reads about one account: what its owner may download ("my data") and the API tokens
it holds."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Prefetch, Q, QuerySet
from rest_framework.authtoken.models import Token

from scorekeeper.models import Game, Hand, League, Player, Seat, SignupInvitation

#: Bumped when the download's shape changes.
ACCOUNT_DATA_VERSION = 1


def _when(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def account_tokens(user: User) -> QuerySet[Token]:
    """The API tokens ``user`` holds (DRF keeps one per account)."""
    return Token.objects.filter(user=user)


def account_invitations(user: User) -> QuerySet[SignupInvitation]:
    return SignupInvitation.objects.filter(created_by=user)


def _game(game: Game, user_id: int) -> dict[str, Any]:
    return {
        "id": game.pk,
        "ruleset": game.ruleset,
        "variant": game.variant,
        "options": game.options,
        "teams": game.teams,
        "league": game.league_id,
        "owned": game.owner_id == user_id,
        "status": game.status,
        "closed": game.closed,
        "created_at": _when(game.created_at),
        "finished_at": _when(game.finished_at),
        "seats": [
            {
                "player": seat.player_id,
                "name": seat.player.name,
                "position": seat.position,
                "team": seat.team,
                "score": seat.score,
                "place": seat.place,
                "won": seat.won,
            }
            for seat in game.seats.all()
        ],
        "hands": [
            {"number": hand.number, "input": hand.input, "created_at": _when(hand.created_at)}
            for hand in game.hands.all()
        ],
    }


def account_data(user: User) -> dict[str, Any]:
    """Everything the instance keeps about ``user`` that is theirs to take away: the
    account, their players (their own and those they created), their leagues, and every
    game they own or sat at, with its hands as the table reported them."""
    players = Player.objects.filter(Q(user=user) | Q(created_by=user)).order_by("pk")
    leagues = (
        League.objects.filter(Q(owner=user) | Q(memberships__player__user=user))
        .distinct()
        .order_by("pk")
        .prefetch_related("memberships__player")
    )
    games = (
        Game.objects.filter(Q(owner=user) | Q(seats__player__user=user))
        .distinct()
        .order_by("pk")
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("player").order_by("position")),
            Prefetch("hands", Hand.objects.only("game_id", "number", "input", "created_at")),
        )
    )
    return {
        "format": "scorekeeper-account",
        "version": ACCOUNT_DATA_VERSION,
        "account": {
            "username": user.get_username(),
            "name": user.first_name,
            "email": user.email,
            "date_joined": _when(user.date_joined),
            "last_login": _when(user.last_login),
        },
        "players": [
            {
                "id": player.pk,
                "name": player.name,
                "mine": player.user_id == user.pk,
                "created_at": _when(player.created_at),
            }
            for player in players
        ],
        "leagues": [
            {
                "id": league.pk,
                "name": league.name,
                "owned": league.owner_id == user.pk,
                "created_at": _when(league.created_at),
                "members": [
                    {"player": m.player_id, "name": m.player.name, "joined_at": _when(m.joined_at)}
                    for m in league.memberships.all()
                ],
            }
            for league in leagues
        ],
        "games": [_game(game, user.pk) for game in games.iterator(chunk_size=200)],
    }
