"""Serializer fields the API's inputs and outputs share, and the base of its output
serializers (``scorekeeper.presenters.answers``, where the games' presenters declare
their facts with it)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from games.base import whole_number
from scorekeeper.presenters.answers import BUILT_FIELDS, OutputSerializer, left_out
from scorekeeper.validation import MAX_ID

__all__ = ["BUILT_FIELDS", "IdField", "OutputSerializer", "left_out"]


class IdField(serializers.IntegerField):
    """A database id: a whole number in the range of the id columns (a bigger number
    would overflow the database's integers rather than just match nothing)."""

    default_error_messages = {
        "min_value": gettext_lazy("ids are whole numbers from 1"),
        "max_value": gettext_lazy("there is no such id"),
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=1, max_value=MAX_ID, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        # DRF's IntegerField reads "٣" (int() does) and "1.0": an id is ASCII digits.
        if isinstance(data, str) and whole_number(data) is None:
            self.fail("invalid")
        return int(super().to_internal_value(data))
