"""The base of the API's output serializers, here so that each game's presenter can
declare the facts its game adds to the API's answers (``Presenter.hand_facts`` and the
like) with the same base the API uses (``scorekeeper.api.fields`` re-exports it)."""

from __future__ import annotations

import copy
from typing import Any, NoReturn

from rest_framework import serializers
from rest_framework.fields import SkipField

INT = serializers.IntegerField


def left_out() -> NoReturn:
    """``default=left_out``: an output field that may be null is left out of the answer
    when the object has no such key at all (DRF answers null for a nullable field then)."""
    raise SkipField()


#: Each output serializer's fields as DRF's ``get_fields`` builds them, once per class.
BUILT_FIELDS: dict[type[serializers.Serializer], dict[str, serializers.Field]] = {}


class OutputSerializer(serializers.Serializer):
    # Makes answers, reads no input. (No docstring: the schema would show it on every
    # answer.) DRF's get_fields deep-copies the declared fields for each instance, so
    # that one may change its own: a game's hundred fields and nested serializers were
    # built anew for every answer, which cost more than the answer (3 × a game's, 6 × a
    # hand's). Answering never changes a field, so they are built once per class and
    # each instance binds shallow copies; and of the fields that are not required, only
    # those its objects have (``facts``), not looked for on each of hundreds of hands.

    def facts(self, instance: Any) -> set[str] | None:
        """The optional fields that ``instance`` (an object, or a list of them) has;
        None to look for each of them on every object."""
        return None

    def get_fields(self) -> dict[str, serializers.Field]:
        built = BUILT_FIELDS.get(type(self))
        if built is None:
            built = BUILT_FIELDS[type(self)] = super().get_fields()
        facts = None if self.instance is None else self.facts(self.instance)
        return {
            name: copy.copy(field)
            for name, field in built.items()
            if facts is None or field.required or name in facts
        }


def shape(name: str, **fields: serializers.Field) -> type[OutputSerializer]:
    """A small answer's serializer (its schema component is ``name``)."""
    return type(f"{name}Serializer", (OutputSerializer,), fields)
