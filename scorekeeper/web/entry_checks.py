"""Mistakes in a hand's entry, caught kindly.

* Every problem the engine found (:attr:`games.RuleError.problems`) is shown at once, in
  the table's words (player names, not ids), each beside its player's pad — or beside
  the part of the form it is about (who went out, the suit, the surplus) — with a
  summary at the top of the entry linking to each.
* A hand the rules allow but a table rarely means (:mod:`games.plausible`: far above
  this table's usual) is not saved until the table confirms it: the entry comes back
  with the question and a hidden ``confirm`` field naming what was confirmed, so the
  same post again (with or without JavaScript, or from the phone's outbox) saves it,
  and a changed amount asks again. The services ask (``services.unlikely``); the API
  never does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext
from django.utils.translation import gettext as _

from games import RuleError, Ruleset
from games.plausible import Unlikely
from scorekeeper.engine_text import speak
from scorekeeper.errors import confirm_token
from scorekeeper.presenters import Presenter
from scorekeeper.presenters.hand_input import HandForm


@dataclass
class ShownProblem:
    """A problem as the page shows it: the text, and where (``anchor`` is the id of the
    element it is shown in, for the summary's link)."""

    text: str
    anchor: str
    player: int | None = None
    field: str = ""


@dataclass
class PlacedProblems:
    """The problems of an entry, placed: all of them for the summary, per player and
    per form part for the messages beside them."""

    summary: list[ShownProblem] = field(default_factory=list)
    by_player: dict[int, list[str]] = field(default_factory=dict)
    by_field: dict[str, list[str]] = field(default_factory=dict)


#: The form part each input field's problems are shown beside (its fieldset's id).
FIELD_PARTS = {
    "winner": "winner",
    "suit": "suit",
    "surplus": "surplus",
    "surplus_count": "surplus",
    "bower_in_surplus": "surplus",
    "bower_holder": "bower_holder",
    "last_chip": "last_chip",
}


def place_problems(
    shows: Presenter, error: RuleError, names: Mapping[int, str], players: Iterable[int]
) -> PlacedProblems:
    """Where each of ``error``'s problems is shown: a player's beside their pad (or row)
    when the game's entry has one per player."""
    seated = set(players)
    placed = PlacedProblems()
    for problem in error.problems:
        text = problem.say(names, speak)
        player = problem.player if problem.player in seated else None
        if player is not None and shows.per_player_entry:
            placed.by_player.setdefault(player, []).append(text)
            placed.summary.append(ShownProblem(text, f"problems-{player}", player=player))
            continue
        part = FIELD_PARTS.get(problem.field, "hand")
        placed.by_field.setdefault(part, []).append(text)
        placed.summary.append(ShownProblem(text, f"problems-{part}", field=part))
    return placed


def option_words(message: str, rules: Ruleset) -> str:
    """A message about a house-rule option with the option's label in place of its
    name ("Starting chips: must be between 1 and 1000", not "Starting_chips: …")."""
    for option in rules.options:
        for name in (option.name, option.name.capitalize()):
            if message.startswith(f"{name}:"):
                return f"{gettext(option.label)}:{message[len(name) + 1 :]}"
    return message


# -- unlikely hands -----------------------------------------------------------------------


@dataclass
class Question:
    """ "Bob's 9,999 is far above this table's usual (≈40). Save anyway?" """

    lines: list[str]
    token: str
    #: The id of the first input to fix (where "Fix it" leads).
    fix_anchor: str


def question_for(
    shows: Presenter, items: list[Unlikely], names: Mapping[int, str], form: HandForm | None = None
) -> Question:
    """The question for the unlikely ``items`` of an entry
    (:class:`~scorekeeper.errors.UnlikelyHand`, raised by the services)."""
    lines = []
    for item in items:
        who = names.get(item.player) or gettext("player %(id)s") % {"id": item.player}
        params = {"who": who, "amount": speak.number(item.amount)}
        passes = item.what == "passes"
        if item.usual is not None:
            params["usual"] = speak.number(item.usual)
            if passes:
                line = _(
                    "%(who)s's %(amount)s passes are far above this table's usual (≈%(usual)s)."
                )
            else:
                line = _("%(who)s's %(amount)s is far above this table's usual (≈%(usual)s).")
        else:
            params["most"] = speak.number(item.limit)
            params["what"] = gettext(item.what)
            if passes:
                line = _(
                    "%(who)s's %(amount)s passes are more than a hand usually holds "
                    "(about %(most)s %(what)s)."
                )
            else:
                line = _(
                    "%(who)s's %(amount)s is more than a hand usually holds "
                    "(about %(most)s %(what)s)."
                )
        lines.append(line % params)
    fix = shows.fix_anchor(items[0].player, form)
    return Question(lines=lines, token=confirm_token(items), fix_anchor=fix)
