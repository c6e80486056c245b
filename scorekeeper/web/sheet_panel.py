"""The entry panel of the score sheet: who plays the hand in play, what each player's
pad offers (cards, chips, winner and suit), what was typed and every problem with it,
and the one-line description of a hand's input for its history."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.urls import reverse

from games import GameState, RuleError
from scorekeeper.models import Game
from scorekeeper.presenters import presenter_for
from scorekeeper.presenters.base import Callout
from scorekeeper.presenters.hand_input import HandForm
from scorekeeper.selectors.games import hand_history
from scorekeeper.selectors.invites import revision_author
from scorekeeper.web.sheet_ahead import build_ahead

# -- the entry panel ----------------------------------------------------------------------


@dataclass
class PanelPlayer:
    id: int
    name: str
    dealer: bool
    #: This player's values of the entry form as typed (``cards``, ``points``…).
    entry: Mapping[str, str]
    error: str = ""
    #: Every problem of this player's part of the entry (``error`` joins them).
    problems: list[str] = field(default_factory=list)
    # D$%n You!
    chips: int = 0
    ante: int = 0
    cap: int = 0
    dealt: int = 0
    short: bool = False
    score: int = 0


@dataclass
class Panel:
    """The form for a hand: the next one, or an earlier one being corrected."""

    mode: str  # "new" or "edit"
    number: int
    action: str
    template: str
    ruleset: str
    dealer: str
    players: list[PanelPlayer]
    #: The game's entry form (``Presenter.entry_form``), and its values as typed.
    form: HandForm
    entry: Mapping[str, Any]
    idempotency_key: str
    errors: list[str] = field(default_factory=list)
    field_errors: dict[str, str] = field(default_factory=dict)
    #: The problems of a refused entry, placed (see ``entry_checks.place_problems``).
    problems: Any = None
    #: An unlikely hand's question (``entry_checks.Question``), to confirm or fix.
    question: Any = None
    #: A fact of the hand called out above the entry (``Presenter.fill_panel``).
    callout: Callout | None = None
    pad: dict[str, Any] | None = None
    pot_start: int = 0
    #: D$%n You!: the entered passes leave nobody holding chips, so "who paid the last
    #: chip?" is asked (the page's script asks it live as the passes change).
    last_chip_asked: bool = False
    reminder: str = ""
    suits: list[dict[str, Any]] = field(default_factory=list)
    bowers: dict[str, str] = field(default_factory=dict)
    scoring: str = ""
    storage_key: str = ""
    history: list[dict[str, Any]] = field(default_factory=list)
    #: The coming hands, for a phone entering them offline (``sheet_ahead``): made when
    #: the page's fragment of them (kept per version of the game) is not at hand.
    ahead: Callable[[], dict[str, Any] | None] | None = None

    @property
    def pads_key(self) -> str:
        """What a blank entry's pads show — who plays, in order, by name — as the key
        of their kept markup (``games/_entry_left_in_hand.html``); empty when a pad
        shows something of its own (a value typed, a problem), which is not kept."""
        if self.errors or any(p.error or p.problems or any(p.entry.values()) for p in self.players):
            return ""
        return "\x1f".join(f"{p.id}\x1e{p.name}" for p in self.players)


def describe_input(hand_input: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """One line saying what a stored hand input reported, in the table's words."""

    def name(pid: Any) -> str:
        try:
            return names.get(int(pid), f"player {pid}")
        except (TypeError, ValueError):
            return str(pid)

    parts: list[str] = []
    if hand_input.get("winner") is not None:
        parts.append(f"{name(hand_input['winner'])} went out")
    if hand_input.get("suit"):
        parts[-1:] = [f"{name(hand_input.get('winner'))} claimed {hand_input['suit']}"]
        surplus = hand_input.get("surplus")
        if surplus:
            parts.append("surplus " + " ".join(str(c) for c in surplus))
        elif hand_input.get("surplus_count"):
            parts.append(f"{hand_input['surplus_count']} surplus")
        if hand_input.get("bower_holder") is not None:
            parts.append(f"bower with {name(hand_input['bower_holder'])}")
    if hand_input.get("last_chip") is not None:
        parts.append(f"{name(hand_input['last_chip'])} paid the last chip")
    for row in hand_input.get("scores") or []:
        parts.append(f"{name(row.get('player'))}: {row.get('points')}")
    for row in hand_input.get("results") or []:
        bits: list[str] = []
        if row.get("cards") is not None:
            bits.append(" ".join(str(c) for c in row["cards"]) or "no cards")
        if row.get("points") is not None:
            bits.append(f"{row['points']} pts")
        if row.get("passes"):
            bits.append(f"{row['passes']} passes")
        if row.get("cards_left"):
            bits.append(f"{row['cards_left']} cards left")
        if bits:
            parts.append(f"{name(row.get('player'))}: {', '.join(bits)}")
    return "; ".join(parts)


