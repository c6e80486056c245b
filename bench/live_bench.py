"""Live updates at 1,000 tables × 4 phones: what watching costs the server.

    .ci/with-postgres.sh .venv/bin/python bench/live_bench.py
    make bench-live                      (DATABASE_URL=postgres://… or with-postgres.sh)

It starts the events server as in production (``python -m scorekeeper.live``,
one process, on PostgreSQL), opens one event stream per phone from an asyncio client in
a separate process (``bench/live_phones.py``), holds them while nothing changes and
reads the server's CPU time from ``/proc/<pid>/stat`` (goal: at most 1.0 core). Then it
records a hand in a few games and counts what every stream received: each phone of a
changed game gets the event once, no other phone anything; and the bytes a phone
receives per change — the event, then the changed rows it asks for (``live/?…&from=…``,
timed through Django's handler in this process, at a short and a long game). For
comparison it times the old way, a poll answered "204 nothing changed", in CPU per
request. Data made here is deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import warnings
from pathlib import Path
from typing import Any

from live_phones import raise_fd_limit

ROOT = Path(__file__).resolve().parent.parent
#: The process holding every phone's stream.
PHONES = Path(__file__).resolve().with_name("live_phones.py")
TICK = os.sysconf("SC_CLK_TCK")


# -- the bench ---------------------------------------------------------------------------


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def _setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ["DEBUG"] = ""
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    import django

    warnings.filterwarnings("ignore", "No directory at")  # no collectstatic needed here
    django.setup()


# -- what Django spends on the table: through its WSGI handler, in this process ---------

#: static/js/live.js: a phone behind waits a random moment up to this before asking.
JITTER_SECONDS = 1.5
#: How soon after a restart every phone must show its game's current version.
CURRENT_WITHIN = 3.0
#: The Django CPU a reconnect storm of every stream may cost at most (seconds).
STORM_CPU_GOAL = 2.0
#: What the table's phones' answers to one hand may cost, in hand POSTs.
FAN_OUT_GOAL = 2.0


def web_session(user: Any) -> tuple[str, str]:
    """A signed-in phone: its session cookie and CSRF secret."""
    from django.test import Client

    web = Client()
    web.force_login(user)
    return web.cookies["sessionid"].value, secrets.token_hex(16)


def wsgi(
    method: str, path: str, session: tuple[str, str] | str, data: dict[str, Any] | None = None
) -> tuple[float, float, int, bytes]:
    """CPU and wall seconds of one htmx request through Django's handler, its status and
    body; ``session`` a string: an API request with that token (JSON)."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import RequestFactory

    global _HANDLER
    if _HANDLER is None:
        _HANDLER = WSGIHandler()
    factory = RequestFactory()
    if isinstance(session, str):
        auth = {"HTTP_AUTHORIZATION": f"Token {session}"}
        request = factory.post(path, json.dumps(data), "application/json", **auth)
    else:
        sessionid, csrf = session
        headers = {
            "HTTP_COOKIE": f"sessionid={sessionid}; csrftoken={csrf}",
            "HTTP_X_CSRFTOKEN": csrf,
            "HTTP_HX_REQUEST": "true",
        }
        if method == "GET":
            request = factory.get(path, **headers)
        else:
            request = factory.post(path, data or {}, **headers)
    status: list[str] = []

    def start_response(code: str, _headers: Any, _exc: Any = None) -> Any:
        status.append(code)
        return lambda _data: None

    cpu0, wall0 = time.thread_time(), time.monotonic()
    answer = _HANDLER(request.environ, start_response)
    try:
        body = b"".join(answer)
    finally:
        answer.close()
    return time.thread_time() - cpu0, time.monotonic() - wall0, int(status[0][:3]), body


_HANDLER: Any = None


