"""How a game is shown: the defaults every game's presenter starts from, and the registry.

The engine (``games``) has one ruleset class per game; beside each, on the Django side,
one presenter (a module of this package) says what its game shows differently: the goal,
the banner's facts, the scoreboard's needs, the grid's cells, tags, dividers and footer,
the ranking's scores, the chart, the entry template and form (which makes the engine's
hand input), and the API's hand body. The pages (``web``) ask :func:`presenter_for` and
never a game's name. Adding a game is one engine class and one presenter module (with
its entry template).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games import GameState, HandOutcome, Ruleset
from games.i18n import capital
from games.state import StandingRow
from games.table_tools import table_kit
from scorekeeper.presenters.hand_input import HandForm, LeftInHandForm, SheddingHandSerializer

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

if TYPE_CHECKING:
    from rest_framework import serializers

    from scorekeeper.web.sheet_panel import Panel

MINUS = "\u2212"
RED_SUITS = {"H", "D"}


def signed(n: int) -> str:
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"{MINUS}{-n}"
    return "0"


def ordinal(n: int) -> str:
    """A place as the language writes it ("1st", German "1.", Spanish "1.º")."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    # One message per English suffix: other languages write every place alike.
    if suffix == "st":
        text = pgettext("ordinal ending in st: 1st, 21st", "%(n)sst")
    elif suffix == "nd":
        text = pgettext("ordinal ending in nd: 2nd, 22nd", "%(n)snd")
    elif suffix == "rd":
        text = pgettext("ordinal ending in rd: 3rd, 23rd", "%(n)srd")
    else:
        text = pgettext("ordinal ending in th: 4th, 11th", "%(n)sth")
    return text % {"n": n}


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if abs(n) == 1 else 's'}"


@dataclass
class Fact:
    """A fact of the hand in play, on the banner ("Dirt rank: 7")."""

    label: str
    value: str
    big: bool = False


@dataclass
class Callout:
    """A fact of the hand in play called out above its entry ("Dirt rank: 7 — every 7
    left in hand scores 25"): ``fact`` is its key in the hand's facts, which a phone
    entering the coming hands offline looks up (``data-ahead``)."""

    label: str
    value: str
    fact: str
    before: str = ""
    after: str = ""


@dataclass
class FooterRow:
    label: str
    values: list[str]
    css: str = ""


@dataclass(frozen=True)
class Gap:
    """Where a scoreboard line stands against the leader (``lead``: the leader's lead)."""

    gap: int
    lead: int
    leader: bool
    tied: bool

    def text(self, unit: str = "") -> str:
        """ "leads by 12", "level at the top" or "12 behind"."""
        if self.leader:
            if self.tied or self.lead == 0:
                return _("level at the top")
            if unit:
                return _("leads by %(lead)s %(unit)s") % {"lead": self.lead, "unit": unit}
            return _("leads by %(lead)s") % {"lead": self.lead}
        if unit:
            return _("%(gap)s %(unit)s behind") % {"gap": self.gap, "unit": unit}
        return _("%(gap)s behind") % {"gap": self.gap}


@dataclass
class PenaltyButton:
    """A tap on the draw-penalty counter: what was played, and what it adds."""

    label: str
    amount: int


@dataclass
class TableTools:
    """The tools a game's sheet offers the table (``Presenter.table_tools``; which a
    game has: ``games.table_tools``). The timer, penalty, direction and leader are
    shared by every phone; who plays first after the deal and the red-aces check are
    worked out on the page."""

    #: The shared countdown's name ("negotiation timer"); empty: none.
    timer: str = ""
    #: Who plays first: the card that says so ("9♣"), what its holder does with it
    #: ("lead the first trick"), and the players.
    lead_card: str = ""
    lead_does: str = ""
    players: list[tuple[int, str]] = field(default_factory=list)
    #: Who plays first when the deal says so (a name), where they sit, and the first
    #: cards turned up that change it ("An ace turned up: Cy plays first, …").
    first_player: str = ""
    first_player_seat: str = ""
    first_turned_up: list[str] = field(default_factory=list)
    #: The dealer's leftover cards within which red aces are live (None: no check).
    red_aces_within: int | None = None
    #: The draw-penalty counter's buttons (empty: no counter).
    penalty: list[PenaltyButton] = field(default_factory=list)
    #: What reverses the direction of play ("an ace"); empty: no direction tool.
    reverses: str = ""
    #: What else goes the way play goes ("A 0 passes every hand … this way.").
    follows_direction: str = ""
    #: Facts a table display shows big besides the banner's (e.g. the trump rule).
    display_facts: list[Fact] = field(default_factory=list)


