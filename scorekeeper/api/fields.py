"""Serializer fields the API's inputs and outputs share."""

from __future__ import annotations

from typing import Any, NoReturn

from rest_framework import serializers
from rest_framework.fields import SkipField

from games.base import whole_number
from scorekeeper.validation import MAX_ID


class IdField(serializers.IntegerField):
    """A database id: a whole number in the range of the id columns (a bigger number
    would overflow the database's integers rather than just match nothing)."""

    default_error_messages = {
        "min_value": "ids are whole numbers from 1",
        "max_value": "there is no such id",
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=1, max_value=MAX_ID, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        # DRF's IntegerField reads "٣" (int() does) and "1.0": an id is ASCII digits.
        if isinstance(data, str) and whole_number(data) is None:
            self.fail("invalid")
        return int(super().to_internal_value(data))


def left_out() -> NoReturn:
    """``default=left_out``: an output field that may be null is left out of the answer
    when the object has no such key at all (DRF answers null for a nullable field then)."""
    raise SkipField()
