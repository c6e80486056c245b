"""A hand's input as a game takes it in: the score sheet's entry form and the API's body.

Each game's presenter names its entry form (``Presenter.entry_form``, a
:class:`HandForm`), built for the game's seats. It reads a page's post and yields
exactly the dict that ``POST /api/v1/games/{id}/hands/`` takes, so the same services
(and the engine behind them) check and score both; and it is filled back from a stored
hand's input, to correct the hand or enter an undone one again. Nothing here validates
the rules: every value is passed on as typed (stripped) and the engine names the
problem, so no post, however odd (NUL characters, huge numbers, a field sent twice),
makes the form fail.

Each presenter also names the serializer that documents its game's hand body in the
API's schema (``Presenter.hand_serializer``); the one the games scored from the cards
left in hand share is here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from django import forms
from django.http import QueryDict
from rest_framework import serializers

from games.inputs import whole_number

# -- fields that take any value as typed ---------------------------------------------------


class Typed(forms.CharField):
    """A value as typed, stripped; "" when blank. Never refused: Django's check for NUL
    characters is left to the engine, which refuses such a value by its field."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)
        self.validators = []

    def as_data(self, value: Any) -> list[str]:
        """A stored value as the form posts it (a list of cards as one line)."""
        if isinstance(value, list | tuple):
            return [" ".join(str(v) for v in value)]
        return [str(value)]


class TypedList(forms.Field):
    """Every value sent under the name (checkboxes), blanks left out."""

    widget = forms.MultipleHiddenInput

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> list[str]:
        if value in self.empty_values:
            return []
        values = value if isinstance(value, list | tuple) else [value]
        return [str(v) for v in values if str(v).strip()]

    def as_data(self, value: Any) -> list[str]:
        return [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]


class Flag(forms.Field):
    """A checkbox: on when sent as "1", "on" or "true" (anything else is off)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> bool:
        return str(value or "").strip().lower() in {"1", "on", "true"}

    def as_data(self, value: Any) -> list[str]:
        return ["1"] if value else []


# -- the entry forms -----------------------------------------------------------------------


class HandForm(forms.Form):
    """A hand's entry form: who won it. A game's form adds its own fields, and the
    fields each player has (``player_fields``, posted as ``<name>_<player id>``)."""

    winner = Typed()

    #: The fields each player of the hand has, e.g. ``cards`` (``cards_<player id>``).
    player_fields: ClassVar[tuple[str, ...]] = ()

    def __init__(self, players: Sequence[int], data: Mapping[str, Any] | None = None) -> None:
        # Always bound: a blank form is one posted empty, so its values read alike.
        super().__init__(data=QueryDict() if data is None else data)
        self.players = list(players)
        for player in self.players:
            for name in self.player_fields:
                self.fields[f"{name}_{player}"] = Typed()

    @classmethod
    def from_input(cls, players: Sequence[int], hand_input: Mapping[str, Any]) -> Self:
        """The form as it would have been posted for a stored (normalised) hand input."""
        data = QueryDict(mutable=True)
        for name, field in cls.base_fields.items():
            value = hand_input.get(name)
            if value is not None and value != "" and isinstance(field, Typed | TypedList | Flag):
                data.setlist(name, field.as_data(value))
        results = hand_input.get("results")
        for result in results if isinstance(results, list) else []:
            player = whole_number(result.get("player")) if isinstance(result, dict) else None
            if player is None:
                continue
            for name in cls.player_fields:
                if result.get(name) is not None:
                    data.setlist(f"{name}_{player}", Typed().as_data(result[name]))
        return cls(players, data)

    @property
    def typed(self) -> dict[str, Any]:
        """Every value as typed (stripped), by field name: what the page shows again."""
        self.is_valid()  # no field refuses a value: every one is cleaned
        return self.cleaned_data

    def value(self, name: str) -> Any:
        return self.typed.get(name, "")

    def for_player(self, player: int) -> dict[str, str]:
        """The values of ``player``'s fields, by the field's name without the id."""
        return {name: self.value(f"{name}_{player}") for name in self.player_fields}

    def hand_input(self) -> dict[str, Any]:
        """The API body of ``POST /games/{id}/hands/`` for what the form holds."""
        return {"winner": self.value("winner") or None}


class LeftInHandForm(HandForm):
    """Who went out, and the cards (or the points) left in every other player's hand."""

    player_fields = ("cards", "points")

    def hand_input(self) -> dict[str, Any]:
        winner = self.value("winner")
        results: list[dict[str, Any]] = []
        for p in self.players:
            row = self.for_player(p)
            result: dict[str, Any] = {"player": p}
            if row["cards"]:
                result["cards"] = row["cards"].replace(",", " ").split()
            if row["points"]:
                result["points"] = row["points"]
            # The player who went out needs no line; one with something typed keeps it,
            # so the engine can say that whoever went out holds nothing.
            if str(p) == winner and len(result) == 1:
                continue
            results.append(result)
        return {"winner": winner or None, "results": results}


# -- the API's hand body of the games scored from the cards left in hand -------------------


class SheddingResultSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    cards = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text=(
            'Cards left in hand, e.g. ["JK", "4H"]; a rank or UNO value alone ("4", "7") '
            "when the suit or colour was not noted."
        ),
    )
    points = serializers.IntegerField(
        min_value=0, required=False, help_text="Points the table counted (not with cards)."
    )


class SheddingHandSerializer(serializers.Serializer):
    """dirt, dirty-uno"""

    winner = serializers.IntegerField(help_text="Who went out.")
    results = SheddingResultSerializer(many=True, help_text="Every player but the winner.")