#: The house-rule options' word choices, as the new-game form says them.
CHOICE_WORDS = {
    "yes": pgettext_lazy("option choice", "yes"),
    "no": pgettext_lazy("option choice", "no"),
    "one": pgettext_lazy("option choice: draw one card", "one"),
    "until-playable": pgettext_lazy("option choice: draw until a card fits", "until-playable"),
    "standard": pgettext_lazy("option choice: Dirty UNO's scoring", "standard"),
    "penalty": pgettext_lazy("option choice: Dirty UNO's scoring", "penalty"),
    "counts": pgettext_lazy("option choice: a first wild draw four", "counts"),
    "reshuffle": pgettext_lazy("option choice: a first wild draw four", "reshuffle"),
}


class Presenter:
    """A game as the pages show it; each game's presenter overrides what differs."""

    slug: ClassVar[str] = ""
    #: The entry panel's template (``{% include panel.template %}``).
    entry_template: ClassVar[str] = ""
    #: A player's problems are shown beside their own pad (else beside the form's part).
    per_player_entry: ClassVar[bool] = False
    #: The grid's column of a fact of each hand (``hand_tag``), and its heading.
    tag_label: ClassVar[StrOrPromise] = ""
    points_hint: ClassVar[StrOrPromise] = ""
    total_label: ClassVar[StrOrPromise] = gettext_lazy("Total")
    chart_title: ClassVar[StrOrPromise] = gettext_lazy("Running totals after each hand")
    #: The scoreboard's unit of a score.
    unit: ClassVar[StrOrPromise] = gettext_lazy("pts")
    #: The new-game form's words for playing in teams (a game that ``supports_teams``).
    teams_label: ClassVar[StrOrPromise] = gettext_lazy("Play in teams")
    teams_help: ClassVar[StrOrPromise] = gettext_lazy(
        "Teams of equal size, at least two. A team scores its members' points added up. "
        "Choose each seat's team above."
    )
    #: The entry form (``hand_input.HandForm``): a page's post, or a stored hand's
    #: input, as the engine's hand input.
    entry_form: ClassVar[type[HandForm]] = HandForm
    #: The API's hand body of the game, as its schema documents it (every game names
    #: its own: the class's name is the schema's component name).
    hand_serializer: ClassVar[type[serializers.Serializer]]

    # -- the game's own facts in the API's answers -------------------------------------
    # Each returns new DRF fields (the order they are made in is their order in the
    # answer and the schema), by the name of the fact in the engine's state.

    #: What a standings row's ``score`` is in this game (the API's documentation).
    score_meaning: ClassVar[str] = "score"

    def hand_examples(self) -> dict[str, dict[str, Any]]:
        """Examples of the game's hand body for the API's documentation, by title (games
        whose bodies are alike are shown once, under their titles together)."""
        return {}

    def new_game_examples(self) -> dict[str, dict[str, Any]]:
        """Examples of starting the game through the API (its documentation), by title."""
        return {}

    def rules_hit_example(self) -> dict[str, Any] | None:
        """A hit of the rules search in the game's rules (the documentation shows the
        first game's that gives one)."""
        return None

    def hand_facts(self) -> dict[str, serializers.Field]:
        """The facts of a hand's outcome (``HandOutcome.extras``)."""
        return {}

    def next_hand_facts(self) -> dict[str, serializers.Field]:
        """The facts of the hand about to be played (``GameState.next_hand``)."""
        return {}

    def standing_facts(self) -> dict[str, serializers.Field]:
        """The facts of a standings row (``StandingRow.extras``)."""
        return {}

    def game_facts(self) -> dict[str, serializers.Field]:
        """The facts of the game (``GameState.extras``)."""
        return {}

    @property
    def shares_table_tools(self) -> bool:
        """Whether the game's table kit (:attr:`games.base.Ruleset.table_kit`) holds any
        tool every phone shares (a timer, who leads, a penalty, the direction): their
        state then rides with the live answer."""
        return bool(table_kit(self.slug).tools())

    def goal(self, options: Mapping[str, Any]) -> str:
        """How the game is won, in a few words, for these options."""
        return ""

    def game_goal(self, rules: Ruleset) -> str:
        """How the game ends and who wins, with its default options and what the options
        change, in a few words (the home page's game cards)."""
        return ""

    def final_score(self, row: StandingRow) -> str:
        """A final score in the game's own unit (the shared result; see
        shared/spec/api.md, ``standings``)."""
        return (_("%(score)s pts") % {"score": row.score}).replace("-", MINUS)

    def hands_total(self, state: GameState) -> int | None:
        """How many hands the game has, when it has a fixed number."""
        return None

    def option_choice(self, option: str, choice: int | str) -> str:
        """How the new-game form names ``choice`` of the house-rule ``option``."""
        return str(CHOICE_WORDS.get(str(choice), choice))

    def banner_facts(
        self, state: GameState, nxt: Mapping[str, Any], names: Mapping[int, str]
    ) -> list[Fact]:
        return []

    # -- the grid ---------------------------------------------------------------------

    def hand_tag(self, hand: HandOutcome) -> str:
        return ""

    def cell_points(self, points: int, out: bool) -> str:
        return str(points) if points or out else "·"

    def cell_note(self, hand: HandOutcome, player: int, points: int, out: bool) -> str:
        return ""

    def divider(self, state: GameState, hand: HandOutcome, names: Mapping[int, str]) -> str:
        """A line under a hand that changed the game's course (a rubber won…)."""
        return ""

    def footer_rows(self, standing: Sequence[StandingRow | None]) -> list[FooterRow]:
        """Rows of the footer above the totals (``standing``: each column's row)."""
        return []

    # -- result, chart, hand summaries ------------------------------------------------

    def ranking_score(self, row: StandingRow) -> tuple[str, str]:
        """A final ranking line's score, and what it adds in small print."""
        return str(row.score), ""

    def chart_start(self, state: GameState) -> int:
        return 0

    def points_text(self, points: int) -> str:
        return str(points)

    def saved_summary(
        self, hand: HandOutcome, names: Mapping[int, str], corrected: bool = False
    ) -> str:
        """One line saying what a hand just saved (or ``corrected``) scored."""
        parts = [
            f"{names.get(p, '?')} {self.points_text(pts)}"
            for p, pts in hand.points.items()
            if pts or p == hand.winner
        ]
        said = {"number": hand.number, "points": ", ".join(parts)}
        if corrected:
            return _("Hand %(number)s corrected: %(points)s.") % said
        return _("Hand %(number)s saved: %(points)s.") % said

    def settlement(self, state: GameState, names: Mapping[int, str]) -> dict[str, Any] | None:
        """What the last hand moved between the players, when the game moves chips."""
        return None

    # -- the scoreboard ---------------------------------------------------------------

    def board_title(self, state: GameState) -> str:
        played = state.played
        total = self.hands_total(state)
        if total:
            left = total - played
            return ngettext(
                "After hand %(played)s of %(total)s · %(left)s hand left",
                "After hand %(played)s of %(total)s · %(left)s hands left",
                left,
            ) % {"played": played, "total": total, "left": left}
        return _("After hand %(played)s") % {"played": played}

    def need(self, state: GameState, row: StandingRow, gap: Gap) -> str:
        """What a player (or team) needs, in the words of the game's rules."""
        return gap.text()

    def line_unit(self, score: int) -> str:
        return str(self.unit)

    def rubber_marks(self, row: StandingRow) -> list[bool]:
        return []

    # -- the entry panel --------------------------------------------------------------

    def fill_panel(
        self,
        panel: Panel,
        state: GameState,
        facts: Mapping[str, Any],
        previous: Mapping[int, int] | None,
        game_pk: int,
    ) -> None:
        """Add what this game's entry offers (chips, suits…) to ``panel``; ``facts`` are
        the hand's (the engine's next hand, or the stored hand's extras when correcting
        one), ``previous`` the totals before it."""

    # -- hands entered ahead of the server (a phone offline) ------------------------------

    def hand_ahead(self, state: GameState, number: int) -> Mapping[str, Any] | None:
        """The engine's facts of hand ``number`` (after the hand in play), as a phone that
        cannot reach the server knows them before the hands between are saved: the same
        mapping as ``state.next_hand`` would be then. None when they hang on how those
        hands go (the hand's number and dealer are known all the same)."""
        return None

    def provisional(self, state: GameState) -> dict[str, Any] | None:
        """How a hand waiting on a phone shows on the grid before the server scores it,
        applying the pad's card table: ``points`` "left" (each player scores the cards
        left in hand, whoever went out 0), "takes" (whoever went out scores every other
        hand's cards), "wins" (whoever won the hand scores one win) or "entered" (each
        player scores the points typed for them, ``points_<id>``); ``totals`` whether
        the running totals follow from those alone; ``reset_at`` (optional) a total that
        drops back to 0 when a hand lands on it exactly. None: the row shows what was
        entered and waits for the server's points."""
        return None

    def card_pad(self, state: GameState, facts: Mapping[str, Any]) -> dict[str, Any] | None:
        """The card buttons of the hand's pad, with the engine's points for each (the
        page adds, never scores); None for a game entered without one. A value ``marked``
        is shown apart, its button's name saying why (the pad's ``marked_as``)."""
        return None

    def table_tools(
        self, state: GameState, nxt: Mapping[str, Any], names: Mapping[int, str]
    ) -> TableTools | None:
        """The table tools of the hand in play ``nxt`` (None: the game has none): by
        default those its document calls for (``games.table_tools``)."""
        return kit_tools(state, nxt, names)

    def fix_anchor(self, player: int, form: HandForm | None) -> str:
        """The id of the input where an unlikely amount of ``player``'s is fixed."""
        if form is not None and form.value(f"points_{player}"):
            return f"points_{player}"
        return f"cards_{player}"

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        if cls.slug:
            _PRESENTERS[cls.slug] = cls()


