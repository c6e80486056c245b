"""``manage.py seed_demo``: a demo league with a year of Thursday game nights, so a new
install shows a living app (``make run`` loads it).

Creates the account **demo** (password ``demo``) with its player, and the league
"Thursday Card Club": ten regulars, about fifty weekly nights of one to three games
across all five games, a few hands corrected or undone along the way, and three games
in progress tonight. Every game goes through the game services (``game_create``,
``hand_record``, ``hand_replace``, ``hand_undo``), so the engine checks each hand and
the league statistics are kept exactly as for games entered at a real table; hands are
dealt from real decks by :mod:`scorekeeper.simulate`, from a fixed seed, so every
install gets the same league. Only the timestamps are then moved back to the evenings
the games were played.

Running it again changes nothing once the league exists.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from games import RULESETS, GameState, RuleError, get_ruleset
from scorekeeper.models import Game, Hand, HandRevision, League, Membership, Player
from scorekeeper.selectors.games import game_config
from scorekeeper.services import seasons
from scorekeeper.services.games import (
    game_close,
    game_create,
    hand_record,
    hand_replace,
    hand_undo,
)
from scorekeeper.services.players import league_add_member
from scorekeeper.simulate import next_hand, slip_of_the_pen

LEAGUE_NAME = "Thursday Card Club"
DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo"
SEED = 20240606

#: The regulars: name, how good they are (0 = average), how often they come.
REGULARS: tuple[tuple[str, float, float], ...] = (
    ("Demo", 0.2, 0.85),
    ("Marisol", 0.8, 0.8),
    ("Theo", -0.3, 0.75),
    ("Priya", 0.5, 0.7),
    ("Grandpa Joe", 0.1, 0.9),
    ("Keisha", 0.4, 0.6),
    ("Lars", -0.6, 0.65),
    ("Aiko", 0.0, 0.55),
    ("Ben", -0.2, 0.5),
    ("Fatima", 0.6, 0.45),
)
WEEKS = 52
#: Weeks off (holidays, a summer break), counted back from the latest night.
WEEKS_OFF = frozenset({6, 7, 29})
#: The last this many nights (and tonight) are the season under way, "Autumn".
AUTUMN_NIGHTS = 12
#: How the table picks what to play: each game's ``demo_weight`` (a game is only picked
#: when enough players are at the table for it).
RULESET_WEIGHTS: dict[str, int] = {slug: rules.demo_weight for slug, rules in RULESETS.items()}
#: Tonight's games, still being played: ruleset and hands so far (each game's
#: ``demo_tonight_hands``; the demo player is at each of these tables).
TONIGHT: tuple[tuple[str, int], ...] = tuple(
    (slug, rules.demo_tonight_hands)
    for slug, rules in RULESETS.items()
    if rules.demo_tonight_hands > 0
)
#: Tonight's games started this many minutes apart, the last one a quarter of an hour ago.
TONIGHT_APART = 40
#: Chance that a hand is first entered with a slip and then corrected (or undone).
CORRECTION_RATE = 0.05
UNDO_RATE = 0.015


@dataclass
class Tally:
    nights: int = 0
    games: int = 0
    in_progress: int = 0
    hands: int = 0
    corrections: int = 0
    undos: int = 0
    by_ruleset: dict[str, int] = field(default_factory=dict)


def _played(state: GameState) -> int:
    """Hands played (a service's state holds only the last hands)."""
    return state.hands[-1].number if state.hands else 0


class Command(BaseCommand):
    help = "Load a demo league (user demo / password demo) with a year of game nights."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--weeks",
            type=int,
            default=WEEKS,
            help=f"How many weeks of game nights to play (default {WEEKS}).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        existing = League.objects.filter(name=LEAGUE_NAME, owner__username=DEMO_USERNAME).first()
        if existing is not None:
            self.stdout.write(
                f"The demo league is already loaded (league {existing.pk}, "
                f"{existing.games.count()} games): nothing to do. "
                f"Sign in as {DEMO_USERNAME} / {DEMO_PASSWORD}."
            )
            return
        with transaction.atomic():
            league, tally = DemoSeeder(weeks=max(1, options["weeks"])).run()
        shares = ", ".join(f"{n} {slug}" for slug, n in sorted(tally.by_ruleset.items()))
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded the demo league “{league.name}” (id {league.pk}) in "
                f"{time.perf_counter() - started:.1f}s: {len(REGULARS)} players, "
                f"{tally.nights} game nights, {tally.games} games ({shares}), "
                f"{tally.in_progress} in progress tonight, {tally.hands} hands, "
                f"{tally.corrections} corrected and {tally.undos} undone."
            )
        )
        self.stdout.write(f"Sign in as {DEMO_USERNAME} / {DEMO_PASSWORD}.")


