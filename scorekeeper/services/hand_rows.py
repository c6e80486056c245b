"""Storing a new hand row with its "recorded" revision."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Max
from django.utils import timezone

from games import HandOutcome
from scorekeeper.models import Game, Guest, Hand, HandAction, HandRevision
from scorekeeper.selectors.games import derived_of


def insert_hand(
    game: Game,
    outcome: HandOutcome,
    user: User | None,
    guest: Guest | None = None,
    *,
    last_revision: int | None = None,
) -> Hand:
    """Store a new hand and its "recorded" revision, inside the caller's transaction
    (which holds the game's lock). A hand number that was undone and is recorded again
    continues its history: ``last_revision`` is the last revision that number had (0:
    none), read here when the caller does not know it."""
    last = last_revision
    if last is None:
        last = HandRevision.objects.filter(game=game, number=outcome.number).aggregate(
            last=Max("revision")
        )["last"]
    hand = Hand.objects.create(
        game=game,
        number=outcome.number,
        input=dict(outcome.input),
        derived=derived_of(outcome),
        revision=(last or 0) + 1,
        created_by=user,
        created_at=timezone.now(),
    )
    HandRevision.objects.create(
        game=game,
        number=hand.number,
        revision=hand.revision,
        action=HandAction.RECORDED,
        input=hand.input,
        user=user,
        guest=guest,
        created_at=hand.created_at,
    )
    return hand
