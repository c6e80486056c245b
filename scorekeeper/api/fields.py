"""Serializer fields the API's inputs share."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

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