class DemoSeeder:
    def __init__(self, *, weeks: int) -> None:
        self.weeks = weeks
        self.rng = random.Random(SEED)
        self.tally = Tally()

    def run(self) -> tuple[League, Tally]:
        self.user = self._demo_user()
        players = self._players()
        self.skill = {p.pk: s for p, (_, s, _) in zip(players, REGULARS, strict=True)}
        nights = self._nights()
        season_start = nights[0] - timedelta(days=3)
        self.league = League.objects.create(name=LEAGUE_NAME, owner=self.user)
        for player in players:
            league_add_member(league=self.league, player=player, user=self.user)
        League.objects.filter(pk=self.league.pk).update(created_at=season_start)
        Membership.objects.filter(league=self.league).update(joined_at=season_start)
        Player.objects.filter(pk__in=[p.pk for p in players], created_at__gt=season_start).update(
            created_at=season_start
        )
        rulesets = list(RULESET_WEIGHTS)
        for index, night in enumerate(nights):
            here = [
                p for p, (_, _, comes) in zip(players, REGULARS, strict=True)
                if self.rng.random() < comes
            ]  # fmt: skip
            if len(here) < 4:
                here = self.rng.sample(players, 4)
            n_games = self.rng.choices((1, 2, 3), weights=(3, 5, 2))[0]
            clock = night
            for number in range(n_games):
                # The first nights go round every game once, so each has a history.
                slug = (
                    rulesets[index]
                    if number == 0 and index < len(rulesets)
                    else self._pick_ruleset(len(here))
                )
                clock = self._play_game(slug, here, clock) + timedelta(minutes=10)
            self.tally.nights += 1
        # The club started a season for the autumn: the nights before it are its first
        # season, closed with its final table and champion.
        autumn = timezone.localdate(nights[max(0, len(nights) - AUTUMN_NIGHTS)])
        seasons.season_start(league=self.league, user=self.user, name="Autumn", start=autumn)
        self._tonight(players)
        return self.league, self.tally

    # -- set-up ---------------------------------------------------------------------

    def _demo_user(self) -> User:
        user = User.objects.filter(username=DEMO_USERNAME).first()
        if user is None:
            user = User.objects.create_user(DEMO_USERNAME, password=DEMO_PASSWORD)
        return user

    def _players(self) -> list[Player]:
        players = []
        for name, _, _ in REGULARS:
            if name == "Demo":
                player = Player.objects.filter(user=self.user).first()
                if player is None:
                    player = Player.objects.create(name=name, user=self.user, created_by=self.user)
            else:
                player = Player.objects.filter(name=name, created_by=self.user).first()
                if player is None:
                    player = Player.objects.create(name=name, created_by=self.user)
            players.append(player)
        return players

    def _nights(self) -> list[datetime]:
        """Thursday evenings at half past seven, the latest one last week or earlier."""
        today = timezone.localdate()
        last = today - timedelta(days=(today.weekday() - 3) % 7 or 7)
        days: list[date] = [
            last - timedelta(weeks=w) for w in range(self.weeks) if w not in WEEKS_OFF
        ]
        tz = timezone.get_current_timezone()
        return [datetime(d.year, d.month, d.day, 19, 30, tzinfo=tz) for d in reversed(days)]

    def _pick_ruleset(self, at_table: int) -> str:
        choices = {
            slug: weight
            for slug, weight in RULESET_WEIGHTS.items()
            if get_ruleset(slug).min_players <= at_table
        }
        return self.rng.choices(list(choices), weights=list(choices.values()))[0]

    def _setup(self, slug: str, here: list[Player]) -> dict[str, Any]:
        """Who sits where, and the variant and house rules the table chose."""
        rules = get_ruleset(slug)
        seated = self.rng.sample(here, min(len(here), rules.max_players))
        ids = [p.pk for p in seated]
        setup: dict[str, Any] = {
            "players": ids,
            "first_dealer": self.rng.choice(ids),
            "options": {},
        }
        setup.update(rules.demo_setup(self.rng, ids))
        return setup

    # -- playing --------------------------------------------------------------------

    def _play_game(
        self, slug: str, here: list[Player], start: datetime, *, hands: int | None = None
    ) -> datetime:
        """Play one game through the services from ``start``; ``hands`` stops early (a
        game still in progress). Returns when it ended."""
        game = game_create(owner=self.user, ruleset=slug, league=self.league,
                           **self._setup(slug, here))  # fmt: skip
        # Set the start before any hand: league ratings follow the games' start times.
        Game.objects.filter(pk=game.pk).update(created_at=start)
        game.refresh_from_db()
        config = game_config(game)
        rules = get_ruleset(slug)
        state: GameState = rules.play(config, [])
        # A game that never ends by its rules: the table stops after a few hands.
        open_ended_hands = self.rng.randint(4, 7) if rules.open_ended(config) else None
        while not state.finished and (hands is None or _played(state) < hands):
            if open_ended_hands is not None and _played(state) >= open_ended_hands:
                state = game_close(game=game, user=self.user)
                break
            state = self._record(game, config, state)
        self._move_clock(game, start)
        if hands is None:
            self.tally.games += 1
            self.tally.by_ruleset[slug] = self.tally.by_ruleset.get(slug, 0) + 1
        else:
            self.tally.in_progress += 1
        return Game.objects.get(pk=game.pk).finished_at or start

    def _record(self, game: Game, config: Any, state: GameState) -> GameState:
        """Record the next hand, now and then entering a slip first and then correcting
        it on the sheet (or undoing it and entering it again)."""
        true_hand = next_hand(self.rng, config, state, self.skill)
        number = _played(state) + 1
        roll = self.rng.random()
        slip = slip_of_the_pen(self.rng, true_hand) if roll < CORRECTION_RATE + UNDO_RATE else None
        if slip is not None:
            try:
                hand_record(game=game, user=self.user, hand_input=slip)
            except RuleError:
                slip = None  # the engine caught the slip: nothing stored, enter it right
            else:
                if roll < UNDO_RATE:
                    hand_undo(game=game, number=number, user=self.user)
                    self.tally.undos += 1
                else:
                    fixed = hand_replace(
                        game=game,
                        number=number,
                        user=self.user,
                        hand_input=true_hand,
                    )
                    self.tally.corrections += 1
                    self.tally.hands += 1
                    return fixed.state
        written = hand_record(game=game, user=self.user, hand_input=true_hand)
        self.tally.hands += 1
        return written.state

    def _move_clock(self, game: Game, start: datetime) -> None:
        """Put the game's hands and revisions at the evening it was played: a hand every
        six to twelve minutes, a correction a minute or two after the slip."""
        clock = start
        revisions = list(HandRevision.objects.filter(game=game).order_by("id"))
        for revision in revisions:
            if revision.action == "recorded":
                clock += timedelta(minutes=self.rng.randint(6, 12))
            else:
                clock += timedelta(minutes=self.rng.randint(1, 2), seconds=self.rng.randint(0, 59))
            revision.created_at = clock
        HandRevision.objects.bulk_update(revisions, ["created_at"])
        # A hand was entered at its latest "recorded" revision (an undone one was entered
        # again after it).
        entered = {r.number: r.created_at for r in revisions if r.action == "recorded"}
        hands = list(Hand.objects.filter(game=game))
        for hand in hands:
            hand.created_at = entered[hand.number]
        Hand.objects.bulk_update(hands, ["created_at"])
        finished = Game.objects.filter(pk=game.pk, finished_at__isnull=False)
        finished.update(finished_at=clock)

    def _tonight(self, players: list[Player]) -> None:
        """Games still being played: the demo player is at every table."""
        demo = players[0]
        now = timezone.now()
        others = list(players[1:])
        for index, (slug, hands) in enumerate(TONIGHT):
            minutes_ago = 15 + TONIGHT_APART * (len(TONIGHT) - 1 - index)
            table = [demo, *self.rng.sample(others, 4)]
            self._play_game(slug, table, now - timedelta(minutes=minutes_ago), hands=hands)