def fan_out(owner: Any, seats: list[int], hands: int) -> None:
    """One phone saves a hand from its sheet; the table's three other phones, told by
    their event, ask for the changed rows. What those answers cost, against the POST:
    the sheet's, and the API's (the request bench's POST) for the next hand, each hand
    measured in turn so that the machine's pace is the same for all of them."""
    from rest_framework.authtoken.models import Token

    from scorekeeper.models import Game
    from scorekeeper.services.games import game_create

    game = game_create(
        owner=owner, ruleset="screw-your-neighbour", players=seats, options={"target_wins": 0}
    )
    phones = [web_session(owner) for _ in range(4)]
    token = Token.objects.get_or_create(user=owner)[0].key
    posts: list[float] = []
    api_posts: list[float] = []
    firsts: list[float] = []
    shared: list[float] = []
    ratios: list[float] = []
    api_ratios: list[float] = []
    sizes: list[int] = []
    warm = 5
    for i in range(hands + warm):
        now = Game.objects.get(pk=game.pk)
        before, marker = now.version, now.hand_count + 1
        form = {"number": str(marker), "winner": str(seats[i % len(seats)])}
        post, _, code, _ = wsgi("POST", f"/games/{game.pk}/hands/", phones[0], form)
        assert code == 200, code
        after = Game.objects.get(pk=game.pk).version
        url = f"/games/{game.pk}/live/?v={before}&hand={marker}&sse=1&from={marker}&to={after}"
        answers = []
        for phone in phones[1:]:
            cpu, _, code, body = wsgi("GET", url, phone)
            assert code == 200, code
            answers.append(cpu)
            sizes.append(len(body))
        winner = {"winner": seats[(i + 1) % len(seats)]}
        api, _, code, _ = wsgi("POST", f"/api/v1/games/{game.pk}/hands/", token, winner)
        assert code == 201, code
        if i >= warm:
            posts.append(post)
            api_posts.append(api)
            firsts.append(answers[0])
            shared.extend(answers[1:])
            ratios.append(sum(answers) / post)
            api_ratios.append(sum(answers) / api)
    ratio = statistics.median(ratios)
    api_ratio = statistics.median(api_ratios)
    verdict = "met" if max(ratio, api_ratio) <= FAN_OUT_GOAL else "NOT met"
    print(
        f"a hand seen by the table (1 phone saves it, {len(phones) - 1} ask, {hands} hands): "
        f"the sheet's POST {statistics.median(posts) * 1000:.2f} ms CPU (the API's "
        f"{statistics.median(api_posts) * 1000:.2f}); the answers: the first "
        f"{statistics.median(firsts) * 1000:.2f} ms (renders it), each other "
        f"{statistics.median(shared) * 1000:.2f} ms (shared), "
        f"{statistics.median(sizes) / 1024:.1f} KB each; all of them = {ratio:.2f} × the "
        f"sheet's POST, {api_ratio:.2f} × the API's (goal ≤ {FAN_OUT_GOAL:.0f}: {verdict})"
    )


