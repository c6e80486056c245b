"""The engine is plain Python: importing any of it must not pull in Django."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import importlib, json, pkgutil, sys
import games
names = ["games"] + [f"games.{m.name}" for m in pkgutil.iter_modules(games.__path__)]
for name in names:
    importlib.import_module(name)
frameworks = ("django", "rest_framework", "django_htmx")
leaked = sorted(m for m in sys.modules if m.split(".")[0] in frameworks)
print(json.dumps({"modules": names, "leaked": leaked}))
"""


def test_importing_the_engine_pulls_in_no_django() -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout)
    assert report["leaked"] == []
    for module in (
        "games.dirt",
        "games.screw_your_neighbour",
        "games.damn_you",
        "games.dirty_uno",
        "games.dirty_deals",
        "games.registry",
    ):
        assert module in report["modules"]
