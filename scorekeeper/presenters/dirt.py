"""Dirt as the pages show it: lowest total wins; each hand has its dirt rank."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy
from rest_framework import serializers

from games import GameState, HandOutcome, Ruleset
from games.base import next_hand_of
from games.cards import RANKS, SUIT_SYMBOLS, SUITS, french_deck, parse_french
from games.dirt import DIRT_POINTS, card_points
from scorekeeper.presenters.answers import INT
from scorekeeper.presenters.base import (
    RED_SUITS,
    Callout,
    Fact,
    LeftInHand,
    PenaltyButton,
    TableTools,
    kit_tools,
)

if TYPE_CHECKING:
    from scorekeeper.web.sheet_panel import Panel


class DirtPresenter(LeftInHand):
    slug = "dirt"

    score_meaning = "total points"

    def new_game_examples(self) -> dict[str, dict[str, Any]]:
        return {
            "Partner Dirt": {
                "ruleset": self.slug,
                "variant": "baby",
                "options": {"ten_points": 1},
                "players": [3, 1, 4, 2],
                "teams": [[3, 4], [1, 2]],
                "first_dealer": 3,
            }
        }

    def hand_facts(self) -> dict[str, serializers.Field]:
        return {
            "dirt_rank": serializers.CharField(
                required=False, help_text="dirt: this hand's dirt rank."
            )
        }

    def next_hand_facts(self) -> dict[str, serializers.Field]:
        return {
            "dirt_rank": serializers.CharField(required=False, help_text="dirt"),
            "hands_left": INT(required=False, help_text="dirt"),
        }

    def game_facts(self) -> dict[str, serializers.Field]:
        return {
            "dirt_ranks": serializers.ListField(
                child=serializers.CharField(),
                required=False,
                help_text="dirt: every hand's dirt rank.",
            ),
            "decks": INT(required=False, help_text="dirt: decks in play."),
        }

    teams_label = gettext_lazy("Play in teams (Partner Dirt)")
    teams_help = gettext_lazy(
        "Teams of equal size, at least two. A team scores its members' cards added up — "
        "except the team of whoever went out, which scores 0 for that hand. Choose each "
        "seat's team above."
    )
    tag_label = pgettext_lazy("grid column: the dirt rank", "Dirt")
    points_hint = gettext_lazy(
        "Points left in hand this hand; small: running total. Lowest total wins."
    )

    def goal(self, options: Mapping[str, Any]) -> str:
        return _("lowest total wins")

    def game_goal(self, rules: Ruleset) -> str:
        hands = sorted({v.hands for v in rules.variants if v.hands})
        default = rules.variant(None)
        if default and default.hands:
            n = default.hands
            if len(hands) > 1:
                return ngettext(
                    "lowest total after %(n)s hand (%(low)s–%(high)s by variant) wins",
                    "lowest total after %(n)s hands (%(low)s–%(high)s by variant) wins",
                    n,
                ) % {"n": n, "low": hands[0], "high": hands[-1]}
            return ngettext(
                "lowest total after %(n)s hand wins", "lowest total after %(n)s hands wins", n
            ) % {"n": n}
        if len(hands) > 1:
            return _(
                "lowest total after the variant's hands (%(low)s–%(high)s by variant) wins"
            ) % {"low": hands[0], "high": hands[-1]}
        return _("lowest total after the variant's hands wins")

    def hands_total(self, state: GameState) -> int | None:
        return len(state.extras.get("dirt_ranks") or []) or None

    def banner_facts(
        self, state: GameState, nxt: Mapping[str, Any], names: Mapping[int, str]
    ) -> list[Fact]:
        return [Fact(_("Dirt rank"), str(nxt.get("dirt_rank", "")), big=True)]

    def table_tools(
        self, state: GameState, nxt: Mapping[str, Any], names: Mapping[int, str]
    ) -> TableTools:
        # A joker makes the next player draw five; a dirt card, as many as its rank.
        rank = str(nxt.get("dirt_rank", ""))
        buttons = [PenaltyButton(_("Joker"), 5)]
        if rank.isdigit():
            buttons.append(PenaltyButton(_("Dirt %(rank)s") % {"rank": rank}, int(rank)))
        tools = kit_tools(state, nxt, names) or TableTools()
        tools.penalty = buttons
        return tools

    def hand_tag(self, hand: HandOutcome) -> str:
        return str(hand.extras.get("dirt_rank", ""))

    def cell_points(self, points: int, out: bool) -> str:
        return str(points)

    def fill_panel(
        self,
        panel: Panel,
        state: GameState,
        facts: Mapping[str, Any],
        previous: Mapping[int, int] | None,
        game_pk: int,
    ) -> None:
        rank = str(facts.get("dirt_rank", ""))
        if rank:
            # The callout reads "Dirt rank: 7 — every 7 left in hand scores 25": the
            # rank is shown between "before" and "after" (the template's markup).
            panel.callout = Callout(
                _("Dirt rank"),
                rank,
                "dirt_rank",
                pgettext("callout before the dirt rank: '— every 7 left…'", "— every "),
                pgettext(
                    "callout after the dirt rank: '…every 7 left in hand scores 25'",
                    " left in hand scores %(points)s",
                )
                % {"points": DIRT_POINTS},
            )

    def hand_ahead(self, state: GameState, number: int) -> Mapping[str, Any] | None:
        # The variant's sequence of dirt ranks fixes every hand's rank in advance.
        ranks = [str(r) for r in state.extras.get("dirt_ranks") or []]
        if not 1 <= number <= len(ranks):
            return None
        return next_hand_of(
            state.config,
            number - 1,
            dirt_rank=ranks[number - 1],
            hands_left=len(ranks) - number + 1,
        )

    def provisional(self, state: GameState) -> dict[str, Any] | None:
        # Partner Dirt scores teams by a rule of the fold: its rows wait for the server.
        if state.config.teams:
            return None
        return {"points": "left", "totals": True}

    def card_pad(self, state: GameState, facts: Mapping[str, Any]) -> dict[str, Any]:
        ten = int(state.config.options.get("ten_points", 1))
        decks = int(state.extras.get("decks") or 3)
        dirt_rank = str(facts.get("dirt_rank", ""))
        values = []
        for rank in ["JK", *RANKS]:
            card = parse_french(rank if rank == "JK" else f"{rank}S")
            values.append(
                {
                    "key": rank,
                    "label": rank,
                    "points": card_points(card, dirt_rank, ten_points=ten),
                    "marked": rank == dirt_rank,
                    "suited": rank != "JK",
                }
            )
        return {
            "kind": "french",
            "values": values,
            "suits": [{"key": s, "label": SUIT_SYMBOLS[s], "red": s in RED_SUITS} for s in SUITS],
            "deck": dict(french_deck(decks, jokers_per_deck=2)),
            "deck_name": ngettext("%(n)s deck", "%(n)s decks", decks) % {"n": decks},
            "scoring": "",
            "marked_as": _("dirt rank"),
        }
