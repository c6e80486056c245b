"""League read paths at scale: generate a big league in PostgreSQL, then time the pages.

    .ci/with-postgres.sh .venv/bin/python bench/league_bench.py
    .venv/bin/python bench/league_bench.py --small          # a quick look, SQLite allowed

Generates (default) 1,000 players, 100,000 games and about 1,000,000 hands (each with its
revision history) in one league, then requests the league standings (API and page),
the league's game history (API and page) and player pages ``--requests`` times each
through the Django test client, as a signed-in member, and prints p50 / p95 / max in
milliseconds and the SQL queries per request, against the target: 40 ms at p95, with a
number of queries that does not grow with the data. Every read path is marked MET or NOT
MET, and a final line says whether all of them are; the history's last page (the deepest
``?page=N``) and the head-to-head page are measured as well as the first pages.

How the data is made, fast but honest, is in ``bench/league_data.py``: games played out
by the engine with real cards, reseated with real players, written with COPY; then the
stats service rebuilds the league's standings and ratings (``league_stats_rebuild``)
and the tables are analysed. The data is deleted at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import secrets
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.league_data import (  # noqa: E402
    Generated,
    Phase,
    analyse,
    cleanup,
    generate,
    make_templates,
    reuse,
    say,
)
from scorekeeper.models import (  # noqa: E402
    Game,
    Membership,
    RatingPoint,
)
from scorekeeper.ratings.rebuild import league_stats_rebuild  # noqa: E402
from scorekeeper.web.leagues import HISTORY_PAGE  # noqa: E402

TARGET_MS = 40.0


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
