"""Any other game of the evening as the pages show it: the table's own game, its name
and its points per player, highest or lowest wins (``games.custom``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from rest_framework import serializers

from games import GameState, Ruleset
from games.base import next_hand_of
from games.custom import MAX_POINTS
from games.state import StandingRow
from scorekeeper.presenters.base import Fact, Gap, Presenter
from scorekeeper.presenters.hand_input import HandForm


class PointsForm(HandForm):
    """Every player's points for the hand, as typed (negatives too); a blank stays
    out, so the engine says whose points are missing."""

    player_fields = ("points",)

    @classmethod
    def from_input(cls, players: Any, hand_input: Mapping[str, Any]) -> PointsForm:
        scores = hand_input.get("scores")
        return super().from_input(players, {"results": scores if isinstance(scores, list) else []})

    def hand_input(self) -> dict[str, Any]:
        scores = []
        for p in self.players:
            typed = self.value(f"points_{p}")
            if typed != "":
                scores.append({"player": p, "points": typed.replace("\u2212", "-")})
        return {"scores": scores}


class CustomScoreSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    points = serializers.IntegerField(
        min_value=-MAX_POINTS, max_value=MAX_POINTS, help_text="The hand's points, negatives too."
    )


class CustomHandSerializer(serializers.Serializer):
    """custom"""

    scores = CustomScoreSerializer(many=True, help_text="Every player once.")


def _end_words(options: Mapping[str, Any]) -> str:
    end = options.get("end", "target")
    if end == "rounds":
        rounds = options.get("rounds", 5)
        return ngettext("after %(n)s round", "after %(n)s rounds", int(rounds)) % {"n": rounds}
    if end == "open":
        return _("when you close it")
    return _("when a total reaches %(target)s") % {"target": options.get("target", 100)}


class CustomPresenter(Presenter):
    slug = "custom"
    entry_template = "games/_entry_custom.html"
    per_player_entry = True
    entry_form = PointsForm
    hand_serializer = CustomHandSerializer
    points_hint = gettext_lazy("Points scored this hand; small: running total.")

    score_meaning = "total points"

    def hand_examples(self) -> dict[str, dict[str, Any]]:
        return {
            "custom": {
                "scores": [
                    {"player": 1, "points": 13},
                    {"player": 2, "points": -5},
                    {"player": 3, "points": 0},
                ]
            }
        }

    def goal(self, options: Mapping[str, Any]) -> str:
        if options.get("winner") == "low":
            return _("lowest total wins; ends %(end)s") % {"end": _end_words(options)}
        return _("highest total wins; ends %(end)s") % {"end": _end_words(options)}

    def game_goal(self, rules: Ruleset) -> str:
        return _("you name it: highest or lowest total, to a target, rounds or open")

    def hands_total(self, state: GameState) -> int | None:
        if state.config.options.get("end") == "rounds":
            return int(state.config.options.get("rounds") or 5)
        return None

    def option_choice(self, option: str, choice: int | str) -> str:
        words = {
            ("winner", "high"): _("highest total wins"),
            ("winner", "low"): _("lowest total wins"),
            ("end", "target"): _("at a target total"),
            ("end", "rounds"): _("after a number of rounds"),
            ("end", "open"): _("open: when you close it"),
        }
        return words.get((option, str(choice)), str(choice))

    def banner_facts(
        self, state: GameState, nxt: Mapping[str, Any], names: Mapping[int, str]
    ) -> list[Fact]:
        options = state.config.options
        wins = _("lowest total") if options.get("winner") == "low" else _("highest total")
        return [
            Fact(pgettext("banner: who wins", "Wins"), wins),
            Fact(_("Ends"), _end_words(options)),
        ]

    def need(self, state: GameState, row: StandingRow, gap: Gap) -> str:
        options = state.config.options
        if options.get("end") == "target" and options.get("winner") != "low":
            left = int(options.get("target") or 100) - int(row.score)
            if left > 0:
                return _("%(gap)s · %(n)s to the target") % {"gap": gap.text(), "n": left}
            return gap.text()
        return gap.text()

    def hand_ahead(self, state: GameState, number: int) -> Mapping[str, Any] | None:
        # Nothing but the deal changes from hand to hand.
        return next_hand_of(state.config, number - 1)

    def provisional(self, state: GameState) -> dict[str, Any] | None:
        # Each player scores what was entered for them.
        return {"points": "entered", "totals": True}

    def fix_anchor(self, player: int, form: HandForm | None) -> str:
        return f"points_{player}"
