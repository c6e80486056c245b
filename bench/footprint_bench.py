"""The memory of the small production stack after a tour of every kind of page.

    DATABASE_URL=postgres://… .venv/bin/python bench/footprint_bench.py
    make bench-footprint

It starts the stack as the README's production section runs it — gunicorn with
``gunicorn.conf.py`` and 2 workers, two events servers (``python -m scorekeeper.live``)
and the background worker (``manage.py worker``), each with glibc's ``MALLOC_*``
settings — on PostgreSQL, sends a fixed tour of requests (every page of the site, the
API's reads and writes, a league export and its import, made by the background worker
while the import's page is read, the result image and the join QR code) a few times so
that both web workers serve each, and prints every process's resident memory (``VmRSS``
from ``/proc``) with the goal beside it (≤ 100 MB). Then it opens streams to the first
events server and prints what each costs it (goal ≤ 20 KB). With ``--night N`` (1,000 by
default) it then plays a game night of N hands, reading each hand's sheet and live
answer, and prints what the web workers hold after it (more than after the tour, the
caches full) and the CPU gunicorn used meanwhile: gunicorn's own settings may be tried
through its environment, e.g. ``GUNICORN_CMD_ARGS="--max-requests 0"``. Then it makes an
account of ``--account-games`` games (10,000 by default, written by ``league_data``) and
downloads its data (``/accounts/data/``) as a phone would, printing the size, the time,
the CPU gunicorn used and what the web workers hold before and after. Data made here is
deleted at the end.

Each process is printed with its resident memory (RSS) and its proportional share
(PSS: a page shared by several processes — the master and the workers it forked, with
``preload_app`` — counted once in all, split between them) and its own pages (USS),
from ``/proc/<pid>/smaps_rollup``. ``--venv DIR`` runs the stack with DIR's Python: a
production install (``pip install .``, without the dev extras, whose test tools would
load more in every process), as ``make bench-footprint`` makes it in
``.venv-production``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import secrets
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOAL_MB = 100.0
STREAM_GOAL_KB = 20.0


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def memory_mb(pid: int) -> tuple[float, float, float]:
    """RSS, PSS and USS (private pages) of a process, in MB."""
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, value = line.partition(":")
        fields[name] = int(value.split()[0])
    uss = fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)
    return fields.get("Rss", 0) / 1024, fields.get("Pss", 0) / 1024, uss / 1024


def shown(pid: int) -> str:
    rss, pss, uss = memory_mb(pid)
    return f"{rss:.1f} (PSS {pss:.1f}, USS {uss:.1f})"


def gunicorn_cpu(master: int) -> float:
    """CPU seconds of gunicorn: its master, its workers, and the workers it has reaped."""
    tick = os.sysconf("SC_CLK_TCK")

    def used(pid: int, reaped: bool = False) -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        first = 11  # utime, stime, then cutime, cstime of reaped children
        return sum(int(v) for v in fields[first : first + (4 if reaped else 2)]) / tick

    return used(master, reaped=True) + sum(used(pid) for pid in children(master))


def children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(p) for p in found]


def _setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ["DEBUG"] = ""
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,testserver")
    os.environ["SECURE_COOKIES"] = "0"
    os.environ["STATIC_MANIFEST"] = "0"
    import django

    warnings.filterwarnings("ignore", "No directory at")
    django.setup()


def _wait_for(port: int, path: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing answers on port {port}")


class Tour:
    """The requests of one tour, each checked for a status below 500."""

    def __init__(self, port: int, session: str, token: str) -> None:
        self.port = port
        self.session = session
        self.token = token
        self.failed: list[str] = []
        self.count = 0

    def send(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        api: bool = False,
        htmx: bool = False,
    ) -> bytes:
        headers = {"Host": "127.0.0.1"}
        if api:
            headers["Authorization"] = f"Token {self.token}"
        else:
            headers["Cookie"] = f"sessionid={self.session}"
        if htmx:
            headers["HX-Request"] = "true"
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request(method, path, body=data, headers=headers)
        answer = conn.getresponse()
        content = answer.read()
        conn.close()
        self.count += 1
        if answer.status >= 500:
            self.failed.append(f"{method} {path}: {answer.status}")
        return content


def wait_for_import(tour: Tour, answer: Any, seconds: float = 60.0) -> int | None:
    """The league the background worker made of an import the API queued (its page read
    too, as a phone waiting on it would); None, and a failure noted, if it did not."""
    deadline = time.monotonic() + seconds
    while isinstance(answer, dict) and answer.get("status") in ("queued", "checking", "importing"):
        if time.monotonic() > deadline:
            break
        time.sleep(0.2)
        tour.send("GET", f"/leagues/imports/{answer['id']}/", htmx=True)
        answer = json.loads(tour.send("GET", f"/api/v1/leagues/imports/{answer['id']}/", api=True))
    if isinstance(answer, dict) and answer.get("status") == "done":
        return int(answer["league"])
    tour.failed.append(f"import: {str(answer)[:200]}")
    return None


def game_night(tour: Tour, owner: Any, seats: list[int], hands: int) -> list[int]:
    """A night of tables: ``hands`` hands over games of every kind (a new one as each
    ends), each hand sent through the API, then its sheet read and the live answer
    another phone asks for. Every version's sheet rows, fragments and live answers land
    in the workers' caches, which keep entries up to their limit. The games' ids."""
    import itertools
    import random

    from games import RULESETS
    from scorekeeper.selectors.games import game_config
    from scorekeeper.services.games import game_create
    from scorekeeper.simulate import play_out

    rng = random.Random(7)
    skill = dict.fromkeys(seats, 1.0)
    made: list[int] = []
    sent = 0
    for ruleset in itertools.cycle(sorted(RULESETS)):
        if sent >= hands:
            break
        options = dict(RULESETS[ruleset].example_options)
        if ruleset == "screw-your-neighbour":
            options["target_wins"] = 0
        game = game_create(owner=owner, ruleset=ruleset, players=seats, options=options)
        made.append(game.pk)
        inputs, _ = play_out(rng, game_config(game), skill, max_hands=min(60, hands - sent))
        version = game.version
        for number, hand in enumerate(inputs, start=1):
            tour.send("POST", f"/api/v1/games/{game.pk}/hands/", hand, api=True)
            tour.send("GET", f"/games/{game.pk}/")
            tour.send("GET", f"/games/{game.pk}/live/?v={version}&hand={number}", htmx=True)
            version += 1
            sent += 1
    return made


def download_account_data(port: int, session: str) -> tuple[int, float]:
    """``/accounts/data/`` read as a browser saves it, 64 KB at a time: its bytes and
    seconds."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    conn.request(
        "GET", "/accounts/data/", headers={"Host": "127.0.0.1", "Cookie": f"sessionid={session}"}
    )
    answer = conn.getresponse()
    size = 0
    while chunk := answer.read(64 * 1024):
        size += len(chunk)
    conn.close()
    if answer.status != 200:
        raise RuntimeError(f"/accounts/data/ answered {answer.status}")
    return size, time.perf_counter() - started


