"""D$%n You! as the pages show it: chips won and lost, antes and the pot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from rest_framework import serializers

from games import GameState, HandOutcome, Ruleset
from games.damn_you import last_chip_needed
from games.inputs import whole_number
from games.state import StandingRow
from scorekeeper.presenters.answers import INT, left_out, shape
from scorekeeper.presenters.base import Fact, Gap, Presenter, signed
from scorekeeper.presenters.hand_input import HandForm, Typed

if TYPE_CHECKING:
    from scorekeeper.web.sheet_panel import Panel


#: The new-game form's words for the game_length option's choices.
GAME_LENGTH_CHOICES = {
    "one-deal-each": gettext_lazy("One deal by each player"),
    "rounds": gettext_lazy("A number of rounds"),
    "all-chips": gettext_lazy("Until one player has all chips"),
}


class DamnYouForm(HandForm):
    """Who went out, each player's passes and cards left, and who paid the last chip
    (asked only when the passes leave nobody any)."""

    last_chip = Typed()
    player_fields = ("passes", "cards_left")

    def hand_input(self) -> dict[str, Any]:
        # "Who paid the last chip?" goes in only when asked; the engine says when it is
        # missing and refuses it when it is not needed.
        winner, last_chip = self.value("winner"), self.value("last_chip")
        return {
            **({"last_chip": last_chip} if last_chip else {}),
            "winner": winner or None,
            "results": [
                {
                    "player": p,
                    "passes": self.value(f"passes_{p}") or 0,
                    "cards_left": (
                        self.value(f"cards_left_{p}") or (0 if str(p) == winner else None)
                    ),
                }
                for p in self.players
            ],
        }


class DamnYouResultSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    passes = serializers.IntegerField(min_value=0)
    cards_left = serializers.IntegerField(min_value=0)


class DamnYouHandSerializer(serializers.Serializer):
    """damn-you"""

    winner = serializers.IntegerField(help_text="Who went out.")
    results = DamnYouResultSerializer(
        many=True, help_text="Every player; the winner's cards_left is 0."
    )
    last_chip = serializers.IntegerField(
        allow_null=True,
        required=False,
        help_text="Who paid the last pass, when the passes leave nobody holding chips "
        "(that player wins at once): required then, refused otherwise.",
    )


ChipsSerializer = shape("Chips", player=INT(), paid=INT(), received=INT())
AntePaidSerializer = shape("AntePaid", player=INT(), paid=INT())
AnteDueSerializer = shape("AnteDue", player=INT(), amount=INT())
DealtSerializer = shape("Dealt", player=INT(), cards=INT(help_text="Cards dealt to the player."))


class DamnYouPresenter(Presenter):
    slug = "damn-you"

    score_meaning = "chips held"

    def hand_examples(self) -> dict[str, dict[str, Any]]:
        return {
            self.slug: {
                "winner": 2,
                "results": [
                    {"player": 1, "passes": 2, "cards_left": 5},
                    {"player": 2, "passes": 0, "cards_left": 0},
                    {"player": 3, "passes": 1, "cards_left": 3},
                    {"player": 4, "passes": 3, "cards_left": 7},
                ],
            }
        }

    def new_game_examples(self) -> dict[str, dict[str, Any]]:
        return {
            "D$%n You! over two rounds": {
                "ruleset": self.slug,
                "options": {"starting_chips": 20, "game_length": "rounds", "rounds": 2},
                "players": [3, 1, 4, 2],
            }
        }

    def hand_facts(self) -> dict[str, serializers.Field]:
        return {
            "chips": ChipsSerializer(
                many=True, required=False, help_text="damn-you: chip movements."
            ),
            "ante": AntePaidSerializer(
                many=True, required=False, help_text="damn-you: the ante paid."
            ),
            "short": serializers.ListField(
                child=INT(), required=False, help_text="damn-you: players dealt one card fewer."
            ),
            "deal": DealtSerializer(many=True, required=False, help_text="damn-you: cards dealt."),
            "pot": INT(required=False, help_text="damn-you: chips left in the pot."),
            "early_end": serializers.BooleanField(
                required=False,
                help_text="damn-you: the game ended in this hand (one holds every chip).",
            ),
        }

    def next_hand_facts(self) -> dict[str, serializers.Field]:
        return {
            "short": serializers.ListField(
                child=INT(), required=False, help_text="damn-you: players dealt one card fewer."
            ),
            "deal": DealtSerializer(
                many=True, required=False, help_text="damn-you: cards to deal."
            ),
            "ante": AnteDueSerializer(
                many=True, required=False, help_text="damn-you: the ante due."
            ),
            "opens": serializers.CharField(required=False, help_text="damn-you: who opens."),
        }

    def game_facts(self) -> dict[str, serializers.Field]:
        return {
            "pot": INT(required=False, help_text="damn-you: chips in the pot."),
            "starting_chips": INT(required=False, help_text="damn-you"),
            "hands_total": INT(
                required=False,
                allow_null=True,
                help_text="damn-you: hands the game lasts (its game_length option); null when "
                "it goes on until one player holds all the chips.",
            ),
            "closing_ante": AntePaidSerializer(
                many=True,
                allow_null=True,
                default=left_out,
                help_text="damn-you: the ante that ended the game, if one did.",
            ),
        }

    entry_template = "games/_entry_damn_you.html"
    per_player_entry = True
    entry_form = DamnYouForm
    hand_serializer = DamnYouHandSerializer
    points_hint = gettext_lazy("Chips won or lost this hand; small: chips held.")
    total_label = pgettext_lazy("grid total", "Chips")
    chart_title = gettext_lazy("Chips after each hand")
    unit = pgettext_lazy("scoreboard unit", "chips")

    def goal(self, options: Mapping[str, Any]) -> str:
        return _("most chips win")

    def game_goal(self, rules: Ruleset) -> str:
        return _("one deal by each player (or the game length you set); most chips wins")

    def option_choice(self, option: str, choice: int | str) -> str:
        return (
            str(GAME_LENGTH_CHOICES.get(str(choice), str(choice)))
            if option == "game_length"
            else (str(choice))
        )

    def final_score(self, row: StandingRow) -> str:
        n = int(row.score)
        return ngettext("%(n)s chip", "%(n)s chips", n) % {"n": n}

    def hands_total(self, state: GameState) -> int | None:
        return int(state.extras.get("hands_total") or 0) or None

    def banner_facts(
        self, state: GameState, nxt: Mapping[str, Any], names: Mapping[int, str]
    ) -> list[Fact]:
        short = [names.get(p, "?") for p in nxt.get("short") or []]
        ante = sum(int(a["amount"]) for a in nxt.get("ante") or [])
        return [
            Fact(_("Short (ante 2)"), ", ".join(short) if short else _("nobody")),
            Fact(_("Ante into the pot"), str(ante)),
        ]

    def cell_points(self, points: int, out: bool) -> str:
        return signed(points)

    def divider(self, state: GameState, hand: HandOutcome, names: Mapping[int, str]) -> str:
        if hand.extras.get("early_end"):
            last = hand.input.get("last_chip")
            if last is not None:
                who = names.get(int(last), "?")
                return _(
                    "The passes took every chip; %(name)s paid the last: the game ends here"
                ) % {"name": who}
            return _("Only one player holds chips: the game ends here")
        return ""

    def chart_start(self, state: GameState) -> int:
        return int(state.extras.get("starting_chips", 0))

    def points_text(self, points: int) -> str:
        return signed(points)

    def settlement(self, state: GameState, names: Mapping[int, str]) -> dict[str, Any] | None:
        """The chips paid and received in the last hand, as the engine moved them."""
        if not state.hands:
            return None
        last = state.hands[-1]
        rows = [
            {
                "name": names.get(int(c["player"]), "?"),
                "paid": int(c["paid"]),
                "received": int(c["received"]),
                "net": signed(int(c["received"]) - int(c["paid"])),
                "chips": int(last.totals.get(int(c["player"]), 0)),
                "out": int(c["player"]) == last.winner,
            }
            for c in last.extras.get("chips") or []
        ]
        return {
            "number": last.number,
            "rows": rows,
            "winner": names.get(last.winner, "") if last.winner is not None else "",
            "pot": sum(r["received"] for r in rows),
        }

    def need(self, state: GameState, row: StandingRow, gap: Gap) -> str:
        if int(row.score) == 0:
            return _("no chips left: plays on, pays nothing")
        return gap.text(str(self.unit))

    def fill_panel(
        self,
        panel: Panel,
        state: GameState,
        facts: Mapping[str, Any],
        previous: Mapping[int, int] | None,
        game_pk: int,
    ) -> None:
        start = int(state.extras.get("starting_chips", 20))
        paid = "paid" if panel.mode == "edit" else "amount"
        antes = {int(a["player"]): int(a[paid]) for a in facts.get("ante") or []}
        dealt = {int(d["player"]): int(d["cards"]) for d in facts.get("deal") or []}
        short = {int(p) for p in facts.get("short") or []}
        for row in panel.players:
            row.chips = int(previous[row.id]) if previous else start
            row.ante = antes.get(row.id, 0)
            row.cap = row.chips - row.ante
            row.dealt = dealt.get(row.id, 0)
            row.short = row.id in short
        panel.pot_start = sum(antes.values())
        panel.last_chip_asked = bool(panel.entry.get("last_chip")) or last_chip_needed(
            {row.id: row.cap for row in panel.players},
            {row.id: _count(row.entry.get("passes", "")) for row in panel.players},
        )
        if panel.mode == "new":
            panel.storage_key = f"sk:passes:{game_pk}:{panel.number}"

    def fix_anchor(self, player: int, form: HandForm | None) -> str:
        return f"passes_{player}"


def _count(typed: str) -> int:
    """A typed number of passes, 0 when blank or not a whole number (the engine says
    why)."""
    return max(0, whole_number(typed) or 0)
