"""Any other game of the evening: a points sheet for whatever else the table plays.

The table names the game (``name``: "Hearts", "Rummy"), says whether the highest or the
lowest total wins (``winner``) and how it ends (``end``): after the hand in which any
total reaches ``target`` or more, after ``rounds`` hands, or when the table closes it
(``open``). Each hand is every player's points as the table counted them, negatives
too; ``notes`` are the table's own rules, shown as the game's rules page.

    >>> game = Custom()
    >>> config = game.configure(
    ...     players=[1, 2, 3],
    ...     options={"name": "Hearts", "winner": "low", "end": "target", "target": 30},
    ... )
    >>> hand = lambda a, b, c: {"scores": [{"player": 1, "points": a},
    ...     {"player": 2, "points": b}, {"player": 3, "points": c}]}
    >>> state = game.play(config, [hand(10, 16, 0), hand(13, 0, 13), hand(0, 26, 0)])
    >>> state.finished, state.winners, dict(state.scores), state.ended_by
    (True, (3,), {1: 23, 2: 42, 3: 13}, 'target')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.base import (
    GameConfig,
    GameState,
    HandOutcome,
    Option,
    RuleError,
    Ruleset,
    next_hand_of,
    top_ranked,
    whole_number,
)
from games.errors import Translate, Words, mention
from games.i18n import Count, gettext_noop, identity
from games.naming import Hint, player_words

#: The most (and, negated, the least) points one player may score in a hand.
MAX_POINTS = 100_000
NAME_LENGTH = 60
NOTES_LENGTH = 5_000
ENDS = ("target", "rounds", "open")
#: The sheet's line for the hand in play.
HINT = gettext_noop("%(who)s deals. After the hand, enter every player's points (0 for none).")
HINT_NO_DEALER = gettext_noop("After the hand, enter every player's points (0 for none).")


class Custom(Ruleset):
    slug = "custom"
    name = gettext_noop("Any other game")
    short_description = gettext_noop(
        "Hearts, Rummy, Yahtzee or your family's own: name the game, and the sheet adds "
        "up every hand's points, highest or lowest wins, to a target, a number of rounds "
        "or until you close it."
    )
    min_players = 1
    max_players = 20
    supports_teams = True
    options = (
        Option(
            "name",
            gettext_noop("Game"),
            None,
            (),
            gettext_noop("What the table calls the game (a league ranks each game apart)."),
            max_length=NAME_LENGTH,
            required=True,
        ),
        Option(
            "winner",
            gettext_noop("Who wins"),
            "high",
            ("high", "low"),
            gettext_noop("The highest or the lowest total."),
        ),
        Option(
            "end",
            gettext_noop("The game ends"),
            "target",
            ENDS,
            gettext_noop(
                "At a target total: after the hand in which a total reaches the target. After "
                "a number of rounds: after that many hands. Open: when the table closes it."
            ),
        ),
        Option(
            "target",
            gettext_noop("Target"),
            100,
            (50, 100, 150, 200, 250, 300, 500, 1000),
            gettext_noop("With the target end: the total that ends the game."),
            minimum=1,
            maximum=10_000_000,
        ),
        Option(
            "rounds",
            gettext_noop("Rounds"),
            5,
            (3, 5, 7, 10, 13),
            gettext_noop("With the rounds end: how many hands the game has."),
            minimum=1,
            maximum=1000,
        ),
        Option(
            "notes",
            gettext_noop("Your rules"),
            "",
            (),
            gettext_noop(
                "Optional: the table's own rules (Markdown), shown as the game's rules page."
            ),
            max_length=NOTES_LENGTH,
            multiline=True,
        ),
    )
    score_label = gettext_noop("points")
    #: A hand of most card games scores less; three times the table's usual also asks.
    plausible_ceiling = 1000
    demo_weight = 5
    example_options = {"name": "Hearts"}

    # -- what the options say -----------------------------------------------------------

    def wins_with_for(self, options: Mapping[str, Any] | None = None) -> str:
        return "low" if (options or {}).get("winner") == "low" else "high"

    def game_title(self, options: Mapping[str, Any]) -> str:
        return str(options.get("name") or self.name)

    def table_rules(self, options: Mapping[str, Any]) -> str:
        return str(options.get("notes") or "")

    def rules_hint(
        self,
        next_hand: Mapping[str, Any],
        names: Mapping[Any, str] | None,
        translate: Translate = identity,
    ) -> str:
        dealer = next_hand.get("dealer")
        if dealer is None:
            return Hint(Words.of(HINT_NO_DEALER)).say(translate)
        return Hint(Words.of(HINT, who=player_words(dealer, names))).say(translate)

    def open_ended(self, config: GameConfig) -> bool:
        return config.options.get("end") == "open"

    def hands_total(self, config: GameConfig) -> int | None:
        """The game's number of hands, when it ends after a number of rounds."""
        if config.options.get("end") == "rounds":
            return int(config.options.get("rounds") or 5)
        return None

    def card_points(self, options: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        return []  # the table counts its own points

    # -- input --------------------------------------------------------------------------

    def parse_hand(self, config: GameConfig, raw: object) -> dict[int, int]:
        """Every player's points of a reported hand ``{"scores": [{"player", "points"}]}``."""
        if not isinstance(raw, Mapping):
            raise RuleError(gettext_noop("a hand must be an object with 'scores'"))
        scores = raw.get("scores")
        if not isinstance(scores, list):
            raise RuleError(gettext_noop("give every player's points as a list"), "scores")
        points: dict[int, int] = {}
        for row in scores:
            if not isinstance(row, Mapping):
                raise RuleError(
                    gettext_noop("each score must be an object with 'player' and 'points'"),
                    "scores",
                )
            player = whole_number(row.get("player"))
            if player is None or player not in config.players:
                if player is None:
                    raise RuleError(gettext_noop("a score's player is not in this game"), "scores")
                raise RuleError(
                    Words.of(
                        gettext_noop("%(player)s is not in this game"), player=mention(player)
                    ),
                    "scores",
                )
            if player in points:
                raise RuleError(
                    Words.of(gettext_noop("%(player)s is listed twice"), player=mention(player)),
                    "scores",
                    player,
                )
            value = row.get("points")
            number = whole_number(value) if not isinstance(value, float) else None
            if value is None or value == "" or number is None:
                raise RuleError(
                    Words.of(
                        gettext_noop("%(player)s: points must be a whole number (got %(typed)s)"),
                        player=mention(player),
                        typed=repr(value),
                    ),
                    "scores",
                    player,
                )
            if not -MAX_POINTS <= number <= MAX_POINTS:
                raise RuleError(
                    Words.of(
                        gettext_noop("%(player)s: points must be between −%(most)s and %(most)s"),
                        player=mention(player),
                        most=Count(MAX_POINTS),
                    ),
                    "scores",
                    player,
                )
            points[player] = number
        missing = [p for p in config.players if p not in points]
        if missing:
            raise RuleError(
                Words.of(gettext_noop("%(player)s has no points"), player=mention(missing[0])),
                "scores",
                missing[0],
            )
        return points

    def reported_amounts(
        self, config: GameConfig, number: int, hand: Mapping[str, Any]
    ) -> dict[int, int]:
        return {
            int(row["player"]): abs(int(row["points"]))
            for row in hand.get("scores", [])
            if int(row["points"])
        }

    # -- the fold -----------------------------------------------------------------------

    def start(self, config: GameConfig) -> dict[str, Any]:
        return {"totals": [0] * len(config.players), "over": False}

    def check_length(self, config: GameConfig, hands: int) -> None:
        total = self.hands_total(config)
        if total is not None and hands > total:
            raise RuleError(
                Words.of(gettext_noop("the game is over: it has %(count)s hands"), count=total)
            )

    def check_open(self, config: GameConfig, carry: Mapping[str, Any], number: int) -> None:
        if carry["over"]:
            raise RuleError(
                Words.of(
                    gettext_noop("the game is over: a total reached the target in hand %(number)s"),
                    number=number - 1,
                )
            )

    def fold(
        self, config: GameConfig, carry: Mapping[str, Any], number: int, raw: Mapping[str, Any]
    ) -> HandOutcome:
        points = self.parse_hand(config, raw)
        players = config.players
        totals = [t + points[p] for p, t in zip(players, carry["totals"], strict=True)]
        team_points = None
        sums = totals
        if config.teams:
            team_points = tuple(sum(points[p] for p in team) for team in config.teams)
            by_player = dict(zip(players, totals, strict=True))
            sums = [sum(by_player[p] for p in team) for team in config.teams]
        target = int(config.options.get("target") or 100)
        over = config.options.get("end") == "target" and any(t >= target for t in sums)
        return HandOutcome(
            number,
            config.dealer_for(number),
            None,
            {"scores": [{"player": p, "points": points[p]} for p in players]},
            {p: points[p] for p in players},
            dict(zip(players, totals, strict=True)),
            team_points,
            {},
            {"totals": totals, "over": over},
        )

    def finish(
        self,
        config: GameConfig,
        carry: Mapping[str, Any],
        hands: tuple[HandOutcome, ...],
        *,
        closed: bool,
    ) -> GameState:
        totals = dict(zip(config.players, carry["totals"], strict=True))
        sign = 1 if self.wins_with_for(config.options) == "low" else -1
        team_scores = (
            [sum(totals[p] for p in team) for team in config.teams] if config.teams else None
        )
        standings = self.ranked_rows(
            config,
            totals,
            key=lambda p: sign * totals[p],
            team_scores=team_scores,
            team_key=(lambda t: sign * team_scores[t]) if team_scores else None,
        )
        played = hands[-1].number if hands else 0
        total = self.hands_total(config)
        ended_by = ""
        if carry["over"]:
            ended_by = "target"
        elif total is not None and played >= total:
            ended_by = "hands"
        elif closed:
            ended_by = "closed"
        finished = bool(ended_by)
        return GameState(
            config=config,
            hands=hands,
            scores=totals,
            standings=standings,
            finished=finished,
            winners=top_ranked(standings) if finished else (),
            next_hand=None if finished else next_hand_of(config, played),
            ended_by=ended_by,
        )

    # -- simulated tables ---------------------------------------------------------------

    def random_hand(
        self, rng: random.Random, config: GameConfig, state: GameState, skill: Mapping[int, float]
    ) -> dict[str, Any]:
        low = self.wins_with_for(config.options) == "low"
        scores = []
        for p in config.players:
            good = skill.get(p, 0.0)
            points = max(0, round(rng.gauss(12 - 4 * good if low else 12 + 4 * good, 6)))
            scores.append({"player": p, "points": points})
        return {"scores": scores}

    def demo_setup(self, rng: random.Random, seats: Sequence[int]) -> dict[str, Any]:
        if rng.random() < 0.5:
            return {"options": {"name": "Hearts", "winner": "low", "end": "target", "target": 100}}
        return {"options": {"name": "Rummy", "winner": "high", "end": "rounds", "rounds": 7}}
