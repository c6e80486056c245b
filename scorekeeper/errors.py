"""Domain errors of the Django side (the engine's are games.RuleError / CardError)."""

from __future__ import annotations


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


class AccountRefused(Exception):
    """An account request the instance's policy refuses: signing up while sign-up is
    closed (``closed``: HTTP 403) or without a usable invitation (HTTP 400 on ``field``),
    or deleting an account whose leagues nobody else could take over."""

    def __init__(self, message: str, field: str = "", *, closed: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.closed = closed
