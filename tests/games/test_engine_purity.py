"""The engine is plain Python: importing any of it must not pull in Django, and its
modules depend on each other one way only (no import circles)."""

from __future__ import annotations

import ast
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


GAMES = ROOT / "games"


class _Imports(ast.NodeVisitor):
    """The ``games`` modules a module imports, at the top or inside a function; not
    those imported only for type checking (``if TYPE_CHECKING:``)."""

    def __init__(self, modules: set[str]) -> None:
        self.modules = modules
        self.found: set[str] = set()

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", "")
        for child in node.orelse if name == "TYPE_CHECKING" else [*node.body, *node.orelse]:
            self.visit(child)

    def visit_Import(self, node: ast.Import) -> None:
        self.found.update(a.name for a in node.names if a.name in self.modules)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        assert node.level == 0, "the engine's imports are absolute"
        base = node.module or ""
        for alias in node.names:
            # ``from games import dirt`` imports the module, not the package's names.
            module = f"{base}.{alias.name}"
            self.found.add(module if module in self.modules else base)
        self.found &= self.modules


def import_graph() -> dict[str, set[str]]:
    paths = {
        ("games" if p.stem == "__init__" else f"games.{p.stem}"): p for p in GAMES.glob("*.py")
    }
    graph = {}
    for name, path in paths.items():
        visitor = _Imports(set(paths))
        visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
        graph[name] = visitor.found
    return graph


def find_circle(graph: dict[str, set[str]]) -> list[str]:
    """A circle of imports (its first module repeated at the end), or ``[]``."""
    done: set[str] = set()

    def walk(module: str, path: list[str]) -> list[str]:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return []
        for imported in sorted(graph[module]):
            if circle := walk(imported, [*path, module]):
                return circle
        done.add(module)
        return []

    for module in sorted(graph):
        if circle := walk(module, []):
            return circle
    return []


def test_the_engine_s_modules_import_each_other_one_way() -> None:
    assert find_circle(import_graph()) == []


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
    imports = _Imports(modules)
    imports.visit(ast.parse(source))
    assert imports.found == {"games", "games.cards", "games.dirt", "games.shedding"}


def test_a_circle_is_found() -> None:
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b"}, "b": set()}) == []
