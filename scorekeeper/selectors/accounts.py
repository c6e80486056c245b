"""Reads about one account: what its owner may download ("my data") and the API tokens
it holds."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Q, QuerySet
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


#: Games read per round trip while the download is written: its memory stays flat
#: however many games the account has.
ACCOUNT_DATA_CHUNK = 100


def _account_head(user: User) -> dict[str, Any]:
    """The download but its games: the account, its players and its leagues."""
    players = Player.objects.filter(Q(user=user) | Q(created_by=user)).order_by("pk")
    leagues = (
        League.objects.filter(Q(owner=user) | Q(memberships__player__user=user))
        .distinct()
        .order_by("pk")
        .prefetch_related("memberships__player")
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
    }


def _account_games(user: User) -> Iterator[dict[str, Any]]:
    """Every game ``user`` owns or sat at, by id, with its seats (clockwise) and hands
    (by number): plain rows read a chunk of games at a time."""
    ids = list(
        Game.objects.filter(Q(owner=user) | Q(seats__player__user=user))
        .order_by("pk")
        .values_list("pk", flat=True)
        .distinct()
    )
    for start in range(0, len(ids), ACCOUNT_DATA_CHUNK):
        chunk = ids[start : start + ACCOUNT_DATA_CHUNK]
        seats_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for seat in (
            Seat.objects.filter(game_id__in=chunk)
            .order_by("game_id", "position")
            .values(
                "game_id", "player_id", "player__name", "position", "team", "score", "place", "won"
            )
        ):
            seats_of[seat["game_id"]].append(
                {
                    "player": seat["player_id"],
                    "name": seat["player__name"],
                    "position": seat["position"],
                    "team": seat["team"],
                    "score": seat["score"],
                    "place": seat["place"],
                    "won": seat["won"],
                }
            )
        hands_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for hand in (
            Hand.objects.filter(game_id__in=chunk)
            .order_by("game_id", "number")
            .values("game_id", "number", "input", "created_at")
        ):
            hands_of[hand["game_id"]].append(
                {
                    "number": hand["number"],
                    "input": hand["input"],
                    "created_at": _when(hand["created_at"]),
                }
            )
        games = Game.objects.filter(pk__in=chunk).order_by("pk")
        for game in games.values(
            "id", "ruleset", "variant", "options", "teams", "league_id", "owner_id", "status",
            "closed", "created_at", "finished_at",
        ):  # fmt: skip
            yield {
                "id": game["id"],
                "ruleset": game["ruleset"],
                "variant": game["variant"],
                "options": game["options"],
                "teams": game["teams"],
                "league": game["league_id"],
                "owned": game["owner_id"] == user.pk,
                "status": game["status"],
                "closed": game["closed"],
                "created_at": _when(game["created_at"]),
                "finished_at": _when(game["finished_at"]),
                "seats": seats_of[game["id"]],
                "hands": hands_of[game["id"]],
            }


def _nested(text: str, depth: int) -> str:
    """JSON written with ``indent=1`` moved ``depth`` levels in, as it would sit inside
    an outer document (JSON text holds no raw newline inside a string)."""
    return text.replace("\n", "\n" + " " * depth)


def account_data_pieces(user: User) -> Iterator[str]:
    """Everything the instance keeps about ``user`` that is theirs to take away — the
    account, their players (their own and those they created), their leagues, and every
    game they own or sat at, with its hands as the table reported them — as JSON
    (``indent=1``) written a game at a time, to stream: the same text as one
    ``json.dumps`` of the whole, in memory that does not grow with the account."""
    head = json.dumps(_account_head(user), cls=DjangoJSONEncoder, indent=1)
    yield head[: -len("\n}")] + ',\n "games": ['
    count = 0
    for count, game in enumerate(_account_games(user), start=1):
        text = json.dumps(game, cls=DjangoJSONEncoder, indent=1)
        yield ("," if count > 1 else "") + "\n  " + _nested(text, 2)
    yield "\n ]\n}" if count else "]\n}"
