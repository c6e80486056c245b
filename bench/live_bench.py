"""Live updates at 1,000 tables × 4 phones: what watching costs the server.

    .ci/with-postgres.sh .venv/bin/python bench/live_bench.py
    make bench-live                      (DATABASE_URL=postgres://… or with-postgres.sh)

It starts the events server as in production (``python -m scorekeeper.live``,
one process, on PostgreSQL), opens one event stream per phone from an asyncio client in
a separate process, holds them while nothing changes and reads the server's CPU time
from ``/proc/<pid>/stat`` (goal: at most 1.0 core). Then it records a hand in a few
games and counts what every stream received: each phone of a changed game gets the
event once, no other phone anything; and the bytes a phone receives per change — the
event, then the changed rows it asks for (``live/?…&from=…``, timed through Django's
handler in this process, at a short and a long game). For comparison it times the old
way, a poll answered "204 nothing changed", in CPU per request. Data made here is
deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")


def _raise_fd_limit(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


# -- the client: a separate process holding every stream ---------------------------------


class Phone:
    __slots__ = ("event_bytes", "events", "game", "heartbeats", "wire")

    def __init__(self, game: int) -> None:
        self.game = game
        self.events = 0
        self.event_bytes = 0
        self.heartbeats = 0
        self.wire = 0

    def reset(self) -> None:
        self.events = self.event_bytes = self.heartbeats = self.wire = 0


async def _hold(phone: Phone, host: str, port: int, path: str, gate: asyncio.Semaphore) -> None:
    async with gate:
        reader, writer = await asyncio.open_connection(host, port)
        request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n"
        writer.write(request.encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError(head.decode(errors="replace"))
    buffer = b""
    while True:  # chunked transfer encoding
        size_line = await reader.readline()
        if not size_line:
            return
        size = int(size_line.strip() or b"0", 16)
        if size == 0:
            return
        data = (await reader.readexactly(size + 2))[:-2]
        phone.wire += len(size_line) + size + 2
        buffer += data
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            if block.startswith(b"event: ping"):
                phone.heartbeats += 1
            elif block.startswith(b"event:"):
                phone.events += 1
                phone.event_bytes += len(block) + 2


async def _client(host: str, port: int, plan_file: str) -> None:
    plan = json.loads(Path(plan_file).read_text())
    phones = [Phone(game) for game, _ in plan]
    gate = asyncio.Semaphore(200)
    started = time.monotonic()
    tasks = [
        asyncio.create_task(_hold(phone, host, port, f"/events/{token}", gate))
        for phone, (_, token) in zip(phones, plan, strict=True)
    ]
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    def say(what: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(what) + "\n")
        sys.stdout.flush()

    while True:
        line = (await reader.readline()).decode().strip()
        failed = [t for t in tasks if t.done() and t.exception() is not None]
        if line == "wait":
            # Wait until every stream has its first bytes (the retry line), i.e. is open.
            while sum(1 for p in phones if p.wire) + len(failed) < len(phones):
                await asyncio.sleep(0.1)
                failed = [t for t in tasks if t.done() and t.exception() is not None]
            say(
                {
                    "open": sum(1 for p in phones if p.wire),
                    "failed": len(failed),
                    "error": repr(failed[0].exception()) if failed else "",
                    "seconds": round(time.monotonic() - started, 2),
                }
            )
        elif line == "mark":
            for phone in phones:
                phone.reset()
            say({"ok": True})
        elif line == "report":
            say(
                {
                    "phones": [
                        [p.game, p.events, p.event_bytes, p.heartbeats, p.wire] for p in phones
                    ],
                    "cpu": time.process_time(),
                }
            )
        elif line in ("quit", ""):
            return


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--phones", type=int, default=4, help="streams per table")
    parser.add_argument("--hold", type=float, default=30.0, help="seconds of nothing changing")
    parser.add_argument("--changes", type=int, default=5, help="games that get a hand")
    parser.add_argument("--long", type=int, default=300, help="hands of the long game")
    parser.add_argument("--port", type=int, default=8340)
    parser.add_argument(
        "--client", nargs=3, metavar=("HOST", "PORT", "PLAN"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    _raise_fd_limit(args.tables * args.phones + 1000)
    if args.client:
        host, port, plan = args.client
        asyncio.run(_client(host, int(port), plan))
        return 0

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

        plan = [[g.pk, capability.issue(g.pk, "watch")] for g in games for _ in range(args.phones)]
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(plan, handle)
        # 4,000 streams from one address: the per-address limit is for the internet.
        env = {**os.environ, "LIVE_MAX_STREAMS_PER_ADDRESS": "0"}
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "scorekeeper.live",
                "--host",
                "127.0.0.1",
                "--port",
                str(args.port),
                "--timeout-graceful-shutdown",
                "1",
                "--log-level",
                "warning",
                "--backlog",
                "4096",
            ],
            cwd=ROOT,
            env=env,
        )
        import urllib.request

        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{args.port}/events/health", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        client = subprocess.Popen(
            [sys.executable, __file__, "--client", "127.0.0.1", str(args.port), handle.name],
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
