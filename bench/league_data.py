"""The big league the league benchmark measures: generated fast, but by the engine.

Imported by ``bench/league_bench.py`` after ``django.setup()``. A few thousand games are
played out by the engine with hands dealt from real cards (:mod:`scorekeeper.simulate`),
seated with placeholder players (:data:`SENTINEL` + seat); each generated game is one of
those templates with real players put in the seats, written with COPY on PostgreSQL
(plain bulk inserts elsewhere). :func:`reuse` finds a league a ``--keep`` run left and
:func:`cleanup` deletes what :func:`generate` wrote.
"""

from __future__ import annotations

import io
import json
import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Max, Model

from games import GameConfig, get_ruleset
from scorekeeper.models import (
    Game,
    Hand,
    HandRevision,
    IdempotencyRecord,
    League,
    LeagueGameCount,
    Membership,
    Player,
    PlayerStanding,
    RatingPoint,
    Seat,
)
from scorekeeper.simulate import play_out, slip_of_the_pen

BENCH_USER = "bench-owner"
#: Placeholder player ids in templates: seat k is SENTINEL + k.
SENTINEL = 7_000_000
SENTINEL_RE = re.compile(r"\b700000\d\b|\b70000[1-9]\d\b")
#: Share of games still in progress, and of hands corrected once.
IN_PROGRESS_SHARE = 0.005
CORRECTION_SHARE = 0.01


def say(message: str) -> None:
    print(message, flush=True)


