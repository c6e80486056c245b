"""Domain errors of the Django side (the engine's are games.RuleError / CardError)."""

from __future__ import annotations

from collections.abc import Iterable

from games.plausible import Unlikely


class ConflictError(Exception):
    """The request is valid but clashes with the game's state (HTTP 409): a hand for a
    finished game, deleting a hand that is not the last, a correction that would end the
    game before hands that follow it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleHandError(ConflictError):
    """The hand was entered as number N, but hand N was already recorded (by another
    phone): saving it as N+1 would double a hand, so nothing is saved."""


class IdempotencyKeyReused(Exception):
    """An ``Idempotency-Key`` already used on the game came with a different body
    (HTTP 422): replaying the first response would answer a request never made."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnlikelyHand(Exception):
    """A hand far above the table's usual (``games.plausible``), not confirmed: nothing
    was written. ``token`` is what confirming it sends back (``confirm=``)."""

    def __init__(self, items: list[Unlikely]) -> None:
        super().__init__("an unlikely hand, not confirmed")
        self.items = items

    @property
    def token(self) -> str:
        return confirm_token(self.items)


def confirm_token(items: Iterable[Unlikely]) -> str:
    return " ".join(sorted(item.token for item in items))
