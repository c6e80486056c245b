"""Dirty Deals as the pages show it: rubbers to 9 points, two rubbers take the match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy
from rest_framework import serializers

from games import GameState, HandOutcome, Ruleset
from games.cards import SUIT_SYMBOLS, SUITS
from games.dirty_deals import BOWER, RANKS_IN_PLAY, RUBBER_TARGET, RUBBERS_TO_WIN
from games.state import StandingRow
from scorekeeper.presenters.answers import INT, shape
from scorekeeper.presenters.base import (
    RED_SUITS,
    Fact,
    FooterRow,
    Gap,
    Presenter,
    TableTools,
    kit_tools,
)
from scorekeeper.presenters.hand_input import Flag, HandForm, Typed, TypedList

if TYPE_CHECKING:
    from scorekeeper.web.sheet_panel import Panel

SUIT_NAMES = {
    "S": gettext_lazy("Spades"),
    "H": gettext_lazy("Hearts"),
    "D": gettext_lazy("Diamonds"),
    "C": gettext_lazy("Clubs"),
}


def _rubbers(n: int) -> str:
    return ngettext("%(n)s rubber", "%(n)s rubbers", n) % {"n": n}


class DirtyDealsForm(HandForm):
    """Who claimed the hand and its suit, the claimant's surplus (the cards, or their
    number and whether the bower is among them) and who else holds the bower."""

    suit = Typed()
    surplus = TypedList()
    surplus_count = Typed()
    bower_in_surplus = Flag()
    bower_holder = Typed()

    def hand_input(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "winner": self.value("winner") or None,
            "suit": self.value("suit") or None,
        }
        surplus, count = self.value("surplus") or [], self.value("surplus_count")
        if surplus or not count:
            body["surplus"] = list(surplus)
        else:
            body["surplus_count"] = count
            body["bower_in_surplus"] = bool(self.value("bower_in_surplus"))
        body["bower_holder"] = self.value("bower_holder") or None
        return body


class DirtyDealsHandSerializer(serializers.Serializer):
    """dirty-deals"""

    winner = serializers.IntegerField(help_text="Who claimed the hand.")
    suit = serializers.CharField(help_text="S, H, D or C.")
    surplus = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="The claimant's surplus cards."
    )
    surplus_count = serializers.IntegerField(
        min_value=0, required=False, help_text="Instead of surplus: their number."
    )
    bower_in_surplus = serializers.BooleanField(required=False, help_text="With surplus_count.")
    bower_holder = serializers.IntegerField(
        allow_null=True, required=False, help_text="Another player holding the bower."
    )


PlayerRubbersSerializer = shape("PlayerRubbers", player=INT(), rubbers=INT())


class DirtyDealsPresenter(Presenter):
    slug = "dirty-deals"

    score_meaning = "points in the current rubber"

    def hand_examples(self) -> dict[str, dict[str, Any]]:
        return {
            self.slug: {"winner": 1, "suit": "H", "surplus": ["JD", "9C"], "bower_holder": None}
        }

    def rules_hit_example(self) -> dict[str, Any] | None:
        return {
            "ruleset": self.slug,
            "ruleset_name": "Dirty Deals",
            "section": "special-cards",
            "title": "Special cards",
            "snippet": "Suit led · Its <mark>bower</mark>",
            "url": f"/rules/{self.slug}/#special-cards-2",
        }

    def hand_facts(self) -> dict[str, serializers.Field]:
        return {
            "rubber": INT(required=False, help_text="dirty-deals: rubber number."),
            "rubber_won_by": INT(
                required=False,
                allow_null=True,
                help_text="dirty-deals: who won the rubber with this hand.",
            ),
            "suit": serializers.CharField(required=False, help_text="dirty-deals: the trump suit."),
            "bower": serializers.CharField(required=False, help_text="dirty-deals: the bower."),
            "claim_points": INT(required=False, help_text="dirty-deals: what the claim scored."),
        }

    def next_hand_facts(self) -> dict[str, serializers.Field]:
        return {
            "rubber": INT(required=False, help_text="dirty-deals"),
            "bowers": serializers.DictField(
                child=serializers.CharField(),
                required=False,
                help_text="dirty-deals: suit -> bower.",
            ),
        }

    def standing_facts(self) -> dict[str, serializers.Field]:
        return {"rubbers": INT(required=False, help_text="dirty-deals: rubbers won.")}

    def game_facts(self) -> dict[str, serializers.Field]:
        return {
            "rubber": INT(required=False, help_text="dirty-deals: number of the current rubber."),
            "rubbers": PlayerRubbersSerializer(
                many=True, required=False, help_text="dirty-deals: rubbers won by each player."
            ),
        }

    entry_template = "games/_entry_dirty_deals.html"
    entry_form = DirtyDealsForm
    hand_serializer = DirtyDealsHandSerializer
    tag_label = pgettext_lazy("grid column: the hand's suit", "Suit")
    points_hint = gettext_lazy("Points this hand; small: points in the rubber.")
    total_label = pgettext_lazy("grid total", "Points")
    chart_title = gettext_lazy("Points in the rubber after each hand")

    def goal(self, options: Mapping[str, Any]) -> str:
        return _("first to win two rubbers takes the match")

    def game_goal(self, rules: Ruleset) -> str:
        return _("rubbers to 9 points; first to win two rubbers takes the match")

    def final_score(self, row: StandingRow) -> str:
        # The match is won on rubbers; points only count inside the unfinished one.
        n = int(row.extras.get("rubbers", 0))
        if row.score:
            return ngettext("%(n)s rubber + %(score)s pts", "%(n)s rubbers + %(score)s pts", n) % {
                "n": n,
                "score": row.score,
            }
        return _rubbers(n)

    def table_tools(
        self, state: GameState, nxt: Mapping[str, Any], names: Mapping[int, str]
    ) -> TableTools:
        # Whoever was dealt the nine of clubs leads to the first trick; a trick is
        # trumped by the jack of the led suit's colour.
        tools = kit_tools(state, nxt, names) or TableTools()
        tools.display_facts = [
            Fact(_("Trumps"), _("the jack of the led suit's colour (the bower)"))
        ]
        return tools

    def banner_facts(
        self, state: GameState, nxt: Mapping[str, Any], names: Mapping[int, str]
    ) -> list[Fact]:
        facts = [Fact(_("Rubber"), str(nxt.get("rubber", "")), big=True)]
        won = [
            f"{names.get(int(r['player']), '?')} {r['rubbers']}"
            for r in state.extras.get("rubbers") or []
            if r.get("rubbers")
        ]
        if won:
            facts.append(Fact(_("Rubbers won"), ", ".join(won)))
        return facts

    def hand_tag(self, hand: HandOutcome) -> str:
        suit = str(hand.extras.get("suit", ""))
        return SUIT_SYMBOLS.get(suit, suit)

    def cell_note(self, hand: HandOutcome, player: int, points: int, out: bool) -> str:
        return pgettext("grid note: scored for the bower", "bower") if points and not out else ""

    def divider(self, state: GameState, hand: HandOutcome, names: Mapping[int, str]) -> str:
        if hand.extras.get("rubber_won_by") is None:
            return ""
        who = names.get(int(hand.extras["rubber_won_by"]), "?")
        values = {"rubber": hand.extras.get("rubber"), "name": who}
        if state.ended_by == "match" and hand is state.hands[-1]:
            return _("Rubber %(rubber)s to %(name)s: the match is won") % values
        return _("Rubber %(rubber)s to %(name)s — scores start again at 0") % values

    def footer_rows(self, standing: Sequence[StandingRow | None]) -> list[FooterRow]:
        won = [str(row.extras.get("rubbers", 0)) if row else "0" for row in standing]
        return [FooterRow(_("Rubbers"), won, "rubbers")]

    def ranking_score(self, row: StandingRow) -> tuple[str, str]:
        # The match is won on rubbers; points only count inside the unfinished one.
        rubbers = _rubbers(int(row.extras.get("rubbers", 0)))
        if row.score:
            return rubbers, _("%(score)s in the open rubber") % {"score": row.score}
        return rubbers, ""

    def board_title(self, state: GameState) -> str:
        return _("After hand %(played)s · rubber %(rubber)s") % {
            "played": state.played,
            "rubber": state.extras.get("rubber", 1),
        }

    def need(self, state: GameState, row: StandingRow, gap: Gap) -> str:
        score = int(row.score)
        if score >= RUBBER_TARGET:
            need = _("level at %(score)s: play on until one leads") % {"score": score}
        else:
            need = _("needs %(n)s more for the rubber") % {"n": RUBBER_TARGET - score}
        if RUBBERS_TO_WIN - int(row.extras.get("rubbers", 0)) == 1:
            need += " · " + _("one more rubber wins the match")
        return need

    def rubber_marks(self, row: StandingRow) -> list[bool]:
        won = int(row.extras.get("rubbers", 0))
        return [i < won for i in range(RUBBERS_TO_WIN)]

    def fill_panel(
        self,
        panel: Panel,
        state: GameState,
        facts: Mapping[str, Any],
        previous: Mapping[int, int] | None,
        game_pk: int,
    ) -> None:
        panel.bowers = dict(BOWER)
        panel.suits = [
            {
                "key": s,
                "symbol": SUIT_SYMBOLS[s],
                "red": s in RED_SUITS,
                "name": str(SUIT_NAMES[s]),
                "bower": BOWER[s],
                "cards": [{"code": f"{r}{s}", "rank": r} for r in RANKS_IN_PLAY],
            }
            for s in SUITS
        ]
