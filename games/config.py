"""What is fixed when a game starts: its variant, its house-rule options and the
configuration of seats, teams and first dealer (with the dealer rotation)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.errors import JSON, RuleError, Words
from games.i18n import Count
from games.i18n import gettext_noop as _
from games.inputs import whole_number


@dataclass(frozen=True)
class Variant:
    slug: str
    name: str
    hands: int | None
    description: str = ""

    def as_dict(self) -> dict[str, JSON]:
        return {
            "slug": self.slug,
            "name": self.name,
            "hands": self.hands,
            "description": self.description,
        }


@dataclass(frozen=True)
class Option:
    """A house-rule option. ``choices`` lists the accepted values; an integer option with
    a wide range lists suggested values and bounds the rest with ``minimum``/``maximum``;
    a text option (``max_length`` set, no choices) takes the table's own words, one line
    or (``multiline``) several, and must be given when ``required``."""

    name: str
    label: str
    default: int | str | None
    choices: tuple[int | str, ...]
    help: str
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None
    multiline: bool = False
    required: bool = False

    @property
    def kind(self) -> str:
        """ "text", "number" (a whole number between bounds) or "choice"."""
        if self.max_length is not None:
            return "text"
        return "number" if self.minimum is not None else "choice"

    def as_dict(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "default": self.default,
            "choices": list(self.choices),
            "label": self.label,
            "help": self.help,
        }
        if self.minimum is not None:
            data["min"] = self.minimum
            data["max"] = self.maximum
        if self.max_length is not None:
            data["kind"] = "text"
            data["max_length"] = self.max_length
            data["multiline"] = self.multiline
            data["required"] = self.required
        return data

    def clean(self, value: object) -> int | str:
        if self.max_length is not None:
            return self.clean_text(value)
        if self.minimum is not None:
            number = whole_number(value)
            if number is None:
                raise self._refuse(_("%(option)s: must be a whole number"))
            assert self.maximum is not None
            if not self.minimum <= number <= self.maximum:
                raise self._refuse(
                    _("%(option)s: must be between %(min)s and %(max)s"),
                    min=self.minimum,
                    max=self.maximum,
                )
            return number
        for choice in self.choices:
            if value == choice or (
                isinstance(choice, int)
                and not isinstance(value, bool)
                and str(value) == str(choice)
            ):
                return choice
        allowed = ", ".join(str(c) for c in self.choices)
        raise self._refuse(
            _("%(option)s: must be one of %(allowed)s (got %(typed)s)"),
            allowed=allowed,
            typed=repr(value),
        )

    def _refuse(self, template: str, **params: object) -> RuleError:
        """A refusal of a value for this option, its name first (a marked template)."""
        return RuleError(Words.of(template, option=self.name, **params), "options")

    def clean_text(self, value: object) -> str:
        """The table's words, stripped (line ends as "\\n"): text of at most
        ``max_length`` characters, one line unless ``multiline``, no control characters."""
        assert self.max_length is not None
        if value is None:
            value = ""
        if not isinstance(value, str):
            raise self._refuse(_("%(option)s: must be text"))
        text = value.replace("\r\n", "\n").replace("\r", "\n").strip()
        if not self.multiline:
            text = " ".join(text.split())
        if any((ord(c) < 32 and c not in "\n\t") or ord(c) == 127 for c in text):
            raise self._refuse(_("%(option)s: must not hold control characters"))
        if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
            raise self._refuse(_("%(option)s: must be text (a lone surrogate)"))
        if self.required and not text:
            raise self._refuse(_("%(option)s: is required"))
        if len(text) > self.max_length:
            raise self._refuse(
                _("%(option)s: must be at most %(most)s characters (got %(count)s)"),
                most=Count(self.max_length),
                count=Count(len(text)),
            )
        return text


@dataclass(frozen=True)
class GameConfig:
    """Everything fixed when a game starts. Players are ids in clockwise seat order."""

    ruleset: str
    players: tuple[int, ...]
    variant: str | None
    options: Mapping[str, JSON]
    teams: tuple[tuple[int, ...], ...] | None = None
    first_dealer: int | None = None

    @property
    def dealer_seat0(self) -> int:
        return self.players.index(self.first_dealer) if self.first_dealer is not None else 0

    def dealer_for(self, number: int) -> int:
        """The dealer of hand ``number`` (1-based): the deal moves one seat clockwise a hand."""
        return self.players[(self.dealer_seat0 + number - 1) % len(self.players)]

    def seat_of(self, player: int) -> int:
        return self.players.index(player)

    def left_of(self, player: int, steps: int = 1) -> int:
        """The player ``steps`` seats clockwise (to the left) of ``player``."""
        return self.players[(self.seat_of(player) + steps) % len(self.players)]

    def team_of(self, player: int) -> int | None:
        if not self.teams:
            return None
        for index, team in enumerate(self.teams):
            if player in team:
                return index
        return None

    def as_dict(self) -> dict[str, JSON]:
        return {
            "ruleset": self.ruleset,
            "players": list(self.players),
            "variant": self.variant,
            "options": dict(self.options),
            "teams": [list(t) for t in self.teams] if self.teams else None,
            "first_dealer": self.first_dealer,
        }