def big_account(master: int, port: int, games: int) -> None:
    """An account of ``games`` games (league_data's generator) downloads its data; what
    it costs the web workers."""
    import random

    from django.db import transaction
    from django.test import Client

    sys.path.insert(0, str(ROOT / "bench"))
    import league_data

    rng = random.Random(11)
    templates = league_data.make_templates(rng, 60, 15)
    with transaction.atomic():  # (its foreign keys are checked at the commit)
        made = league_data.generate(rng, templates, n_players=40, n_games=games, n_leagues=1)
    try:
        web = Client()
        web.force_login(made.owner)
        session = web.cookies["sessionid"].value
        before = {w: memory_mb(w)[0] for w in children(master)}
        cpu = gunicorn_cpu(master)
        size, seconds = download_account_data(port, session)
        time.sleep(1)
        used = gunicorn_cpu(master) - cpu
        after = ", ".join(
            f"{before.get(w, 0.0):.1f} → {shown(w)}" for w in sorted(children(master))
        )
        print(
            f"an account of {made.games:,} games ({made.hands:,} hands) downloads its data: "
            f"{size / 1e6:.1f} MB in {seconds:.1f} s, gunicorn {used:.1f} CPU-s; "
            f"web workers {after} MB"
        )
    finally:
        league_data.cleanup(made)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8210, help="web; events on the next")
    parser.add_argument("--tours", type=int, default=3)
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument(
        "--night", type=int, default=1000, help="hands of a game night after it all (0: none)"
    )
    parser.add_argument(
        "--account-games",
        type=int,
        default=10_000,
        help="games of the account whose data is downloaded at the end (0: none)",
    )
    parser.add_argument(
        "--venv", type=Path, help="run the stack with this environment's Python (default: ours)"
    )
    args = parser.parse_args()
    _setup_django()
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        print("footprint_bench: needs PostgreSQL (DATABASE_URL=postgres://…)", file=sys.stderr)
        return 2

    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from scorekeeper.live import capability
    from scorekeeper.models import Game, League, Membership, Player
    from scorekeeper.services.games import game_close, game_create, hand_record
    from scorekeeper.services.invites import invite_create

    call_command("migrate", verbosity=0, interactive=False)
    suffix = secrets.token_hex(3)
    owner = User.objects.create_user(
        f"footprint-{suffix}", password=secrets.token_hex(8), is_staff=True, is_superuser=True
    )
    players = [Player.objects.create(name=f"F{i} {suffix}", created_by=owner) for i in range(4)]
    seats = [p.pk for p in players]
    league = League.objects.create(name=f"Footprint {suffix}", owner=owner)
    for player in players:
        Membership.objects.create(league=league, player=player)
    game = game_create(
        owner=owner,
        ruleset="screw-your-neighbour",
        players=seats,
        options={"target_wins": 0},
        league=league,
    )
    for _ in range(6):
        hand_record(game=game, user=owner, hand_input={"winner": seats[0]})
    finished = game_create(
        owner=owner, ruleset="screw-your-neighbour", players=seats[:3], options={"target_wins": 0}
    )
    hand_record(game=finished, user=owner, hand_input={"winner": seats[1]})
    game_close(game=finished, user=owner)
    invite = invite_create(game=game, user=owner, role="watch")
    web = Client()
    web.force_login(owner)
    session = web.cookies["sessionid"].value
    token = Token.objects.create(user=owner).key

    web_port, events_port = args.port, args.port + 1
    events_ports = [events_port, events_port + 1]
    env = {
        **os.environ,
        "LIVE_EVENTS_URL": f"http://127.0.0.1:{events_port}/events/",
        # The stack answers at 127.0.0.1 whatever this process was given (a test that
        # loaded the request bench first has "testserver,localhost" in its environment).
        "ALLOWED_HOSTS": "127.0.0.1,testserver",
        # glibc's malloc as the README's recipes set it for every process: two arenas,
        # not eight a core; blocks of 128 KB and more given back when freed.
        "MALLOC_ARENA_MAX": "2",
        "MALLOC_MMAP_THRESHOLD_": "131072",
        "MALLOC_TRIM_THRESHOLD_": "131072",
    }
    bindir = (args.venv / "bin").absolute() if args.venv else Path(sys.executable).parent
    python = str(bindir / "python")
    stack: dict[str, subprocess.Popen[bytes]] = {}
    imported: list[int] = []
    try:
        stack["gunicorn"] = subprocess.Popen(
            [str(bindir / "gunicorn"), "-c", "gunicorn.conf.py", "--workers", "2",
             "--bind", f"127.0.0.1:{web_port}", "--log-level", "warning",
             "scorekeeper.wsgi"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,  # its access log
        )  # fmt: skip
        # Two events servers, as every production recipe runs them (ports 8001 and 8002
        # behind nginx's upstream there): here the pages name the first, and the streams
        # opened at the end go to it; the second is counted as it stands, idle.
        for n, port in enumerate(events_ports):
            stack[f"events{n + 1}"] = subprocess.Popen(
                [python, "-m", "scorekeeper.live", "--host", "127.0.0.1", "--port",
                 str(port), "--log-level", "warning", "--backlog", "4096"],
                cwd=ROOT, env=env,
            )  # fmt: skip
        stack["worker"] = subprocess.Popen(
            [python, "manage.py", "worker"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL
        )
        _wait_for(web_port, "/healthz")
        for port in events_ports:
            _wait_for(port, "/events/health")
        time.sleep(1)
        events = [stack["events1"].pid, stack["events2"].pid]
        at_start = {
            pid: rss_mb(pid)
            for pid in [*children(stack["gunicorn"].pid), *events, stack["worker"].pid]
        }
        tour = Tour(web_port, session, token)
        pk, league_id, player = game.pk, league.pk, seats[0]
        pages = [
            "/", "/games/", "/games/new/", f"/games/{pk}/", f"/games/{pk}/?hands=all",
            f"/games/{pk}/share/", f"/games/{finished.pk}/",
            f"/games/{finished.pk}/result.png", f"/games/{pk}/delete/",
            f"/join/{invite.token}/qr.svg", "/leagues/", f"/leagues/{league_id}/",
            f"/leagues/{league_id}/head-to-head/", f"/leagues/{league_id}/export.csv",
            "/leagues/import/", "/players/", f"/players/{player}/",
            "/rules/", "/rules/dirt/", "/rules/search/?q=dealer", "/rules/index.json",
            "/accounts/", "/accounts/data/", "/offline/", "/sw.js",
            "/manifest.webmanifest", "/healthz", "/admin/", "/admin/scorekeeper/game/",
            "/accounts/login/", "/accounts/signup/",
        ]  # fmt: skip
        api = [
            "/api/v1/games/", f"/api/v1/games/{pk}/", f"/api/v1/games/{pk}/hands/",
            "/api/v1/players/", "/api/v1/leagues/", f"/api/v1/leagues/{league_id}/standings/",
            f"/api/v1/leagues/{league_id}/games/", f"/api/v1/players/{player}/ratings/",
            "/api/v1/rulesets/", "/api/v1/rules/?q=dealer", "/api/v1/schema/",
            "/api/v1/docs/",
        ]  # fmt: skip
        for _ in range(args.tours):
            for path in pages:
                tour.send("GET", path)
            tour.send("GET", f"/games/{pk}/live/?v=0&hand=1", htmx=True)
            for path in api:
                tour.send("GET", path, api=True)
            tour.send("POST", f"/api/v1/games/{pk}/hands/", {"winner": player}, api=True)
            exported = tour.send("GET", f"/api/v1/leagues/{league_id}/export/", api=True)
            answer = json.loads(tour.send("POST", "/api/v1/leagues/import/", exported, api=True))
            league_made = wait_for_import(tour, answer)
            if league_made is not None:
                imported.append(league_made)
        time.sleep(1)
        master = stack["gunicorn"].pid
        workers = sorted(children(master))
        rows = [(f"web worker {i + 1}", w) for i, w in enumerate(workers)]
        rows += [(f"events server {n + 1}", pid) for n, pid in enumerate(events)]
        rows += [("background worker", stack["worker"].pid)]
        print(
            f"{tour.count} requests ({args.tours} tours of {len(pages)} pages, {len(api)} API "
            f"reads, a hand, a league export and its import); "
            f"{'none failed' if not tour.failed else 'FAILED: ' + '; '.join(tour.failed[:5])}"
        )
        total, total_pss, _ = memory_mb(master)
        print(f"{'process':<20} {'RSS MB':>7} {'PSS':>6} {'USS':>6}  {'RSS at start':>12}  goal")
        print(f"{'gunicorn master':<20} {total:7.1f} {total_pss:6.1f}  (forks the workers)")
        worst = 0.0
        for label, pid in rows:
            mb, pss, uss = memory_mb(pid)
            total += mb
            total_pss += pss
            worst = max(worst, mb)
            verdict = "met" if mb <= GOAL_MB else "NOT met"
            start = at_start.get(pid, 0.0)
            print(
                f"{label:<20} {mb:7.1f} {pss:6.1f} {uss:6.1f}  {start:12.1f}  "
                f"≤ {GOAL_MB:.0f} {verdict}"
            )
        print(f"{'the whole stack':<20} {total:7.1f} {total_pss:6.1f}")
        if args.night:
            # Not the goal's measure (the tour's is): what a long evening adds.
            count = tour.count
            cpu, serving = gunicorn_cpu(master), set(children(master))
            night = game_night(tour, owner, seats, args.night)
            time.sleep(1)
            grown = ", ".join(shown(w) for w in sorted(children(master)))
            print(
                f"then a game night, {args.night} hands over {len(night)} games "
                f"({tour.count - count} requests: each hand sent, its sheet read and the live "
                f"answer another phone asks for; "
                f"{'none failed' if not tour.failed else 'FAILED'}): web workers {grown} MB "
                f"(their caches hold {settings.CACHES['default']['OPTIONS']['MAX_ENTRIES']} "
                f"entries each at most); gunicorn used {gunicorn_cpu(master) - cpu:.1f} CPU-s, "
                f"{len(set(children(master)) - serving)} workers started anew "
                "(GUNICORN_CMD_ARGS=--max-requests …)"
            )

        if args.account_games:
            big_account(master, web_port, args.account_games)

        events_pid = events[0]
        before = rss_mb(events_pid)
        ticket = capability.issue(pk, "watch")
        opened, during = asyncio.run(_open_streams(events_port, ticket, args.streams, events_pid))
        per_kb = (during - before) * 1024 / max(opened, 1)
        verdict = "met" if per_kb <= STREAM_GOAL_KB else "NOT met"
        print(
            f"events server with {opened} open streams: +{per_kb:.1f} KB each "
            f"(goal ≤ {STREAM_GOAL_KB:.0f}: {verdict})"
        )
        ok = not tour.failed and worst <= GOAL_MB and per_kb <= STREAM_GOAL_KB
        print("TARGET MET" if ok else "TARGET NOT MET")
        return 0 if ok else 1
    finally:
        for process in stack.values():
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
        Game.objects.filter(owner=owner).delete()
        League.objects.filter(owner=owner).delete()
        Player.objects.filter(created_by=owner).delete()
        owner.delete()


async def _open_streams(port: int, ticket: str, count: int, pid: int) -> tuple[int, float]:
    """Open ``count`` streams, wait for each one's first bytes; how many opened and the
    server's memory (MB) while they are open."""
    writers = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /events/{ticket} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")
        writers.append(writer)
    await asyncio.sleep(1)
    return len(writers), rss_mb(pid)


if __name__ == "__main__":
    sys.exit(main())
