"""League read paths at scale: generate a big league in PostgreSQL, then time the pages.

    /work/shared/ci/with-postgres.sh .venv/bin/python bench/league_bench.py
    .venv/bin/python bench/league_bench.py --small          # a quick look, SQLite allowed

Generates (default) 1,000 players, 100,000 games and about 1,000,000 hands (each with its
revision history) in one league, then requests the league standings (API and page),
the league's game history (API and page) and player pages ``--requests`` times each
through the Django test client, as a signed-in member, and prints p50 / p95 / max in
milliseconds and the SQL queries per request, against the target: 40 ms at p95, with a
number of queries that does not grow with the data. Every read path is marked MET or NOT
MET, and a final line says whether all of them are; the history's last page (the deepest
``?page=N``) and the head-to-head page are measured as well as the first pages.

How the data is made, fast but honest: a few thousand games are played out by the
engine with hands dealt from real cards (:mod:`scorekeeper.simulate`), seated with
placeholder players; each of the 100,000 games is one of those with real players put in
the seats. A game's results do not depend on who sits in a seat, so each game's derived
columns (status, hand count, every seat's score, place and win) are the engine's
results for its template. Rows go in with COPY (plain bulk inserts on SQLite), then the
stats service rebuilds the league's standings and ratings (``league_stats_rebuild``),
and the tables are analysed. The data is deleted at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import random
import re
import secrets
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
# Production-like settings (DEBUG off), without needing a deployment's secrets.
os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_hex(24))
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
os.environ.setdefault("STATIC_MANIFEST", "0")
os.environ.setdefault("SECURE_COOKIES", "0")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.models import Max, Model  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games import GameConfig, get_ruleset  # noqa: E402
from scorekeeper.models import (  # noqa: E402
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
from scorekeeper.services.stats import league_stats_rebuild  # noqa: E402
from scorekeeper.simulate import play_out, slip_of_the_pen  # noqa: E402
from scorekeeper.web.leagues import HISTORY_PAGE  # noqa: E402

TARGET_MS = 40.0
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


# -- measuring ----------------------------------------------------------------------


def p95(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


@dataclass
class Result:
    name: str
    times_ms: list[float]
    cpu_ms: list[float]
    sql_ms: list[float]
    queries: list[int]
    statuses: set[int]
    core: bool

    @property
    def p50(self) -> float:
        return statistics.median(self.times_ms)

    @property
    def p95(self) -> float:
        return p95(self.times_ms)

    @property
    def ok(self) -> bool:
        return self.p95 <= TARGET_MS and self.statuses == {200}


def measure(
    client: Client,
    name: str,
    url: Callable[[random.Random], str],
    *,
    requests: int,
    rng: random.Random,
    core: bool = True,
    headers: dict[str, str] | None = None,
) -> Result:
    for _ in range(5):  # warm-up: connections, template loading, plan caches
        client.get(url(rng), headers=headers)
    times: list[float] = []
    cpu: list[float] = []
    sql: list[float] = []
    queries: list[int] = []
    statuses: set[int] = set()
    for _ in range(requests):
        target = url(rng)
        with CaptureQueriesContext(connection) as captured:
            started, started_cpu = time.perf_counter(), time.process_time()
            response = client.get(target, headers=headers)
            if getattr(response, "streaming", False):
                b"".join(response.streaming_content)  # type: ignore[attr-defined]
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        queries.append(len(captured))
        sql.append(sum(float(q["time"]) for q in captured.captured_queries) * 1000)
        statuses.add(response.status_code)
    return Result(name, times, cpu, sql, queries, statuses, core)


def measure_all(generated: Generated, *, requests: int, rng: random.Random) -> list[Result]:
    league = generated.leagues[0]
    lid = league.pk
    members = list(Membership.objects.filter(league=league).values_list("player_id", flat=True))
    client = Client()
    client.force_login(generated.owner)
    htmx_history = {"HX-Request": "true", "HX-Target": "history"}
    htmx_standings = {"HX-Request": "true", "HX-Target": "standings"}
    league_games = Game.objects.filter(league=league).count()
    pages = max(1, min(50, league_games // 25))
    last_page = max(1, math.ceil(league_games / 25))
    last_html_page = max(1, math.ceil(league_games / HISTORY_PAGE))

    def player(r: random.Random) -> int:
        return r.choice(members)

    def pair(r: random.Random) -> str:
        a, b = r.sample(members, 2)
        return f"a={a}&b={b}"

    checks: list[tuple[str, Callable[[random.Random], str], dict[str, Any]]] = [
        ("standings API (all games)", lambda r: f"/api/v1/leagues/{lid}/standings/", {}),
        (
            "standings API (one game)",
            lambda r: (
                f"/api/v1/leagues/{lid}/standings/?ruleset="
                + r.choice(["dirt", "damn-you", "dirty-uno", "dirty-deals", "screw-your-neighbour"])
            ),
            {},
        ),
        ("league page (standings + history)", lambda r: f"/leagues/{lid}/", {}),
        (
            "standings partial (htmx, one game)",
            lambda r: f"/leagues/{lid}/?standings=" + r.choice(["dirt", "damn-you"]),
            {"headers": htmx_standings},
        ),
        (
            f"history API (pages 1-{pages})",
            lambda r: f"/api/v1/leagues/{lid}/games/?page={r.randint(1, pages)}",
            {},
        ),
        (
            "history API (one game, one player)",
            lambda r: f"/api/v1/leagues/{lid}/games/?ruleset=dirt&player={player(r)}",
            {},
        ),
        (
            f"history partial (htmx, pages 1-{pages})",
            lambda r: f"/leagues/{lid}/?page={r.randint(1, pages)}",
            {"headers": htmx_history},
        ),
        ("player page", lambda r: f"/players/{player(r)}/", {}),
        (
            "player rating API",
            lambda r: f"/api/v1/players/{player(r)}/ratings/?league={lid}",
            {},
        ),
        (
            f"history API (last page, {last_page})",
            lambda r: f"/api/v1/leagues/{lid}/games/?page={last_page}",
            {},
        ),
        (
            f"history partial (htmx, last page, {last_html_page})",
            lambda r: f"/leagues/{lid}/?page={last_html_page}",
            {"headers": htmx_history},
        ),
        ("head-to-head page", lambda r: f"/leagues/{lid}/head-to-head/?{pair(r)}", {}),
        ("head-to-head API", lambda r: f"/api/v1/leagues/{lid}/head-to-head/?{pair(r)}", {}),
    ]
    results = []
    for name, url, extra in checks:
        result = measure(
            client,
            name,
            url,
            requests=requests,
            rng=rng,
            core=extra.get("core", True),
            headers=extra.get("headers"),
        )
        results.append(result)
        say(
            f"    {name}: p95 {result.p95:.1f} ms, {_queries(result.queries)} queries"
            + ("" if result.statuses == {200} else f", statuses {sorted(result.statuses)}")
        )
    return results


def _queries(counts: list[int]) -> str:
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}-{high}"


def report(results: list[Result], generated: Generated, requests: int) -> bool:
    say("")
    say(
        f"Results: {requests} requests each, one league of {len(generated.players):,} players, "
        f"{generated.games:,} games, {generated.hands:,} hands ({connection.vendor})"
    )
    header = (
        f"{'read path':<40} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} {'cpu p95':>8} "
        f"{'sql p95':>8} {'queries':>8}  {TARGET_MS:g} ms p95"
    )
    say(header)
    say("-" * len(header))
    all_ok = True
    for r in results:
        verdict = (
            ("MET" if r.ok else "NOT MET" if r.statuses == {200} else "ERROR")
            if r.core
            else ("(info)")
        )
        if r.core and not r.ok:
            all_ok = False
        say(
            f"{r.name:<40} {r.p50:>7.1f} {r.p95:>7.1f} {max(r.times_ms):>7.1f} "
            f"{p95(r.cpu_ms):>8.1f} {p95(r.sql_ms):>8.1f} {_queries(r.queries):>8}  {verdict}"
        )
    say(
        "(wall-clock ms per request through the test client; cpu: this process's own time, "
        "without waiting for the CPU or the database; sql: time in queries)"
    )
    load = os.getloadavg()[0]
    if load > (os.cpu_count() or 1):
        say(
            f"Note: the machine was busy (load {load:.1f} on {os.cpu_count()} CPUs): wall "
            "times include waiting for a CPU."
        )
    say("")
    missed = [r.name for r in results if r.core and not r.ok]
    say(
        f"TARGET MET: all {len(results)} read paths within {TARGET_MS:g} ms at p95."
        if all_ok
        else f"TARGET NOT MET: {len(missed)} of {len(results)} read paths over "
        f"{TARGET_MS:g} ms at p95 ({', '.join(missed)})."
    )
    return all_ok


# -- main ---------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument(
        "--hands-per-game", type=int, default=10, help="Average hands per game (default 10)."
    )
    parser.add_argument("--requests", type=int, default=200, help="Requests per read path.")
    parser.add_argument("--leagues", type=int, default=1,
                        help="Spread players and games over this many leagues (the first is "
                             "measured).")  # fmt: skip
    parser.add_argument("--templates", type=int, default=3000,
                        help="Distinct games played out by the engine.")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="Leave the generated data in place.")
    parser.add_argument("--reuse", action="store_true",
                        help="Measure the league a previous run left with --keep, without "
                             "generating anything (and keep it).")  # fmt: skip
    parser.add_argument("--small", action="store_true",
                        help="A quick run (100 players, 2,000 games, 50 requests); allowed on "
                             "SQLite.")  # fmt: skip
    args = parser.parse_args(argv)
    if args.small:
        args.players = min(args.players, 100)
        args.games = min(args.games, 2000)
        args.requests = min(args.requests, 50)
        args.templates = min(args.templates, 300)
    if connection.vendor != "postgresql" and not args.small:
        say(
            "This benchmark is about PostgreSQL: set DATABASE_URL=postgres://… (or run it "
            "through with-postgres.sh), or add --small for a quick run on SQLite."
        )
        return 2
    if args.players < 8 * args.leagues:
        say("Need at least 8 players per league (D$%n You! seats eight).")
        return 2
    rng = random.Random(args.seed)
    say(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    say(
        f"league_bench: {args.players:,} players, {args.games:,} games, ~{args.hands_per_game} "
        f"hands per game, {args.leagues} league(s), on {connection.vendor} "
        f"({connection.settings_dict.get('NAME')})"
    )
    started = time.perf_counter()
    with Phase("migrate"):
        call_command("migrate", verbosity=0, interactive=False)
    if args.reuse:
        kept = reuse()
        if kept is None:
            say("No league left by an earlier run with --keep: run without --reuse first.")
            return 2
        results = measure_all(kept, requests=args.requests, rng=rng)
        ok = report(results, kept, args.requests)
        say(f"Total: {time.perf_counter() - started:.0f} s")
        return 0 if ok else 1
    with Phase(f"play {args.templates:,} template games through the engine"):
        templates = make_templates(rng, args.templates, args.hands_per_game)
    with Phase("write players, league, games, seats, hands and revisions"), transaction.atomic():
        generated = generate(
            rng, templates, n_players=args.players, n_games=args.games, n_leagues=args.leagues
        )
    say(
        f"    {generated.games:,} games, {generated.seats:,} seats, {generated.hands:,} hands, "
        f"{generated.revisions:,} revisions"
    )
    try:
        with Phase("rebuild league standings and ratings (stats service)"):
            for league in generated.leagues:
                rebuilt = league_stats_rebuild(league)
                points = RatingPoint.objects.filter(league=league).count()
                say(
                    f"    league {league.pk}: {rebuilt.games:,} games rated, "
                    f"{rebuilt.players:,} players, {points:,} rating points"
                )
        with Phase("vacuum and analyse"):
            analyse()
        with Phase(f"measure ({args.requests} requests per read path)"):
            results = measure_all(generated, requests=args.requests, rng=rng)
        say(f"load average after measuring: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        ok = report(results, generated, args.requests)
    finally:
        if args.keep:
            say(f"Kept the data (league {generated.leagues[0].pk}).")
        else:
            with Phase("delete the generated data"):
                cleanup(generated)
    say(f"Total: {time.perf_counter() - started:.0f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