def storm_report(
    storm: dict[str, Any],
    server_cpu: float,
    session: tuple[str, str],
    markers: dict[int, int],
) -> None:
    """After the events server restarted: which phones were current from their stream's
    first event alone, and what the others' questions cost Django — asked after their
    random moment, answered in turn by one web worker (this process's handler)."""
    import random

    rng = random.Random(20)
    started = storm["started"]
    current_at: list[float] = []
    asks: list[tuple[float, int, int]] = []
    for game, shown, hello, at in storm["phones"]:
        if not at:
            continue
        if isinstance(hello, int) and hello <= shown:
            current_at.append(at - started)
        else:
            asks.append((at - started + rng.uniform(0, JITTER_SECONDS), game, shown))
    clock = 0.0
    django_cpu = 0.0
    for due, game, shown in sorted(asks):
        url = f"/games/{game}/live/?v={shown}&hand={markers.get(game, 0)}&sse=1"
        cpu, wall, code, _ = wsgi("GET", url, session)
        assert code == 200, code
        django_cpu += cpu
        clock = max(clock, due) + wall
        current_at.append(clock)
    phones = len(storm["phones"])
    last = max(current_at) if current_at else float("inf")
    heard = sorted(at - started for *_, at in storm["phones"] if at)
    spread = (
        f"first events heard by half the phones after {statistics.median(heard):.2f}s, "
        f"95% after {heard[int(len(heard) * 0.95) - 1]:.2f}s, all after {heard[-1]:.2f}s"
        if heard
        else "no first event heard"
    )
    opened = len(current_at)
    cpu_ok = django_cpu <= STORM_CPU_GOAL
    time_ok = last <= CURRENT_WITHIN and opened == phones
    print(
        f"the events server restarted, {phones:,} streams opening again at once "
        f"({storm['failed']} failed): {phones - len(asks):,} phones current from the first "
        f"event, {len(asks)} behind asked Django; Django CPU {django_cpu:.2f}s "
        f"(goal ≤ {STORM_CPU_GOAL:.0f}: {'met' if cpu_ok else 'NOT met'}), events server "
        f"CPU {server_cpu:.2f}s; the last phone current after {last:.2f}s "
        f"(goal ≤ {CURRENT_WITHIN:.0f}: {'met' if time_ok else 'NOT met'}); {spread}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--phones", type=int, default=4, help="streams per table")
    parser.add_argument("--hold", type=float, default=30.0, help="seconds of nothing changing")
    parser.add_argument("--changes", type=int, default=5, help="games that get a hand")
    parser.add_argument("--long", type=int, default=300, help="hands of the long game")
    parser.add_argument("--port", type=int, default=8340)
    parser.add_argument("--fanout", type=int, default=30, help="hands the table sees")
    parser.add_argument(
        "--fan-out-only", action="store_true", help="measure only what a hand seen costs"
    )
    parser.add_argument(
        "--behind", type=int, default=10, help="games changed while the server restarts"
    )
    args = parser.parse_args()
    raise_fd_limit(args.tables * args.phones + 1000)

    _setup_django()
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        print("live_bench: needs PostgreSQL (DATABASE_URL=postgres://…)", file=sys.stderr)
        return 2

    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from scorekeeper.live import capability
    from scorekeeper.models import Game, Player
    from scorekeeper.services.games import game_create, hand_record

    call_command("migrate", verbosity=0, interactive=False)  # a fresh database, too
    suffix = secrets.token_hex(3)
    owner = User.objects.create_user(f"live-bench-{suffix}", password=secrets.token_hex(8))
    players = [Player.objects.create(name=f"P{i} {suffix}", created_by=owner) for i in range(3)]
    seats = [p.pk for p in players]
    if args.fan_out_only:
        try:
            fan_out(owner, seats, args.fanout)
        finally:
            Game.objects.filter(owner=owner).delete()
            Player.objects.filter(created_by=owner).delete()
            owner.delete()
        return 0
    started = time.monotonic()
    games = [
        game_create(
            owner=owner, ruleset="screw-your-neighbour", players=seats, options={"target_wins": 0}
        )
        for _ in range(args.tables)
    ]
    print(f"{args.tables:,} games made in {time.monotonic() - started:.1f}s")
    server: subprocess.Popen[bytes] | None = None
    client: subprocess.Popen[str] | None = None
    try:
        # One long game to show that a change costs the same at 300 hands as at 3.
        long_game, short_game = games[0], games[1]
        for _ in range(args.long):
            hand_record(game=long_game, user=owner, hand_input={"winner": seats[1]})
        for _ in range(3):
            hand_record(game=short_game, user=owner, hand_input={"winner": seats[1]})

        versions = dict(Game.objects.filter(owner=owner).values_list("pk", "version"))
        plan = [
            [g.pk, capability.issue(g.pk, "watch"), versions[g.pk]]
            for g in games
            for _ in range(args.phones)
        ]
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(plan, handle)
        # Every phone on one process, straight from one address (the per-address cap is
        # nginx's, in front): as many connections as phones, and room to reconnect.
        limit = args.tables * args.phones + 1000

        def start_server() -> subprocess.Popen[bytes]:
            started = subprocess.Popen(
                [sys.executable, "-m", "scorekeeper.live", "--host", "127.0.0.1",
                 "--port", str(args.port), "--timeout-graceful-shutdown", "1",
                 "--log-level", "warning", "--backlog", "4096",
                 "--limit-concurrency", str(limit)],
                cwd=ROOT,
            )  # fmt: skip
            for _ in range(200):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{args.port}/events/health", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            return started

        server = start_server()
        client = subprocess.Popen(
            [sys.executable, str(PHONES), "127.0.0.1", str(args.port), handle.name],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert client.stdin is not None
        assert client.stdout is not None

        def ask(command: str) -> dict[str, Any]:
            client.stdin.write(command + "\n")  # type: ignore[union-attr]
            client.stdin.flush()  # type: ignore[union-attr]
            return json.loads(client.stdout.readline())  # type: ignore[union-attr]

        cpu_before_connect = _cpu_seconds(server.pid)
        opened = ask("wait")
        connect_cpu = _cpu_seconds(server.pid) - cpu_before_connect
        streams = args.tables * args.phones
        print(
            f"{opened['open']:,} of {streams:,} streams open in {opened['seconds']}s "
            f"(server CPU for the connections: {connect_cpu:.2f}s)"
            + (f"; {opened['failed']} failed: {opened['error']}" if opened["failed"] else "")
        )
        time.sleep(2)
        cpu0, wall0 = _cpu_seconds(server.pid), time.monotonic()
        time.sleep(args.hold)
        cpu1, wall1 = _cpu_seconds(server.pid), time.monotonic()
        cores = (cpu1 - cpu0) / (wall1 - wall0)
        verdict = "met" if cores <= 1.0 else "NOT met"
        print(
            f"nothing changing, {streams:,} streams held {wall1 - wall0:.0f}s: server CPU "
            f"{cores:.3f} cores (goal ≤ 1.0: {verdict})"
        )
        health = json.loads(
            urllib.request.urlopen(f"http://127.0.0.1:{args.port}/events/health").read()
        )
        print(f"server says: {health['streams']:,} streams, {health['games']:,} games")

        ask("mark")
        changed = [g.pk for g in games[1 : 1 + args.changes]]
        seen = {g.pk: Game.objects.get(pk=g.pk).version for g in games[:2]}
        cpu0 = _cpu_seconds(server.pid)
        for pk in changed:
            hand_record(game=Game.objects.get(pk=pk), user=owner, hand_input={"winner": seats[2]})
        hand_record(game=long_game, user=owner, hand_input={"winner": seats[2]})
        changed.append(long_game.pk)
        time.sleep(2)
        report = ask("report")
        change_cpu = _cpu_seconds(server.pid) - cpu0
        wrong = []
        event_bytes = []
        for game, events, nbytes, _beats, _wire in report["phones"]:
            expected = 1 if game in changed else 0
            if events != expected:
                wrong.append((game, events))
            if expected:
                event_bytes.append(nbytes)
        print(
            f"{len(changed)} changes: every phone of a changed game got its event once and "
            f"no other phone any: {'yes' if not wrong else f'NO {wrong[:5]}'} "
            f"(server CPU {change_cpu * 1000:.0f} ms for them all)"
        )
        print(f"event bytes per phone per change: {statistics.median(event_bytes):.0f}")

        web = Client()
        web.force_login(owner)
        hx = {"HTTP_HX_REQUEST": "true"}
        for label, game in (("4 hands", short_game), (f"{args.long + 1} hands", long_game)):
            now = Game.objects.get(pk=game.pk)
            before = seen[game.pk]
            marker = now.hand_count + 1
            base = f"/games/{game.pk}/live/?v={before}&hand={marker - 1}"
            sizes = []
            for extra in ({}, {"HTTP_ACCEPT_ENCODING": "gzip"}):
                delta = web.get(f"{base}&from={now.hand_count}&to={now.version}", **hx, **extra)
                whole = web.get(base, **hx, **extra)
                assert delta.status_code == whole.status_code == 200
                sizes.append((len(delta.content), len(whole.content)))
            (delta_raw, whole_raw), (delta_gz, whole_gz) = sizes
            print(
                f"then the rows it asks for, {label}: {delta_raw:,} bytes, {delta_gz:,} gzipped "
                f"(the old poll's answer: {whole_raw:,}, {whole_gz:,} gzipped)"
            )

        # The old way: every phone polls every 2 s, "204 nothing changed".
        now = Game.objects.get(pk=short_game.pk)
        url = f"/games/{now.pk}/live/?v={now.version}&hand={now.hand_count + 1}"
        times = []
        for _ in range(300):
            t0 = time.thread_time()
            answer = web.get(url, **hx)
            times.append(time.thread_time() - t0)
            assert answer.status_code == 204
        per = statistics.median(times)
        rate = streams / 2
        print(
            f"the old poll (every 2 s): {per * 1000:.2f} ms CPU per 204 in Django alone × "
            f"{rate:,.0f} req/s = {per * rate:.1f} cores before the HTTP server's own work"
        )
        fan_out(owner, seats, args.fanout)

        # -- a reconnect storm: the events server restarts while hands are recorded -----
        server.terminate()
        server.wait(10)
        behind_games = [g.pk for g in games[10 : 10 + args.behind]]
        markers = {}
        for pk in behind_games:
            game = Game.objects.get(pk=pk)
            markers[pk] = game.hand_count + 1
            hand_record(game=game, user=owner, hand_input={"winner": seats[0]})
        server = start_server()
        cpu0 = _cpu_seconds(server.pid)
        storm = ask("storm")
        storm_cpu = _cpu_seconds(server.pid) - cpu0
        storm_report(storm, storm_cpu, web_session(owner), markers)
        client.stdin.write("quit\n")
        client.stdin.flush()
    finally:
        for process in (client, server):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
        Game.objects.filter(owner=owner).delete()
        Player.objects.filter(created_by=owner).delete()
        owner.delete()
    return 0


if __name__ == "__main__":
    sys.exit(main())
