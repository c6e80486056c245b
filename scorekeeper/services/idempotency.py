"""Idempotency-Key on hand writes: a retry of the same request replays the first answer;
the same key with another body, or after its hand was undone, is refused."""

from __future__ import annotations

import hashlib
import json

from django.utils.translation import gettext as _

from scorekeeper.errors import ConflictError, IdempotencyKeyReused
from scorekeeper.models import HandAction, HandRevision, IdempotencyRecord


def body_fingerprint(hand_input: object) -> str:
    """A fingerprint of a hand's body as sent: the same JSON (whatever its key order or
    spacing) gives the same hash."""
    try:
        text = json.dumps(hand_input, sort_keys=True, separators=(",", ":"), default=str)
    except (TypeError, ValueError):
        text = repr(hand_input)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def check_replayable(seen: IdempotencyRecord, body_hash: str) -> None:
    """A retry replays the first response only when it is the same request, and only
    while the hand it recorded is still there.

    Another body under a used key is a client bug (422: nothing is recorded). If the
    hand was undone since, replaying "201 hand N" would report a hand that no longer
    exists, and recording the body again would bring back a hand the table took back:
    409, and a new key records it again."""
    if seen.body_hash and seen.body_hash != body_hash:
        raise IdempotencyKeyReused(
            "This Idempotency-Key was already used on this game with a different body: "
            "use a new key for a new hand."
        )
    number, revision = seen.response.get("number"), seen.response.get("revision")
    undone = HandRevision.objects.filter(
        game_id=seen.game_id, number=number, action=HandAction.UNDONE, revision__gt=revision or 0
    )
    if isinstance(number, int) and undone.exists():
        raise ConflictError(
            _(
                "The hand recorded with this Idempotency-Key (hand %(hand)s) was undone since: "
                "nothing was recorded. To record it again, send it with a new key."
            )
            % {"hand": number}
        )