class Phase:
    """Times a phase and prints it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> Phase:
        self.started = time.perf_counter()
        say(f"  {self.name} …")
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self.started
        say(f"  {self.name}: {self.seconds:.1f} s")


# -- templates ----------------------------------------------------------------------


@dataclass
class Template:
    """A game played out by the engine with placeholder players 0..n-1."""

    ruleset: str
    variant: str
    options_json: str
    teams: list[list[int]] | None
    n: int
    first_dealer: int
    closed: bool
    finished: bool
    seats: list[tuple[int | None, int, int | None, bool]]  # team, score, place, won
    #: Per hand: the input JSON cut at every placeholder id, and the slip first entered
    #: (same form) when the hand was corrected.
    hands: list[tuple[list[str | int], list[str | int] | None]] = field(default_factory=list)


def _cut(value: Any) -> list[str | int]:
    """JSON text as literal chunks and seat numbers, to put real ids in quickly."""
    text = json.dumps(value, separators=(", ", ": "))
    parts: list[str | int] = []
    last = 0
    for match in SENTINEL_RE.finditer(text):
        parts.append(text[last : match.start()])
        parts.append(int(match.group()) - SENTINEL)
        last = match.end()
    parts.append(text[last:])
    return parts


def _fill(parts: list[str | int], ids: Sequence[int]) -> str:
    return "".join(p if isinstance(p, str) else str(ids[p]) for p in parts)


#: The mix of games: (weight, set-up). Screw Your Neighbour is played open-ended and
#: ended by hand, after as many hands as bring the average to ``--hands-per-game``.
GAME_MIX: tuple[tuple[float, dict[str, Any]], ...] = (
    (0.45, {"ruleset": "dirt", "variant": "full", "n": (4, 6)}),
    (0.10, {"ruleset": "dirt", "variant": "full", "n": (4, 4), "teams": True}),
    (0.10, {"ruleset": "damn-you", "n": (8, 8)}),
    (0.10, {"ruleset": "dirty-uno", "n": (3, 6), "options": {"scoring": "penalty"}}),
    (0.10, {"ruleset": "dirty-deals", "n": (4, 4)}),
    (0.15, {"ruleset": "screw-your-neighbour", "n": (3, 6), "options": {"target_wins": 0}}),
)


def make_template(rng: random.Random, setup: dict[str, Any], *, in_progress: bool) -> Template:
    rules = get_ruleset(setup["ruleset"])
    n = rng.randint(*setup["n"])
    seats = [SENTINEL + k for k in range(n)]
    teams = [seats[0::2], seats[1::2]] if setup.get("teams") else None
    config: GameConfig = rules.configure(
        players=seats,
        variant=setup.get("variant"),
        options=setup.get("options"),
        teams=teams,
        first_dealer=rng.choice(seats),
    )
    skill = {p: rng.gauss(0, 0.5) for p in seats}
    close_after = setup.get("close_after")
    limit = close_after if close_after else None
    if in_progress:
        limit = rng.randint(1, 3)
    inputs, state = play_out(rng, config, skill, max_hands=limit)
    closed = bool(close_after) and not in_progress and not state.finished
    if closed:
        state = rules.play(config, inputs, closed=True)
    place_of = {p: row.rank for row in state.standings for p in row.players}
    winners = set(state.winners)
    template = Template(
        ruleset=rules.slug,
        variant=config.variant or "",
        options_json=json.dumps(dict(config.options)),
        teams=[[p - SENTINEL for p in t] for t in config.teams] if config.teams else None,
        n=n,
        first_dealer=(config.first_dealer or seats[0]) - SENTINEL,
        closed=closed,
        finished=state.finished,
        seats=[
            (
                config.team_of(p),
                int(state.scores.get(p, 0)),
                place_of.get(p) if state.finished else None,
                p in winners,
            )
            for p in seats
        ],
    )
    for hand in inputs:
        slip = slip_of_the_pen(rng, hand) if rng.random() < CORRECTION_SHARE else None
        template.hands.append((_cut(hand), _cut(slip) if slip is not None else None))
    return template


def make_templates(rng: random.Random, count: int, hands_per_game: int) -> list[Template]:
    """``count`` templates in the proportions of :data:`GAME_MIX`; about one in two
    hundred is left in progress."""
    every = max(1, round(1 / IN_PROGRESS_SHARE))
    plan = [setup for weight, setup in GAME_MIX for _ in range(max(1, round(weight * count)))]
    rng.shuffle(plan)
    natural = [s for s in plan if s["ruleset"] != "screw-your-neighbour"]
    templates = [
        make_template(rng, setup, in_progress=index % every == 0)
        for index, setup in enumerate(natural)
    ]
    finished = [len(t.hands) for t in templates if t.finished]
    share = 1 - len(natural) / len(plan)
    mean = sum(finished) / len(finished)
    close_after = max(3, round((hands_per_game - (1 - share) * mean) / share)) if share else 0
    open_ended = [s for s in plan if s["ruleset"] == "screw-your-neighbour"]
    for index, setup in enumerate(open_ended):
        templates.append(
            make_template(
                rng, {**setup, "close_after": close_after}, in_progress=index % every == 0
            )
        )
    return templates


# -- writing ------------------------------------------------------------------------


def _first_free_id(model: type[Model]) -> int:
    """The first id after the table's last (the sequence is moved past the ids used
    afterwards, see ``_advance_sequences``)."""
    top = model._default_manager.aggregate(m=Max("id"))["m"] or 0
    return int(top) + 1


def _advance_sequences(models: Sequence[type[Model]]) -> None:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in models:
            table = model._meta.db_table
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT COALESCE(MAX(id), 1) FROM {table}))"
            )


def _value(value: Any) -> str:
    if value is None:
        return "\\N"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def _sqlite_value(value: Any) -> Any:
    # Django keeps SQLite datetimes as naive UTC text.
    if isinstance(value, datetime):
        return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ")
    return value


class Writer:
    """Rows for one table: COPY on PostgreSQL, executemany elsewhere."""

    def __init__(self, model: type[Model], columns: Sequence[str]) -> None:
        self.model = model
        self.table = model._meta.db_table
        self.columns = list(columns)
        self.buffer = io.StringIO()
        self.rows: list[tuple[Any, ...]] = []
        self.count = 0

    def add(self, *values: Any) -> None:
        self.count += 1
        if connection.vendor == "postgresql":
            self.buffer.write("\t".join(_value(v) for v in values))
            self.buffer.write("\n")
            if self.buffer.tell() > 8_000_000:
                self.flush()
        else:
            self.rows.append(tuple(_sqlite_value(v) for v in values))
            if len(self.rows) >= 5000:
                self.flush()

    def flush(self) -> None:
        cols = ", ".join(self.columns)
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                data = self.buffer.getvalue()
                if data:
                    raw = cursor.cursor  # psycopg's own cursor, for COPY
                    with raw.copy(f"COPY {self.table} ({cols}) FROM STDIN") as copy:
                        copy.write(data)
                self.buffer = io.StringIO()
            elif self.rows:
                marks = ", ".join(["%s"] * len(self.columns))
                cursor.executemany(f"INSERT INTO {self.table} ({cols}) VALUES ({marks})", self.rows)
                self.rows = []


@dataclass
class Generated:
    leagues: list[League]
    owner: User
    players: list[int]
    games: int
    hands: int
    revisions: int
    seats: int


def generate(
    rng: random.Random,
    templates: list[Template],
    *,
    n_players: int,
    n_games: int,
    n_leagues: int,
) -> Generated:
    now = datetime.now(UTC)
    owner = User.objects.filter(username=BENCH_USER).first() or User.objects.create_user(
        BENCH_USER, password=None
    )
    stamp = now.strftime("%Y%m%d-%H%M%S")
    leagues = [
        League.objects.create(name=f"Bench league {i + 1} ({stamp})", owner=owner)
        for i in range(n_leagues)
    ]
    created = Player.objects.bulk_create(
        Player(name=f"Player {i + 1:04d}", created_by=owner) for i in range(n_players)
    )
    players = [p.pk for p in created]
    roster = {lg.pk: players[i::n_leagues] for i, lg in enumerate(leagues)}
    Membership.objects.bulk_create(
        Membership(league_id=lid, player_id=pid) for lid, ids in roster.items() for pid in ids
    )

    games = Writer(
        Game,
        [
            "id", "ruleset", "variant", "options", "teams", "first_dealer_id", "league_id",
            "owner_id", "closed", "created_at", "updated_at", "version", "status",
            "finished_at", "hand_count",
        ],
    )  # fmt: skip
    seats = Writer(
        Seat, ["id", "game_id", "player_id", "position", "team", "score", "place", "won"]
    )
    hands = Writer(
        Hand,
        ["id", "game_id", "number", "input", "derived", "revision", "created_by_id",
         "created_at", "updated_at"],
    )  # fmt: skip
    revisions = Writer(
        HandRevision,
        ["id", "game_id", "number", "revision", "action", "input", "user_id", "created_at"],
    )
    game_id = _first_free_id(Game)
    seat_id = _first_free_id(Seat)
    hand_id = _first_free_id(Hand)
    revision_id = _first_free_id(HandRevision)
    # Two years of games, oldest first; the last ones still being played.
    span = timedelta(days=730)
    start = now - span
    step = span / max(1, n_games)
    finished_templates = [t for t in templates if t.finished]
    open_templates = [t for t in templates if not t.finished]
    n_open = max(1, round(n_games * IN_PROGRESS_SHARE)) if open_templates else 0
    league_ids = [lg.pk for lg in leagues]
    for index in range(n_games):
        league_id = league_ids[index % n_leagues]
        pool = (
            open_templates if index >= n_games - n_open and open_templates else finished_templates
        )
        t = rng.choice(pool)
        ids = rng.sample(roster[league_id], t.n)
        created_at = start + step * index + timedelta(seconds=rng.randint(0, 600))
        clock = created_at
        gid = game_id + index
        for number, (parts, slip) in enumerate(t.hands, start=1):
            clock += timedelta(minutes=rng.randint(5, 11))
            text = _fill(parts, ids)
            if slip is not None:
                revisions.add(revision_id, gid, number, 1, "recorded", _fill(slip, ids),
                              owner.pk, clock)  # fmt: skip
                revisions.add(revision_id + 1, gid, number, 2, "corrected", text, owner.pk,
                              clock + timedelta(minutes=1))  # fmt: skip
                revision_id += 2
            else:
                revisions.add(revision_id, gid, number, 1, "recorded", text, owner.pk, clock)
                revision_id += 1
            # No stored outcome (the league pages never read one): a game's sheet folds
            # its hands once, and its next write (or rebuild_derived) stores them.
            hands.add(hand_id, gid, number, text, "{}", 2 if slip is not None else 1,
                      owner.pk, clock, clock)  # fmt: skip
            hand_id += 1
        teams = json.dumps([[ids[k] for k in team] for team in t.teams]) if t.teams else None
        games.add(
            gid, t.ruleset, t.variant, t.options_json, teams, ids[t.first_dealer], league_id,
            owner.pk, t.closed, created_at, clock, len(t.hands) + 1,
            "finished" if t.finished else "in_progress", clock if t.finished else None,
            len(t.hands),
        )  # fmt: skip
        for position, (team, score, place, won) in enumerate(t.seats):
            seats.add(seat_id, gid, ids[position], position, team, score, place, won)
            seat_id += 1
    for writer in (games, seats, hands, revisions):
        writer.flush()
    _advance_sequences([Game, Seat, Hand, HandRevision])
    return Generated(
        leagues=leagues,
        owner=owner,
        players=players,
        games=games.count,
        hands=hands.count,
        revisions=revisions.count,
        seats=seats.count,
    )


def reuse() -> Generated | None:
    """What an earlier ``--keep`` run left (its latest league)."""
    league = League.objects.filter(owner__username=BENCH_USER).order_by("-id").first()
    if league is None:
        return None
    players = list(Membership.objects.filter(league=league).values_list("player_id", flat=True))
    return Generated(
        leagues=[league],
        owner=league.owner,
        players=players,
        games=Game.objects.filter(league=league).count(),
        hands=Hand.objects.filter(game__league=league).count(),
        revisions=HandRevision.objects.filter(game__league=league).count(),
        seats=Seat.objects.filter(game__league=league).count(),
    )


def analyse() -> None:
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        return
    with connection.cursor() as cursor:
        for model in (Player, League, Membership, Game, Seat, Hand, HandRevision,
                      PlayerStanding, RatingPoint):  # fmt: skip
            cursor.execute(f"VACUUM (ANALYZE) {model._meta.db_table}")


def cleanup(generated: Generated) -> None:
    """Delete what the bench made, children first (SQL: the ORM's cascade would load
    millions of rows)."""
    league_ids = [lg.pk for lg in generated.leagues]
    marks = ", ".join(["%s"] * len(league_ids))
    game_sub = f"SELECT id FROM {Game._meta.db_table} WHERE league_id IN ({marks})"
    with transaction.atomic(), connection.cursor() as cursor:
        for table in (
            RatingPoint._meta.db_table,
            PlayerStanding._meta.db_table,
            LeagueGameCount._meta.db_table,  # the games' deletion only updates it
        ):
            cursor.execute(f"DELETE FROM {table} WHERE league_id IN ({marks})", league_ids)
        for child in (HandRevision, Hand, Seat, IdempotencyRecord):
            cursor.execute(
                f"DELETE FROM {child._meta.db_table} WHERE game_id IN ({game_sub})", league_ids
            )
        cursor.execute(
            f"DELETE FROM {Game._meta.db_table} WHERE league_id IN ({marks})", league_ids
        )
        cursor.execute(
            f"DELETE FROM {Membership._meta.db_table} WHERE league_id IN ({marks})", league_ids
        )
        cursor.execute(f"DELETE FROM {League._meta.db_table} WHERE id IN ({marks})", league_ids)
        Player.objects.filter(pk__in=generated.players).delete()
