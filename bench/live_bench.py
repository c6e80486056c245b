"""Live updates on the production stack, with phones that do what the page's scripts do.

    make bench-live                        (1,000 tables × 4 phones; BENCH_ARGS=--quick)
    .ci/with-postgres.sh .venv/bin/python bench/live_bench.py --tables 100 --only ab

The stack is started as deployed (bench/live_stack.py: collectstatic, migrate, gunicorn
with gunicorn.conf.py and 2 workers, two events servers, the task worker, nginx in front
with deploy/nginx/'s location files, DEBUG off, PostgreSQL from DATABASE_URL); the
phones (bench/live_phones.py, one asyncio process) go through nginx, each from its own
loopback address, and do what static/js/live.js, table-tools.js and backoff.js do. CPU
is read from /proc for every server process (gunicorn's master, its workers and the ones
it replaced; both events servers; the task worker; this database's PostgreSQL backends,
sampled; nginx apart), less the idle rate measured just before (the worker's polls, the
streams' heartbeats). Scenarios (``--only`` picks them):

a. nothing changing: every table's phones hold their streams (goal ≤ 1.0 core);
b. a hand seen by 4 phones, per game (Dirt, Screw, Dirty Deals, Dirty Uno): one phone
   posts the sheet's form (htmx, session and CSRF token), the others get the event and
   the live answer on their streams (or ask for it); its CPU ÷ that of one API POST of a
   hand (token, JSON, to a game nobody watches), all processes (goal ≤ 3×, re-based from
   2×; PostgreSQL shown apart); the same hand saved by the same form at a table of one
   phone, so that what the other phones add shows (goal ≤ 0.5×); and a tools tap
   (Dirt's penalty) seen by 4 phones;
c. an events server restarted, then both, with ``--behind`` games changed meanwhile,
   each by one of its phones as the page does it (a hand by the sheet's form; on the
   tools games a tap too): Django CPU, and when the last phone is current again,
   counted from the last change (goal ≤ 3 s; shown from the stop and from the restart
   too). The same changes are then made with every stream held: what the restart adds
   to their cost is the storm's (goal ≤ 2 CPU-s; the changes' own cost is the hands',
   scenario b's). The goals are for one server restarted, as the recipes restart them;
   both at once is an outage (every phone polls: scenario d; the changes are then
   written by the bench itself, as the phones' saves would wait behind the polls);
d. both events servers away for ``--outage`` seconds: the phones poll (with backoff.js's
   waits; ``--no-backoff``: every 2 s and 3 s as before), Django's CPU meanwhile, then
   how long the servers take to hold every stream again.

Data is made in a database of its own (with-postgres.sh); nothing is deleted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
import urllib.request
import warnings
from pathlib import Path
from typing import Any

from live_phones import raise_fd_limit
from live_stack import GROUPS, Stack, delta

ROOT = Path(__file__).resolve().parent.parent
PHONES = Path(__file__).resolve().with_name("live_phones.py")

IDLE_CORES_GOAL = 1.0
#: A hand seen by the table's phones, in API POSTs of a hand. Re-based on 2026-11-29 (issue
#: 32 asked 2): the whole is the saving phone's own POST (2.2-3.0 x: the form's write path
#: and the one render of the answer every phone shares), the other phones adding nothing.
FAN_OUT_GOAL = 3.0
#: What the table's other phones add to the saving phone's own POST, in API POSTs.
OTHERS_GOAL = 0.5
#: What one events server restarting adds, in Django CPU-s, to the cost of the changes
#: made while it was away (measured again with every stream held).
STORM_CPU_GOAL = 2.0
CURRENT_WITHIN = 3.0
#: The games of the tables, in turn: the tools games (Dirt, Dirty Deals) and the others.
RULESETS = ("dirt", "screw-your-neighbour", "dirty-deals", "dirty-uno", "damn-you")
OPTIONS: dict[str, dict[str, Any]] = {"screw-your-neighbour": {"target_wins": 0}}
#: The tools action tapped on each tools game.
TAPS = {"dirt": {"action": "penalty-add", "amount": "2"}, "dirty-deals": {"action": "timer-start"}}


def verdict(ok: bool) -> str:
    return "MET" if ok else "NOT MET"


def setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ["DEBUG"] = ""
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    import django

    warnings.filterwarnings("ignore", "No directory at")
    django.setup()


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        from django.contrib.auth.models import User
        from django.db import connection

        from scorekeeper.models import Player

        self.args = args
        self.rng = random.Random(32)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            own = {cursor.fetchone()[0]}
        self.stack = Stack(os.environ["DATABASE_URL"], own)
        self.stack.prepare()
        suffix = secrets.token_hex(3)
        self.owner = User.objects.create_user(f"live-{suffix}", password=secrets.token_hex(8))
        self.players = [
            Player.objects.create(name=f"P{i} {suffix}", created_by=self.owner).pk for i in range(4)
        ]
        from rest_framework.authtoken.models import Token

        self.token = Token.objects.get_or_create(user=self.owner)[0].key
        self.phones: subprocess.Popen[str] | None = None
        self.count = 0  # phones opened

    # -- the phones' process ------------------------------------------------------------

    def start_phones(self) -> None:
        flags = ["--no-backoff"] if self.args.no_backoff else []
        self.phones = subprocess.Popen(
            [sys.executable, str(PHONES), self.stack.base, *flags],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.count = 0

    def ask(self, **command: Any) -> dict[str, Any]:
        assert self.phones is not None
        assert self.phones.stdin is not None
        assert self.phones.stdout is not None
        self.phones.stdin.write(json.dumps(command) + "\n")
        self.phones.stdin.flush()
        line = self.phones.stdout.readline()
        if not line:
            raise RuntimeError("the phones' process ended")
        return json.loads(line)  # type: ignore[no-any-return]

    # -- data ----------------------------------------------------------------------------

    def game(self, ruleset: str) -> Any:
        from scorekeeper.services.games import game_create

        return game_create(
            owner=self.owner, ruleset=ruleset, players=self.players,
            options=OPTIONS.get(ruleset),
        )  # fmt: skip

    def session(self) -> tuple[str, str]:
        from django.test import Client

        web = Client()
        web.force_login(self.owner)
        return web.cookies["sessionid"].value, secrets.token_hex(16)

    def spec(self, game: Any, session: tuple[str, str]) -> dict[str, Any]:
        from scorekeeper.live import capability
        from scorekeeper.models import Game
        from scorekeeper.selectors.games import game_state
        from scorekeeper.selectors.table import shares_tools, tools_revision
        from scorekeeper.web.sheet_context import hand_marker
        from scorekeeper.web.table import etag_of

        game = Game.objects.get(pk=game.pk)
        revision = tools_revision(game)
        return {
            "game": game.pk,
            # The owner's sessions: the page gives them an owner's ticket.
            "ticket": capability.issue(game.pk, "owner"),
            "session": session[0],
            "csrf": session[1],
            "version": game.version,
            "marker": hand_marker(game_state(game)),
            "tools": shares_tools(game.ruleset),
            "revision": revision,
            "etag": etag_of(game, revision, True),
        }

    def open_table(self, game: Any, own_sessions: bool, phones: int | None = None) -> int:
        """The table's phones (``--phones``, or ``phones``; their streams opened); the
        index of the first."""
        shared = self.session()
        specs = [
            self.spec(game, self.session() if own_sessions else shared)
            for _ in range(self.args.phones if phones is None else phones)
        ]
        first = self.count
        said = self.ask(do="open", phones=specs)
        self.count += len(specs)
        assert said["open"] == len(specs), said
        return first

    def inputs(self, game: Any, hands: int) -> list[dict[str, Any]]:
        from games import get_ruleset
        from scorekeeper.models import Game
        from scorekeeper.selectors.games import game_config, game_state
        from scorekeeper.simulate import next_hand

        game = Game.objects.get(pk=game.pk)
        config = game_config(game)
        rules = get_ruleset(game.ruleset)
        state = game_state(game)
        made = []
        for _ in range(hands):
            if state.finished:
                break
            hand = next_hand(self.rng, config, state, {})
            state = rules.play(config, [hand], state=state)
            made.append(dict(state.hands[-1].input))
        return made

    @staticmethod
    def form(ruleset: str, hand: dict[str, Any], number: int) -> list[list[str]]:
        """The sheet's entry form as a phone posts it for ``hand`` (the game's own form,
        filled from the stored input), with the hand's number."""
        from scorekeeper.presenters import presenter_for

        results = hand.get("results") or []
        players = [int(r["player"]) for r in results if isinstance(r, dict)]
        form = presenter_for(ruleset).entry_form.from_input(players, hand)
        pairs = [["number", str(number)]]
        pairs += [[name, value] for name, values in form.data.lists() for value in values]
        return pairs

    def api_post(self, game: int, hand: dict[str, Any]) -> int:
        request = urllib.request.Request(
            f"{self.stack.base}/api/v1/games/{game}/hands/",
            data=json.dumps(hand).encode(),
            headers={"Authorization": f"Token {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return int(answer.status)

    # -- CPU -------------------------------------------------------------------------------

    def idle_rate(self, seconds: float = 3.0) -> dict[str, float]:
        before, t0 = self.stack.cpu(), time.monotonic()
        time.sleep(seconds)
        return {k: v / (time.monotonic() - t0) for k, v in delta(self.stack.cpu(), before).items()}

    def spent(
        self, before: dict[str, float], t0: float, idle: dict[str, float]
    ) -> dict[str, float]:
        wall = time.monotonic() - t0
        return {k: max(v - idle[k] * wall, 0.0) for k, v in delta(self.stack.cpu(), before).items()}

    # -- a. nothing changing ---------------------------------------------------------------

    def tables(self) -> list[Any]:
        from scorekeeper.models import Game

        started = time.monotonic()
        games = [self.game(RULESETS[i % len(RULESETS)]) for i in range(self.args.tables)]
        specs = []
        for i, game in enumerate(games):
            session = (
                self.session()
                if i % 50 == 0 or not specs
                else (specs[-1]["session"], specs[-1]["csrf"])
            )
            specs += [self.spec(game, session) for _ in range(self.args.phones)]
        print(f"{len(games):,} tables made in {time.monotonic() - started:.1f}s "
              f"({', '.join(RULESETS)} in turn; a session per 50 tables)")  # fmt: skip
        first = self.count
        said = self.ask(do="open", phones=specs, timeout=self.args.tables * 0.5 + 20)
        self.count += len(specs)
        #: Each table's first phone (its others follow).
        self.first_phone = {g.pk: first + i * self.args.phones for i, g in enumerate(games)}
        print(
            f"{said['open']:,} of {said['of']:,} streams open through nginx in {said['seconds']}s"
            + ("" if said["open"] == said["of"] else f" ({said['counts']})")
        )
        self.games = list(Game.objects.filter(pk__in=[g.pk for g in games]).order_by("pk"))
        return games

    def scenario_a(self) -> None:
        streams = self.args.tables * self.args.phones
        time.sleep(2)
        before, t0 = self.stack.cpu(), time.monotonic()
        time.sleep(self.args.hold)
        wall = time.monotonic() - t0
        spent = delta(self.stack.cpu(), before)
        cores = spent["events"] / wall
        print(
            f"a. nothing changing, {streams:,} streams held {wall:.0f}s: events servers "
            f"{cores:.3f} cores (goal ≤ {IDLE_CORES_GOAL}: {verdict(cores <= IDLE_CORES_GOAL)}); "
            + ", ".join(f"{k} {spent[k] / wall:.3f}" for k in GROUPS if k != "events")
        )

    # -- b. a hand seen by 4 phones ----------------------------------------------------------

    def scenario_b(self) -> None:
        idle = self.idle_rate()
        self.ask(do="reset")
        hands = self.args.hands
        results = []
        for ruleset in ("dirt", "screw-your-neighbour", "dirty-deals", "dirty-uno"):
            seen: list[dict[str, float]] = []
            posted: list[dict[str, float]] = []
            alone: list[dict[str, float]] = []
            late = 0
            # A game that ends before ``--hands`` (Dirt has 6) goes on at a new table; the
            # first hands of each are not counted (3 of the first, 1 of the next).
            warm = 3
            while len(seen) < hands:
                counted = len(seen)
                late += self.table_hands(
                    ruleset, hands - len(seen), warm, idle, (seen, posted, alone)
                )
                if len(seen) == counted:
                    break
                warm = 1
            results.append((ruleset, seen, posted, alone, late))
            counts = self.ask(do="counts")["counts"]
            print(f"   {ruleset}: the phones' requests {json.dumps(counts)}")
            if counts.get("answer pushed"):
                each = counts["answer pushed, bytes"] / counts["answer pushed"]
                print(f"   {ruleset}: an answer pushed on the stream: {each / 1024:.1f} KB")
            self.ask(do="reset")
            if ruleset in TAPS:
                self.tap(ruleset, idle, posted)

        for ruleset, seen, posted, alone, late in results:

            def total(rows: list[dict[str, float]], *keys: str) -> float:
                return sum(r[k] for r in rows for k in keys)

            api = max(total(posted, "django"), 1e-9)
            django = total(seen, "django") / api
            solo = total(alone, "django") / api
            others = django - solo
            everything = total(seen, *GROUPS[:4]) / max(total(posted, *GROUPS[:4]), 1e-9)
            n = len(seen)
            print(
                f"b. {ruleset}, a hand seen by {self.args.phones} phones ({n} hands"
                f"{f', {late} phones late' if late else ''}): Django "
                f"{total(seen, 'django') / n * 1000:.1f} ms (the API's POST "
                f"{total(posted, 'django') / n * 1000:.1f}) = {django:.2f}× (goal ≤ "
                f"{FAN_OUT_GOAL:.0f}: {verdict(django <= FAN_OUT_GOAL)}), of which the "
                f"saving phone's POST with no other phone at its table "
                f"{total(alone, 'django') / n * 1000:.1f} ms = {solo:.2f}× and the other "
                f"{self.args.phones - 1} phones {others:+.2f}× (goal ≤ {OTHERS_GOAL}: "
                f"{verdict(others <= OTHERS_GOAL)}); PostgreSQL "
                f"{total(seen, 'postgres') / n * 1000:.1f} ms (the POST's "
                f"{total(posted, 'postgres') / n * 1000:.1f}); events servers "
                f"{total(seen, 'events') / n * 1000:.1f} ms; with PostgreSQL, the events "
                f"servers and the worker {everything:.2f}×"
            )

    def table_hands(
        self,
        ruleset: str,
        hands: int,
        warm: int,
        idle: dict[str, float],
        into: tuple[list[dict[str, float]], list[dict[str, float]], list[dict[str, float]]],
    ) -> int:
        """Up to ``hands`` hands (after ``warm`` not counted) at a new table of
        ``ruleset`` seen by its phones; as many API POSTs to a twin game nobody watches;
        and as many saved by the same form at a table of one phone (the saving phone's
        own POST, nobody else watching): their CPU added to ``into`` (seen, posted,
        alone); the phones late, returned."""

        seen, posted, alone = into
        table, twin, single = self.game(ruleset), self.game(ruleset), self.game(ruleset)
        first = self.open_table(table, own_sessions=True)
        only = self.open_table(single, own_sessions=True, phones=1)
        forms = self.inputs(table, hands + warm)  # the single table plays the same hands
        api = self.inputs(twin, hands + warm)
        late = 0
        for i, (hand, api_hand) in enumerate(zip(forms, api, strict=False)):
            table_cpu, missed = self.form_hand(ruleset, table, first, hand, idle)
            late += missed
            before, t0 = self.stack.cpu(), time.monotonic()
            assert self.api_post(twin.pk, api_hand) == 201
            time.sleep(0.3)
            api_cpu = self.spent(before, t0, idle)
            solo_cpu, _ = self.form_hand(ruleset, single, only, hand, idle)
            if i >= warm:
                seen.append(table_cpu)
                posted.append(api_cpu)
                alone.append(solo_cpu)
        return late

    def form_hand(
        self, ruleset: str, table: Any, phone: int, hand: dict[str, Any], idle: dict[str, float]
    ) -> tuple[dict[str, float], int]:
        """One hand saved by ``phone``'s form at ``table`` until every phone of the table
        shows it: the CPU spent, and how many phones were late."""
        from scorekeeper.models import Game

        number = Game.objects.get(pk=table.pk).hand_count + 1
        before, t0 = self.stack.cpu(), time.monotonic()
        saved = self.ask(do="save", phone=phone, path=f"/games/{table.pk}/hands/",
                         form=self.form(ruleset, hand, number))  # fmt: skip
        assert saved["status"] == 200, (ruleset, saved)
        current = self.ask(do="current", versions={table.pk: saved["shown"]}, timeout=10)
        time.sleep(0.3)
        return self.spent(before, t0, idle), current["phones"] - current["current"]

    def tap(self, ruleset: str, idle: dict[str, float], posted: list[dict[str, float]]) -> None:
        """Taps on the tools of a table of its own, in play (the table of the hands may be
        over by now, and the tools of a game over are asked for by no phone)."""
        table = self.game(ruleset)
        first = self.open_table(table, own_sessions=True)
        self.ask(do="reset")
        spent = []
        for _ in range(5):
            before, t0 = self.stack.cpu(), time.monotonic()
            said = self.ask(do="tap", phone=first, form=TAPS[ruleset])
            assert said["status"] == 200, said
            current = self.ask(do="current", revisions={table.pk: said["revision"]}, timeout=10)
            time.sleep(0.3)
            spent.append(self.spent(before, t0, idle))
            if current["current"] < current["phones"]:
                print(
                    f"   (a tap: {current['phones'] - current['current']} phones late: "
                    f"{current['late']}, r={said['revision']})"
                )
        print(f"   the phones' requests for the taps {json.dumps(self.ask(do='counts')['counts'])}")
        self.ask(do="reset")
        django = statistics.median(s["django"] for s in spent)
        api = statistics.median(p["django"] for p in posted) or 1e-9
        print(
            f"b. {ruleset}, a tools tap ({TAPS[ruleset]['action']}) seen by {self.args.phones} "
            f"phones: Django {django * 1000:.1f} ms = {django / api:.2f}× the API's hand POST; "
            f"PostgreSQL {statistics.median(s['postgres'] for s in spent) * 1000:.1f} ms"
        )

    # -- c. restarts, d. the outage ----------------------------------------------------------

    def change_behind(self, by_phones: bool = True) -> tuple[dict[int, int], dict[int, int]]:
        """A hand in each of ``--behind`` games and a tap on the tools games' tools, one
        game after the other: the versions and tools revisions they made. ``by_phones``:
        by one of the table's phones as the page sends them; else written here."""
        from scorekeeper.models import Game

        step = max(len(self.games) // max(self.args.behind, 1), 1)
        versions, revisions = {}, {}
        for n, game in enumerate(self.games[::step][: self.args.behind]):
            game = Game.objects.get(pk=game.pk)
            hand = self.inputs(game, 1)
            if by_phones:
                phone = self.first_phone[game.pk] + n % self.args.phones
                revision = self.change_by_phone(game, phone, hand)
            else:
                revision = self.change_here(game, hand)
            if revision is not None:
                revisions[game.pk] = revision
            versions[game.pk] = Game.objects.get(pk=game.pk).version
        return versions, revisions

    def change_by_phone(self, game: Any, phone: int, hand: list[dict[str, Any]]) -> int | None:
        """``hand`` saved by ``phone`` by the sheet's form, and on a tools game a tap by the
        tools' form: the tools' revision it made (None: no tools)."""
        if hand:
            form = self.form(game.ruleset, hand[0], game.hand_count + 1)
            self.sent(game, do="save", phone=phone, path=f"/games/{game.pk}/hands/", form=form)
        if game.ruleset not in TAPS:
            return None
        return int(self.sent(game, do="tap", phone=phone, form=TAPS[game.ruleset])["revision"])

    def change_here(self, game: Any, hand: list[dict[str, Any]]) -> int | None:
        """The same through the services, from this process (no answer kept for the
        phones, as a phone's form POST keeps it)."""
        from scorekeeper.models import Game
        from scorekeeper.selectors.table import hand_in_play, tools_revision
        from scorekeeper.services.games import hand_record
        from scorekeeper.services.table import parse_action, table_act
        from scorekeeper.web.table import state_of

        if hand:
            hand_record(game=game, user=self.owner, hand_input=hand[0])
        if game.ruleset not in TAPS:
            return None
        game = Game.objects.get(pk=game.pk)
        state, _ = state_of(game)
        act = parse_action(TAPS[game.ruleset])
        table_act(game=game, user=self.owner, guest=None, act=act, hand=hand_in_play(state))
        return int(tools_revision(game))

    def sent(self, game: Any, **command: Any) -> dict[str, Any]:
        """A phone's save or tap, sent again while the app sheds load (503: the page's
        outbox keeps it and sends it again; a refused request wrote nothing)."""
        for _ in range(10):
            said = self.ask(**command)
            if said["status"] != 503:
                break
            time.sleep(5.0)  # nginx's Retry-After
        assert said["status"] == 200, (game.ruleset, command["do"], said)
        return said

    def held(self, idle: dict[str, float]) -> dict[str, float]:
        """The same changes as a restart's, with every stream held: what they cost
        without it (the saving phones' POSTs, the other phones taking them)."""
        self.ask(do="reset")
        before, t0 = self.stack.cpu(), time.monotonic()
        versions, revisions = self.change_behind()
        current = self.ask(do="current", versions=versions, revisions=revisions, timeout=60,
                           since=t0)  # fmt: skip
        time.sleep(0.5)
        spent = self.spent(before, t0, idle)
        counts = self.ask(do="counts")["counts"]
        print(
            f"c. the same changes with every stream held, {len(versions)} games "
            f"({len(revisions)} with a tools tap): Django {spent['django']:.2f} CPU-s, "
            f"PostgreSQL {spent['postgres']:.2f}, events servers {spent['events']:.2f}; "
            f"{current['current']} of their {current['phones']} phones current after "
            f"{current['last'] or 0:.2f}s"
        )
        print(f"   requests: {json.dumps(dict(sorted(counts.items())))}")
        return spent

    def scenario_c(self, which: tuple[int, ...]) -> None:
        idle = self.idle_rate()
        # The goals are a restart as the recipes make it, one server at a time (the other
        # holds every phone); both at once is an outage: every phone polls meanwhile, as
        # in scenario d, whose goal is calm, not these.
        one = len(which) == 1
        self.ask(do="reset")
        before, t0 = self.stack.cpu(), time.monotonic()
        for n in which:
            self.stack.stop_events(n)
        stopped = time.monotonic()
        # Both servers away: every phone polls, the app sheds load, and the phones' own
        # saves and taps wait behind the polls (their outbox sends them again) for as
        # long as the outage lasts, which would then last as long as they wait: the
        # changes are written here instead, in the second or two they take.
        versions, revisions = self.change_behind(by_phones=one)
        changed = time.monotonic()
        for n in which:
            self.stack.start_events(n)
        up = time.monotonic()
        current = self.ask(do="current", versions=versions, revisions=revisions, timeout=60,
                           since=t0)  # fmt: skip
        back = self.ask(do="current", all=True, streaming=True, timeout=120, since=t0)
        time.sleep(0.5)
        spent = self.spent(before, t0, idle)
        counts = self.ask(do="counts")["counts"]
        last = current["last"] if current["current"] == current["phones"] else float("inf")
        # A phone is behind from the change on: the goal is how long after the last change
        # the last phone is current (the changes are the phones' own saves and taps, made
        # one by one while the server is away: 1-3 s of them at 40 games on this machine).
        behind = last - (changed - t0)
        name = "one events server" if one else "both events servers"
        # Measured after the restart, so that the restart, not this, pays for anything
        # done for the first time in the run.
        held = self.held(idle) if one else None
        if held is not None:
            # What the restart adds: the changes themselves cost what they cost with every
            # stream held (the saving phones' POSTs are the hands' own cost, scenario b).
            storm = spent["django"] - held["django"]
            cpu_goal = (
                f", of which the restart {storm:.2f} (the changes alone {held['django']:.2f}; "
                f"goal ≤ {STORM_CPU_GOAL:.0f}: {verdict(storm <= STORM_CPU_GOAL)})"
            )
            late_goal = f"goal ≤ {CURRENT_WITHIN:.0f}: {verdict(behind <= CURRENT_WITHIN)}; "
        else:
            cpu_goal, late_goal = " (an outage: no goal)", ""
        print(
            f"c. {name} restarted (back after {up - t0:.1f}s), {len(versions)} games changed "
            f"meanwhile ({len(revisions)} with a tools tap): Django {spent['django']:.2f} "
            f"CPU-s{cpu_goal}, PostgreSQL {spent['postgres']:.2f}, events servers "
            f"{spent['events']:.2f}, nginx {spent['nginx']:.2f}; the last of their "
            f"{current['phones']} phones current {behind:.2f}s after the last change "
            f"({late_goal}{last:.2f}s after the stop, {last - (up - t0):.2f}s after the "
            f"restart); every phone streaming again after {back['last'] or 0:.2f}s "
            f"({back['current']:,} of {back['phones']:,})"
        )
        print(
            f"   the stop took {stopped - t0:.2f}s, the changes {changed - stopped:.2f}s, "
            f"the start {up - changed:.2f}s"
        )
        print(f"   requests: {json.dumps(dict(sorted(counts.items())))}")

    def scenario_d(self) -> None:
        idle = self.idle_rate()
        self.ask(do="reset")
        before, t0 = self.stack.cpu(), time.monotonic()
        for n in (0, 1):
            self.stack.stop_events(n)
        time.sleep(max(self.args.outage - (time.monotonic() - t0), 0))
        during = self.spent(before, t0, idle)
        polled = self.ask(do="counts")["counts"]
        before, t1 = self.stack.cpu(), time.monotonic()
        for n in (0, 1):
            self.stack.start_events(n)
        up = time.monotonic()
        back = self.ask(do="current", all=True, streaming=True, timeout=180, since=up)
        spent = self.spent(before, t1, idle)
        counts = self.ask(do="counts")["counts"]
        way = "fixed polls (--no-backoff)" if self.args.no_backoff else "backoff.js's waits"
        print(
            f"d. both events servers away {t1 - t0:.1f}s, {back['phones']:,} phones polling "
            f"with {way}: Django {during['django']:.2f} CPU-s meanwhile "
            f"({during['django'] / (t1 - t0):.2f} cores; PostgreSQL {during['postgres']:.2f}, "
            f"nginx {during['nginx']:.2f}); back up after {up - t1:.1f}s, every stream held "
            f"again {back['last'] or float('inf'):.2f}s later ({back['current']:,} of "
            f"{back['phones']:,}; half after {back['median'] or 0:.2f}s), Django "
            f"{spent['django']:.2f} CPU-s for it"
        )
        print(f"   requests while away: {json.dumps(dict(sorted(polled.items())))}")
        print(f"   requests in all: {json.dumps(dict(sorted(counts.items())))}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Scenarios: " + __doc__.split("Scenarios (``--only`` picks them):")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--tables", type=int, default=1000, help="tables (default 1,000)")
    parser.add_argument("--phones", type=int, default=4, help="phones per table (4)")
    parser.add_argument("--hold", type=float, default=30.0, help="a: seconds held (30)")
    parser.add_argument(
        "--hands",
        type=int,
        default=10,
        help="b: hands counted per game (10; a game over sooner goes on at a new table)",
    )
    parser.add_argument("--behind", type=int, default=40, help="c: games changed (40)")
    parser.add_argument("--outage", type=float, default=10.0, help="d: seconds away (10)")
    parser.add_argument(
        "--no-backoff",
        action="store_true",
        help="the phones poll every 2 s / 3 s and reconnect after 3 s, as before",
    )
    parser.add_argument("--only", default="abcd", help="the scenarios to run (abcd)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a small run: 100 tables, 5 s held, 5 hands, a 5 s outage",
    )
    args = parser.parse_args()
    if args.quick:
        args.tables, args.hold, args.hands, args.outage = 100, 5.0, 5, 5.0
        args.behind = min(args.behind, 20)
    raise_fd_limit(20000)
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("live_bench: needs PostgreSQL (DATABASE_URL=postgres://…)", file=sys.stderr)
        return 2
    setup_django()
    bench = Bench(args)
    load = os.getloadavg()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()  # fmt: skip
    print(f"commit {commit}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on "
          f"{os.cpu_count()} cores")  # fmt: skip
    try:
        bench.stack.start()
        bench.start_phones()
        bench.tables()
        if "a" in args.only:
            bench.scenario_a()
        if "b" in args.only:
            bench.scenario_b()
        if "c" in args.only:
            bench.scenario_c((0,))
            bench.scenario_c((0, 1))
        if "d" in args.only:
            bench.scenario_d()
        said = bench.ask(do="counts")
        print(f"the phones' process: {said['cpu']:.1f} CPU-s in all; load average now "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")  # fmt: skip
    finally:
        if bench.phones is not None:
            bench.phones.kill()
        bench.stack.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