_PRESENTERS: dict[str, Presenter] = {}


def _seat_words(steps: int) -> str:
    if abs(steps) == 1:
        return _("on the dealer's left") if steps > 0 else _("on the dealer's right")
    if abs(steps) == 2:
        return (
            _("two seats to the dealer's left")
            if steps > 0
            else _("two seats to the dealer's right")
        )
    if abs(steps) == 3:
        return (
            _("three seats to the dealer's left")
            if steps > 0
            else _("three seats to the dealer's right")
        )
    if steps > 0:
        return _("%(n)s seats to the dealer's left") % {"n": abs(steps)}
    return _("%(n)s seats to the dealer's right") % {"n": abs(steps)}


def kit_tools(
    state: GameState, nxt: Mapping[str, Any], names: Mapping[int, str]
) -> TableTools | None:
    """The tools the game's document calls for (``games.table_tools.table_kit``), worded
    for the hand in play ``nxt``: None when it has none."""
    kit = table_kit(state.config.ruleset)
    tools = TableTools(
        timer=_(kit.timer) if kit.timer else "",
        lead_card=kit.lead_card,
        lead_does=_(kit.lead_does) if kit.lead_does else "",
        reverses=_(kit.reverses) if kit.reverses else "",
        follows_direction=_(kit.follows_direction) if kit.follows_direction else "",
    )
    if kit.lead_card:
        tools.players = [(p, names.get(p, "?")) for p in state.config.players]
    dealer = nxt.get("dealer")
    if kit.first_after_dealer and isinstance(dealer, int) and dealer in state.config.players:
        config = state.config
        first = config.left_of(dealer, kit.first_after_dealer)
        tools.first_player = names.get(first, "?")
        tools.first_player_seat = _seat_words(kit.first_after_dealer)
        tools.first_turned_up = [
            (
                _("%(card)s turned up: %(name)s (%(seat)s) plays first %(means)s")
                % {
                    "card": capital(_(t.card)),
                    "name": names.get(config.left_of(dealer, t.steps), "?"),
                    "seat": _seat_words(t.steps),
                    "means": _(t.means) if t.means else "",
                }
            ).rstrip()
            for t in kit.turned_up
        ]
    if not (kit.tools() or tools.first_player):
        return None
    return tools


def presenter_for(ruleset: str) -> Presenter:
    """The presenter of the game with this slug (every module of this package is
    imported with it, see ``__init__``: one presenter per game of ``games.RULESETS``)."""
    return _PRESENTERS[ruleset]


class LeftInHand(Presenter):
    """A game whose hands are the cards (or points) left in every other player's hand."""

    entry_template = "games/_entry_left_in_hand.html"
    per_player_entry = True
    entry_form = LeftInHandForm
    hand_serializer = SheddingHandSerializer

    def hand_examples(self) -> dict[str, dict[str, Any]]:
        return {
            self.slug: {
                "winner": 3,
                "results": [
                    {"player": 1, "cards": ["JK", "4H"]},
                    {"player": 4, "points": 12},
                    {"player": 2, "cards": ["7S"]},
                ],
            }
        }
