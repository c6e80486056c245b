"""The base of every game: :class:`Ruleset` (metadata, configuration checks and the fold
of the hands) and the helpers the games' modules share. The configuration's shapes live
in :mod:`games.config`, the folded state's in :mod:`games.state`; both are re-exported here.

A game's module subclasses :class:`Ruleset` and implements :meth:`Ruleset.play`, which
folds the stored hand inputs (plain JSON-like dicts, exactly what the table reported)
into a :class:`GameState`. Totals are never stored: they always come from ``play``.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from games.config import GameConfig, Option, Variant
from games.errors import JSON, CardError, Problem, RuleError, Translate, Words, mention
from games.i18n import gettext_noop as _
from games.i18n import identity
from games.inputs import MAX_DIGITS, as_count, as_player_id, whole_number
from games.kit import TableKit
from games.state import GameState, HandOutcome, Placement, StandingRow, rank_competition

T = TypeVar("T")

__all__ = [
    "MAX_DIGITS",
    "CardError",
    "GameConfig",
    "GameState",
    "HandOutcome",
    "Option",
    "Placement",
    "Problem",
    "RuleError",
    "StandingRow",
    "Variant",
    "as_count",
    "as_player_id",
    "rank_competition",
    "whole_number",
]


class Ruleset(ABC):
    """A game's rules: metadata, configuration checks and the fold of its hands."""

    slug: ClassVar[str]
    name: ClassVar[str]
    short_description: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    variants: ClassVar[tuple[Variant, ...]] = ()
    default_variant: ClassVar[str | None] = None
    options: ClassVar[tuple[Option, ...]] = ()
    supports_teams: ClassVar[bool] = False
    #: "low" when the lowest score wins, "high" when the highest does.
    wins_with: ClassVar[str] = "high"
    #: What ``score`` in the standings counts, in a few words ("points", "hand wins", "chips").
    score_label: ClassVar[str] = _("points")
    #: Whether a final ranking shows each player's score (False when the standings'
    #: score is not what ranks them, e.g. an unfinished rubber's points).
    ranking_shows_score: ClassVar[bool] = True
    #: The tools every phone at the table shares (:mod:`games.table_tools`), as the
    #: game's document describes its play; none by default.
    table_kit: ClassVar[TableKit] = TableKit()
    #: About the most one player's amount in a hand (:meth:`reported_amounts`) can
    #: reasonably be, in :attr:`plausible_unit`; None: the game never asks the table to
    #: confirm an amount (:mod:`games.plausible`).
    plausible_ceiling: ClassVar[int | None] = None
    #: What :meth:`reported_amounts` counts, in a word ("points", "passes").
    plausible_unit: ClassVar[str] = _("points")
    #: How often the demo league (``manage.py seed_demo``) picks this game, as a weight
    #: among the games, and how many hands it has played of this game tonight (0: no
    #: game of it is in progress).
    demo_weight: ClassVar[int] = 10
    #: Options a game cannot start without (required ones with no default), as an
    #: example: what the documentation and a check of every game pass. Empty for a game
    #: whose every option has a default.
    example_options: ClassVar[Mapping[str, JSON]] = {}
    demo_tonight_hands: ClassVar[int] = 0

    # -- metadata ---------------------------------------------------------------------

    def metadata(self) -> dict[str, JSON]:
        return {
            "slug": self.slug,
            "name": self.name,
            "description": self.short_description,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "variants": [v.as_dict() for v in self.variants],
            "default_variant": self.default_variant,
            "options": {o.name: o.as_dict() for o in self.options},
            "supports_teams": self.supports_teams,
            "wins_with": self.wins_with,
            "score_label": self.score_label,
        }

    @abstractmethod
    def card_points(self, options: Mapping[str, JSON] | None = None) -> list[dict[str, JSON]]:
        """The scoring table as rows ``{"card", "points", "note"}`` (empty when the game
        scores no cards). ``options`` picks the house-rule settings shown."""

    def variant(self, slug: str | None) -> Variant | None:
        if not self.variants:
            if slug not in (None, ""):
                raise RuleError(Words.of(_("%(game)s has no variants"), game=self.name), "variant")
            return None
        slug = slug or self.default_variant
        for variant in self.variants:
            if variant.slug == slug:
                return variant
        allowed = ", ".join(v.slug for v in self.variants)
        raise RuleError(
            Words.of(
                _("'%(variant)s' is not a variant of %(game)s (choose %(allowed)s)"),
                variant=slug,
                game=self.name,
                allowed=allowed,
            ),
            "variant",
        )

    def wins_with_for(self, options: Mapping[str, JSON] | None = None) -> str:
        """Whether the lowest ("low") or highest ("high") score wins with these options."""
        return self.wins_with

    def table_timer_seconds(self, options: Mapping[str, JSON]) -> int | None:
        """How long the table's timer runs with these options (None: the game has no
        timer)."""
        return None

    def rules_hint(
        self,
        next_hand: Mapping[str, JSON],
        names: Mapping[Any, str] | None,
        translate: Translate = identity,
    ) -> str:
        """One line of rules that matters for the hand about to be played (``next_hand``
        as :meth:`play` returns it), with player ids replaced by ``names`` (see
        :func:`games.naming.player_name`), said with ``translate`` (the Django side's
        ``gettext``: English by default); empty when the game has none."""
        return ""

    def reported_amounts(
        self, config: GameConfig, number: int, hand: Mapping[str, JSON]
    ) -> dict[int, int]:
        """Each player's amount in hand ``number``'s stored (checked) input that
        :mod:`games.plausible` compares with the table's usual (in
        :attr:`plausible_unit`): none by default, and none for a player who went out."""
        return {}

    @abstractmethod
    def random_hand(
        self,
        rng: random.Random,
        config: GameConfig,
        state: GameState,
        skill: Mapping[int, float],
    ) -> dict[str, JSON]:
        """A plausible input for the next hand of a game in progress (``state``), as a
        table would report it, dealt from real cards where the game scores cards: for
        the demo league and the benchmarks (``scorekeeper.simulate``). Everything comes
        from ``rng``; players with more ``skill`` (0: average) go out more often (see
        :mod:`games.table_sim`)."""

    def demo_setup(self, rng: random.Random, seats: Sequence[int]) -> dict[str, JSON]:
        """The variant, house rules and teams (``{"variant", "options", "teams"}``, any
        left out) a demo table seated at ``seats`` picks, drawn from ``rng``: the
        defaults unless a game says otherwise."""
        return {}

    def game_title(self, options: Mapping[str, JSON]) -> str:
        """What the table calls a game of these options: the game's name, unless the
        game takes its name from the table (a league keeps each title's standings and
        ratings apart: :meth:`league_scope`)."""
        return self.name

    def league_scope(self, options: Mapping[str, JSON]) -> str:
        """The key under which a league ranks a game of these options: the game's slug,
        or ``<slug>/<title>`` when the table named the game (:meth:`game_title`)."""
        title = self.game_title(options)
        return self.slug if title == self.name else f"{self.slug}/{title}"

    def table_rules(self, options: Mapping[str, JSON]) -> str:
        """The table's own rules for a game of these options, as Markdown (shown safely
        as the game's rules page, before the game's own text); "" when it has none."""
        return ""

    def open_ended(self, config: GameConfig) -> bool:
        """Whether a game of this configuration never ends by its rules: the table closes
        it by hand."""
        return False

    # -- configuration ----------------------------------------------------------------

    def default_options(self, n_players: int) -> dict[str, JSON]:
        return {o.name: o.default for o in self.options}

    def configure(
        self,
        *,
        players: Sequence[int],
        variant: str | None = None,
        options: Mapping[str, JSON] | None = None,
        teams: Sequence[Sequence[int]] | None = None,
        first_dealer: int | None = None,
    ) -> GameConfig:
        """Check a new game's set-up and fill in defaults; :class:`RuleError` if it is off."""
        seats = tuple(players)
        if not seats:
            raise RuleError(_("a game needs players"), "players")
        for p in seats:
            if isinstance(p, bool) or not isinstance(p, int):
                raise RuleError(
                    Words.of(_("%(typed)s is not a player id"), typed=repr(p)), "players"
                )
        if len(set(seats)) != len(seats):
            twice = next(p for p in seats if seats.count(p) > 1)
            raise RuleError(
                Words.of(_("%(player)s is seated twice"), player=mention(twice)), "players"
            )
        n = len(seats)
        if not self.min_players <= n <= self.max_players:
            if self.min_players == self.max_players:
                said = Words.of(
                    _("%(game)s is for exactly %(count)s players, not %(n)s"),
                    game=self.name,
                    count=self.min_players,
                    n=n,
                )
            else:
                said = Words.of(
                    _("%(game)s is for %(min)s to %(max)s players, not %(n)s"),
                    game=self.name,
                    min=self.min_players,
                    max=self.max_players,
                    n=n,
                )
            raise RuleError(said, "players")
        chosen = self.variant(variant)
        effective = self.default_options(n)
        if options is not None:
            if not isinstance(options, Mapping):
                raise RuleError(_("options must be an object of name: value"), "options")
            known = {o.name: o for o in self.options}
            for name, value in options.items():
                if name not in known:
                    allowed = ", ".join(known) or "none"
                    raise RuleError(
                        Words.of(
                            _("'%(option)s' is not an option of %(game)s (options: %(allowed)s)"),
                            option=name,
                            game=self.name,
                            allowed=allowed,
                        ),
                        "options",
                    )
                effective[name] = known[name].clean(value)
        for option in self.options:
            if option.required and effective.get(option.name) in (None, ""):
                raise RuleError(
                    Words.of(_("%(option)s: is required"), option=option.name), "options"
                )
        config_teams = self._check_teams(seats, teams)
        if first_dealer is not None and (
            isinstance(first_dealer, bool) or first_dealer not in seats
        ):
            raise RuleError(
                Words.of(
                    _("first dealer %(typed)s is not seated in this game"), typed=repr(first_dealer)
                ),
                "first_dealer",
            )
        config = GameConfig(
            ruleset=self.slug,
            players=seats,
            variant=chosen.slug if chosen else None,
            options=effective,
            teams=config_teams,
            first_dealer=first_dealer if first_dealer is not None else seats[0],
        )
        self.check_config(config)
        return config

    def _check_teams(
        self, seats: tuple[int, ...], teams: Sequence[Sequence[int]] | None
    ) -> tuple[tuple[int, ...], ...] | None:
        if teams is None:
            return None
        if isinstance(teams, str | bytes) or not isinstance(teams, Sequence):
            raise RuleError(_("teams must be a list of lists of player ids"), "teams")
        if len(teams) == 0:
            return None
        if not self.supports_teams:
            raise RuleError(Words.of(_("%(game)s is not played in teams"), game=self.name), "teams")
        if isinstance(teams, str) or not all(
            isinstance(t, Sequence) and not isinstance(t, str) for t in teams
        ):
            raise RuleError(_("teams must be a list of lists of player ids"), "teams")
        result = tuple(tuple(t) for t in teams)
        members = [p for t in result for p in t]
        for p in members:
            if p not in seats:
                raise RuleError(
                    Words.of(_("%(player)s is in a team but not seated"), player=mention(p)),
                    "teams",
                )
        if len(set(members)) != len(members):
            twice = next(p for p in members if members.count(p) > 1)
            raise RuleError(
                Words.of(_("%(player)s is in two teams"), player=mention(twice)), "teams"
            )
        missing = [p for p in seats if p not in members]
        if missing:
            raise RuleError(
                Words.of(_("%(player)s is in no team"), player=mention(missing[0])), "teams"
            )
        if len(result) < 2:
            raise RuleError(_("partner play needs at least two teams"), "teams")
        if len({len(t) for t in result}) != 1:
            raise RuleError(_("teams must all be the same size"), "teams")
        return result

    def check_config(self, config: GameConfig) -> None:  # noqa: B027 (optional hook)
        """Game-specific checks of a whole configuration (override when needed)."""

    # -- play -------------------------------------------------------------------------

    def play(
        self,
        config: GameConfig,
        hands: Sequence[Mapping[str, JSON]],
        *,
        closed: bool = False,
        state: GameState | None = None,
    ) -> GameState:
        """Fold ``hands`` (inputs in order) into the game's state.

        Raises :class:`RuleError` for an input that breaks the rules, with ``field``
        naming the input field; the message says which hand when it is not the last.
        A hand after the game has ended is an error. ``closed`` ends the game by hand
        after the given hands (an open-ended game, or a table that stops early): the
        standings become the final ranking.

        With ``state`` (the state after the first hands of this game, e.g. one rebuilt
        from stored outcomes with :meth:`resume`), ``hands`` are the hands after those:
        the fold continues from the last hand's ``carry`` and replays nothing. Only the
        last of those earlier outcomes is needed: ``state.hands`` may hold just that one,
        and the returned state's ``hands`` then start there too.
        """
        previous = state.hands if state is not None else ()
        carry = previous[-1].carry if previous else self.start(config)
        before = previous[-1].number if previous else 0
        total = before + len(hands)
        self.check_length(config, total)
        outcomes = list(previous)
        for index, raw in enumerate(hands):
            number = before + index + 1
            self.check_open(config, carry, number)
            try:
                outcome = self.fold(config, carry, number, raw)
            except RuleError as exc:
                raise hand_context(number, exc, total) from None
            outcomes.append(outcome)
            carry = outcome.carry
        if closed and not outcomes:
            raise RuleError(_("a game with no hands cannot be ended; delete it instead"), "closed")
        return self.finish(config, carry, tuple(outcomes), closed=closed)

    def resume(
        self, config: GameConfig, hands: Sequence[HandOutcome], *, closed: bool = False
    ) -> GameState:
        """The state of a game from its stored hand outcomes (each with its ``carry``),
        without folding any hand again: only the standings and what comes next. ``hands``
        may be the last few outcomes only (the last one's ``number`` counts the hands)."""
        outcomes = tuple(hands)
        carry = outcomes[-1].carry if outcomes else self.start(config)
        if closed and not outcomes:
            raise RuleError(_("a game with no hands cannot be ended; delete it instead"), "closed")
        return self.finish(config, carry, outcomes, closed=closed)

    # -- the fold, one hand at a time (what a game's module implements) ---------------

    @abstractmethod
    def start(self, config: GameConfig) -> Mapping[str, JSON]:
        """The fold's running state before the first hand (JSON-able)."""

    def check_length(self, config: GameConfig, hands: int) -> None:  # noqa: B027
        """Raise :class:`RuleError` if a game of this configuration cannot have ``hands``
        hands at all (a fixed number of hands), before any hand is read."""

    @abstractmethod
    def check_open(self, config: GameConfig, carry: Mapping[str, JSON], number: int) -> None:
        """Raise :class:`RuleError` if hand ``number`` cannot be played: the game is over."""

    @abstractmethod
    def fold(
        self, config: GameConfig, carry: Mapping[str, JSON], number: int, raw: Mapping[str, JSON]
    ) -> HandOutcome:
        """Check and score hand ``number`` given the running state ``carry`` (not
        changed); the outcome's ``carry`` is the running state after it."""

    def check_entry(self, config: GameConfig, outcome: HandOutcome) -> None:  # noqa: B027
        """Raise :class:`RuleError` for what a new or corrected hand (folded into
        ``outcome``) must say although a stored hand entered before it was asked is read
        without it. Called where a hand is entered, never when stored hands are
        replayed (override when needed)."""

    @abstractmethod
    def finish(
        self,
        config: GameConfig,
        carry: Mapping[str, JSON],
        hands: tuple[HandOutcome, ...],
        *,
        closed: bool,
    ) -> GameState:
        """The game's state after ``hands``, whose last running state is ``carry``."""

    # -- helpers for subclasses -------------------------------------------------------

    @staticmethod
    def ranked_rows(
        config: GameConfig,
        scores: Mapping[int, int],
        *,
        key: Callable[[int], Any],
        extras: Callable[[int], Mapping[str, JSON]] | None = None,
        team_scores: Sequence[int] | None = None,
        team_key: Callable[[int], Any] | None = None,
    ) -> tuple[StandingRow, ...]:
        """Standings rows, best first, ties sharing a rank. ``key(player)`` (or
        ``team_key(team_index)`` in team play) sorts best first."""
        if config.teams and team_scores is not None:
            assert team_key is not None
            ranked = rank_competition(range(len(config.teams)), team_key)
            return tuple(
                StandingRow(players=config.teams[t], score=team_scores[t], rank=r, team=t)
                for t, r in ranked
            )
        return tuple(
            StandingRow(
                players=(p,), score=scores[p], rank=r, player=p, extras=extras(p) if extras else {}
            )
            for p, r in rank_competition(config.players, key)
        )


def hand_context(number: int, error: RuleError, last: int) -> RuleError:
    """Say which hand an error belongs to when it is not the hand being entered."""
    if number == last:
        return error
    said = f"hand {number}: "
    return type(error)(said + error.words, error.field, error.player).with_problems(
        [Problem(said + p.words, p.field, p.player) for p in error.problems]
    )


def top_ranked(standings: Sequence[StandingRow]) -> tuple[int, ...]:
    """The players sharing first place (every member of a first-placed team)."""
    return tuple(p for row in standings if row.rank == 1 for p in row.players)


def next_hand_of(config: GameConfig, played: int, **facts: JSON) -> dict[str, JSON]:
    """What the table needs before dealing hand ``played + 1``: its number, its dealer,
    and the game's own facts (dirt rank, short players, rubber…)."""
    number = played + 1
    return {"number": number, "dealer": config.dealer_for(number), **facts}


def ceil_div(a: int, b: int) -> int:
    return math.ceil(a / b)


def unique(values: Iterable[T]) -> list[T]:
    seen: list[T] = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen
