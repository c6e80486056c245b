"""Which of the project's modules import which: read from the source (``ast``), counting
imports at any depth (one inside a function still ties two modules together) but not
those made only for type checking (``if TYPE_CHECKING:``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_of(*packages: str) -> dict[str, Path]:
    return {
        module_name(p): p
        for package in packages
        for p in (ROOT / package).rglob("*.py")
        if "migrations" not in p.parts
    }


class Imports(ast.NodeVisitor):
    """The ``modules`` that module ``me`` (at ``path``) imports."""

    def __init__(self, me: str, path: Path, modules: set[str] | dict[str, Path]) -> None:
        self.me = me
        self.package = me if path.name == "__init__.py" else me.rpartition(".")[0]
        self.modules = set(modules)
        self.found: set[str] = set()

    def _add(self, name: str) -> None:
        # ``import a.b.c`` of a name inside module ``a.b`` ties to ``a.b``.
        while name and name not in self.modules:
            name = name.rpartition(".")[0]
        if name and name != self.me:
            self.found.add(name)

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", "")
        for child in node.orelse if name == "TYPE_CHECKING" else [*node.body, *node.orelse]:
            self.visit(child)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            package = self.package.split(".")
            package = package[: len(package) - (node.level - 1)]
            base = ".".join([*package, base] if base else package)
        for alias in node.names:
            # ``from a import b`` imports module ``a.b`` when there is one.
            module = f"{base}.{alias.name}"
            self._add(module if module in self.modules else base)


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    graph = {}
    for name, path in modules.items():
        visitor = Imports(name, path, modules)
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


def _private(name: str) -> bool:
    """``_x`` is private to its package; ``__future__`` and ``__version__`` are not."""
    return name.startswith("_") and not name.startswith("__")


def private_imports(modules: dict[str, Path]) -> list[str]:
    """Each import, by one of ``modules``, of another top-level package's private name or
    module (``from uvicorn.x import _Hosts``, ``import uvicorn._compat``), as
    ``"scorekeeper.live.guard imports uvicorn.x._Hosts"``. A package's own private names
    are its own business; imports for type checking count too."""
    found = []
    for me, path in modules.items():
        package = me.partition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue  # a relative import stays in its own package
            found += [
                f"{me} imports {name}"
                for name in names
                if name.partition(".")[0] != package and any(map(_private, name.split(".")))
            ]
    return sorted(found)