def build_panel(
    game: Game,
    state: GameState,
    names: Mapping[int, str],
    *,
    number: int | None = None,
    form: HandForm | None = None,
    error: RuleError | None = None,
    message: str = "",
    idempotency_key: str | None = None,
    unlikely: Sequence[Any] = (),
) -> Panel | None:
    """The entry panel for the next hand (``number`` None) or for correcting a hand;
    ``form``: the entry as posted (else the stored hand's, or a blank one)."""
    ruleset = game.ruleset
    shows = presenter_for(ruleset)
    config = state.config
    editing = number is not None
    if editing:
        assert number is not None
        hand = state.hands[number - 1]
        previous = state.hands[number - 2].totals if number > 1 else None
        dealer = hand.dealer
        facts: Mapping[str, Any] = hand.extras
        action = reverse("game_hand_edit", args=[game.pk, number])
        if form is None:
            form = shows.entry_form.from_input(config.players, hand.input)
    else:
        if state.next_hand is None:
            return None
        facts = state.next_hand
        number = int(facts["number"])
        dealer = int(facts["dealer"])
        previous = state.hands[-1].totals if state.hands else None
        action = reverse("game_hand_new", args=[game.pk])
        form = form or shows.entry_form(config.players)
    players = [
        PanelPlayer(
            id=p,
            name=names[p],
            dealer=p == dealer,
            entry=form.for_player(p),
            score=int(state.scores.get(p, 0)),
        )
        for p in config.players
    ]
    panel = Panel(
        mode="edit" if editing else "new",
        number=number,
        action=action,
        template=shows.entry_template,
        ruleset=ruleset,
        dealer=names.get(dealer, "?"),
        players=players,
        form=form,
        entry=form.typed,
        idempotency_key=idempotency_key or uuid.uuid4().hex,
    )
    if editing:
        panel.history = [
            {
                "revision": rev.revision,
                "action": rev.get_action_display(),
                "user": revision_author(rev),
                "at": rev.created_at,
                "summary": describe_input(rev.input, names),
            }
            for rev in hand_history(game, number)
        ]
    shows.fill_panel(panel, state, facts, previous, game.pk)
    panel.pad = shows.card_pad(state, facts)
    if not editing:
        panel.ahead = partial(build_ahead, state, names)
    if panel.pad is not None:
        panel.scoring = str(panel.pad["scoring"])
    if error is not None:
        from scorekeeper.web.entry_checks import place_problems

        placed = panel.problems = place_problems(shows, error, names, config.players)
        panel.errors.extend(shown.text for shown in placed.summary)
        for part, texts in placed.by_field.items():
            panel.field_errors[part] = " ".join(texts)
        for row in players:
            row.problems = placed.by_player.get(row.id, [])
            row.error = " ".join(row.problems)
    if unlikely:
        from scorekeeper.web.entry_checks import question_for

        panel.question = question_for(shows, list(unlikely), names, form)
    if message:
        panel.errors.append(message)
    return panel
