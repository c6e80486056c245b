"""Storing a new hand row with its "recorded" revision, in one statement on PostgreSQL."""

from __future__ import annotations

import json

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Max
from django.utils import timezone

from games import HandOutcome
from scorekeeper.models import Game, Guest, Hand, HandAction, HandRevision
from scorekeeper.selectors.games import derived_of


def insert_hand(
    game: Game, outcome: HandOutcome, user: User | None, guest: Guest | None = None
) -> Hand:
    """Store a new hand and its "recorded" revision. A hand number that was undone and
    is recorded again continues its history. On PostgreSQL one statement does it all
    (the revision number, both inserts): the ORM's three queries cost a hand POST more
    CPU than everything else it does."""
    hand = Hand(
        game=game,
        number=outcome.number,
        input=dict(outcome.input),
        derived=derived_of(outcome),
        created_by=user,
        created_at=timezone.now(),
    )
    if connection.vendor != "postgresql":
        hand.revision = 1 + (
            HandRevision.objects.filter(game=game, number=hand.number).aggregate(
                last=Max("revision")
            )["last"]
            or 0
        )
        hand.save()
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
    hands = connection.ops.quote_name(Hand._meta.db_table)
    revisions = connection.ops.quote_name(HandRevision._meta.db_table)
    user_id = user.pk if user is not None else None
    with connection.cursor() as cursor:
        cursor.execute(
            f"""WITH rev AS (
                  SELECT coalesce(max(revision), 0) + 1 AS revision FROM {revisions}
                  WHERE game_id = %(game)s AND number = %(number)s),
                hand AS (
                  INSERT INTO {hands} (game_id, number, input, derived, revision,
                                       created_by_id, created_at, updated_at)
                  SELECT %(game)s, %(number)s, %(input)s::jsonb, %(derived)s::jsonb,
                         rev.revision, %(user)s, %(at)s, %(at)s FROM rev
                  RETURNING id, revision)
                INSERT INTO {revisions} (game_id, number, revision, action, input, user_id,
                                         guest_id, created_at)
                SELECT %(game)s, %(number)s, hand.revision, %(action)s, %(input)s::jsonb,
                       %(user)s, %(guest)s, %(at)s FROM hand
                RETURNING (SELECT id FROM hand), revision""",
            {
                "game": game.pk,
                "number": hand.number,
                "input": json.dumps(hand.input),
                "derived": json.dumps(hand.derived),
                "user": user_id,
                "guest": guest.pk if guest is not None else None,
                "at": hand.created_at,
                "action": HandAction.RECORDED.value,
            },
        )
        hand.pk, hand.revision = cursor.fetchone()
    hand.updated_at = hand.created_at
    hand._state.adding = False
    hand._state.db = connection.alias
    return hand
