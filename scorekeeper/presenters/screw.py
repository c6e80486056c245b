"""Screw Your Neighbour as the pages show it: hand wins, to a target or open-ended."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from rest_framework import serializers

from games import GameState, HandOutcome, Ruleset
from games.base import next_hand_of
from games.state import StandingRow
from scorekeeper.presenters.answers import INT
from scorekeeper.presenters.base import Fact, Gap, Presenter, TableTools, kit_tools
from scorekeeper.presenters.hand_input import HandForm


class ScrewYourNeighbourHandSerializer(serializers.Serializer):
    """screw-your-neighbour"""

    winner = serializers.IntegerField(help_text="Who went out first.")


class ScrewPresenter(Presenter):
    slug = "screw-your-neighbour"
    entry_template = "games/_entry_screw.html"
    entry_form = HandForm
    hand_serializer = ScrewYourNeighbourHandSerializer
    points_hint = gettext_lazy("✓ won the hand; small: hand wins.")
    total_label = pgettext_lazy("grid total: hand wins", "Wins")
    chart_title = gettext_lazy("Hand wins")
    unit = pgettext_lazy("scoreboard unit", "wins")

    score_meaning = "hand wins"

    def hand_examples(self) -> dict[str, dict[str, Any]]:
        return {self.slug: {"winner": 3}}

    def game_facts(self) -> dict[str, serializers.Field]:
        return {
            "target_wins": INT(
                required=False, help_text="screw-your-neighbour: wins to win (0: no end)."
            )
        }

    def goal(self, options: Mapping[str, Any]) -> str:
        target = int(options.get("target_wins", 3) or 0)
        if target:
            return ngettext(
                "first to %(target)s hand win", "first to %(target)s hand wins", target
            ) % {"target": target}
        return _("most hand wins")

    def game_goal(self, rules: Ruleset) -> str:
        target = next((o.default for o in rules.options if o.name == "target_wins"), 3)
        return ngettext(
            "first to %(target)s hand win (or the target you set, or none)",
            "first to %(target)s hand wins (or the target you set, or none)",
            int(target or 0),
        ) % {"target": target}

    def final_score(self, row: StandingRow) -> str:
        n = int(row.score)
        return ngettext("%(n)s hand win", "%(n)s hand wins", n) % {"n": n}

    def banner_facts(
        self, state: GameState, nxt: Mapping[str, Any], names: Mapping[int, str]
    ) -> list[Fact]:
        target = int(state.extras.get("target_wins") or 0)
        return [
            Fact(
                _("Target"),
                ngettext("first to %(target)s win", "first to %(target)s wins", target)
                % {"target": target}
                if target
                else _("none — end the game by hand"),
            )
        ]

    def table_tools(
        self, state: GameState, nxt: Mapping[str, Any], names: Mapping[int, str]
    ) -> TableTools:
        # The dealer's red aces are live when their dealt portion came out within two
        # cards, over or short; jacks reverse the direction (``games.table_tools``).
        tools = kit_tools(state, nxt, names) or TableTools()
        tools.red_aces_within = 2
        if state.config.options.get("queen_two_spades") == "yes":
            tools.display_facts.append(Fact(_("Q♠ with 2♠"), _("laid together: pick up seven")))
        return tools

    def cell_points(self, points: int, out: bool) -> str:
        return "✓" if out else ""

    def saved_summary(
        self, hand: HandOutcome, names: Mapping[int, str], corrected: bool = False
    ) -> str:
        return _("Hand %(number)s: %(name)s won it.") % {
            "number": hand.number,
            "name": names.get(hand.winner or 0, "?"),
        }

    def need(self, state: GameState, row: StandingRow, gap: Gap) -> str:
        target = int(state.extras.get("target_wins") or 0)
        if not target:
            return gap.text()
        left = target - int(row.score)
        return ngettext("needs %(n)s more win", "needs %(n)s more wins", left) % {"n": left}

    def line_unit(self, score: int) -> str:
        return ngettext("win", "wins", score)

    def hand_ahead(self, state: GameState, number: int) -> Mapping[str, Any] | None:
        # Nothing but the deal changes from hand to hand.
        return next_hand_of(state.config, number - 1)

    def provisional(self, state: GameState) -> dict[str, Any] | None:
        return {"points": "wins", "totals": True}

    def option_choice(self, option: str, choice: int | str) -> str:
        return (
            _("0 — no target, end by hand")
            if (option, choice) == ("target_wins", 0)
            else (str(choice))
        )
