"""Dirty UNO as the pages show it: first past 500 (or, with penalty scoring, lowest)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from rest_framework import serializers

from games import GameState, HandOutcome, Ruleset
from games.base import next_hand_of
from games.cards import UNO_COLOUR_NAMES, UNO_COLOURS, parse_uno, uno_deck
from games.dirty_uno import REMINDER, RESET_AT, TARGET
from games.dirty_uno import card_points as uno_points
from games.state import StandingRow
from scorekeeper.presenters.answers import INT
from scorekeeper.presenters.base import Fact, Gap, LeftInHand

if TYPE_CHECKING:
    from scorekeeper.web.sheet_panel import Panel

UNO_LABELS = {
    "S": pgettext_lazy("UNO card, short", "Skip"),
    "R": pgettext_lazy("UNO card, short for Reverse", "Rev"),
    "+2": "+2",
    "W": pgettext_lazy("UNO card, short", "Wild"),
    "W+4": pgettext_lazy("UNO card, short for Wild Draw Four", "W+4"),
}
#: The scoring option's values as the banner names them.
SCORING_WORDS = {
    "standard": pgettext_lazy("UNO scoring", "standard"),
    "penalty": pgettext_lazy("UNO scoring", "penalty"),
}


class DirtyUnoPresenter(LeftInHand):
    slug = "dirty-uno"
    points_hint = gettext_lazy("Points scored this hand; small: running total.")

    score_meaning = "score"

    def hand_facts(self) -> dict[str, serializers.Field]:
        return {
            "resets": serializers.ListField(
                child=INT(),
                required=False,
                help_text="dirty-uno: players whose score hit exactly 500 and went back to 0.",
            )
        }

    def next_hand_facts(self) -> dict[str, serializers.Field]:
        return {"reminder": serializers.CharField(required=False, help_text="dirty-uno")}

    def game_facts(self) -> dict[str, serializers.Field]:
        return {
            "scoring": serializers.CharField(
                required=False, help_text="dirty-uno: standard or penalty."
            ),
            "wins_with": serializers.CharField(required=False, help_text="dirty-uno: high or low."),
            "target": INT(required=False, help_text="dirty-uno: the score to pass."),
        }

    def goal(self, options: Mapping[str, Any]) -> str:
        if options.get("scoring", "standard") == "penalty":
            return _("a score past 500 ends it; lowest score wins")
        return _("first past 500 wins")

    def game_goal(self, rules: Ruleset) -> str:
        return _("first past 500 wins (penalty scoring: lowest score wins)")

    def banner_facts(
        self, state: GameState, nxt: Mapping[str, Any], names: Mapping[int, str]
    ) -> list[Fact]:
        scoring = str(state.extras.get("scoring", "standard"))
        return [
            Fact(_("Scoring"), str(SCORING_WORDS.get(scoring, scoring))),
            Fact(_("Ends"), _("when a score passes 500")),
        ]

    def cell_note(self, hand: HandOutcome, player: int, points: int, out: bool) -> str:
        return "500 → 0" if player in (hand.extras.get("resets") or []) else ""

    def need(self, state: GameState, row: StandingRow, gap: Gap) -> str:
        to_pass = TARGET + 1 - int(row.score)
        if state.config.options.get("scoring", "standard") == "penalty":
            return _("%(gap)s · %(n)s from passing %(target)s") % {
                "gap": gap.text(),
                "n": to_pass,
                "target": TARGET,
            }
        return _("needs %(n)s to pass %(target)s") % {"n": to_pass, "target": TARGET}

    def fill_panel(
        self,
        panel: Panel,
        state: GameState,
        facts: Mapping[str, Any],
        previous: Mapping[int, int] | None,
        game_pk: int,
    ) -> None:
        reminder = str(state.next_hand.get("reminder", "")) if state.next_hand else ""
        panel.reminder = _(reminder) if reminder else ""

    def hand_ahead(self, state: GameState, number: int) -> Mapping[str, Any] | None:
        # Every hand is played alike until a score passes 500 (which only the server sees).
        return next_hand_of(state.config, number - 1, reminder=REMINDER)

    def provisional(self, state: GameState) -> dict[str, Any] | None:
        # A total landing on exactly 500 goes back to 0 (the engine's RESET_AT): the
        # phone applies it to the running totals as the engine does, hand by hand.
        penalty = state.config.options.get("scoring", "standard") == "penalty"
        return {"points": "left" if penalty else "takes", "totals": True, "reset_at": RESET_AT}

    def card_pad(self, state: GameState, facts: Mapping[str, Any]) -> dict[str, Any]:
        values = []
        for value in ["1", "2", "3", "4", "5", "6", "8", "9", "0", "7", "S", "R", "+2", "W", "W+4"]:
            wild = value.startswith("W")
            card = parse_uno(value if wild else f"R{value}")
            values.append(
                {
                    "key": value,
                    "label": str(UNO_LABELS.get(value, value)),
                    "points": uno_points(card),
                    "marked": False,
                    "suited": not wild,
                }
            )
        return {
            "kind": "uno",
            "values": values,
            "suits": [
                {"key": c, "label": _(UNO_COLOUR_NAMES[c]).capitalize(), "red": False}
                for c in UNO_COLOURS
            ],
            "deck": dict(uno_deck()),
            "deck_name": _("the UNO deck"),
            "scoring": str(state.config.options.get("scoring", "standard")),
            "marked_as": "",
        }
