"""The engine is plain Python: importing any of it must not pull in Django, and its
modules depend on each other one way only (no import circles)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

from tests.import_graph import ROOT, Imports, find_circle, import_graph, modules_of

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


def test_the_engine_s_modules_import_each_other_one_way() -> None:
    assert find_circle(import_graph(modules_of("games"))) == []


def test_imports_in_functions_count_and_type_checking_ones_do_not() -> None:
    source = """
from typing import TYPE_CHECKING
from games import dirt, get_ruleset
if TYPE_CHECKING:
    from games.base import Ruleset
else:
    import games.cards
def later():
    from games.shedding import parse_left_in_hand
"""
    modules = {"games", "games.base", "games.cards", "games.dirt", "games.shedding"}
    imports = Imports("games.rules", ROOT / "games" / "rules.py", modules)
    imports.visit(ast.parse(source))
    assert imports.found == {"games", "games.cards", "games.dirt", "games.shedding"}


def test_a_circle_is_found() -> None:
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b"}, "b": set()}) == []
