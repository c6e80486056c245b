"""The layers of the project import each other one way (README, "Architecture"):

* ``games`` (the engine) imports nothing of the Django side;
* ``scorekeeper.presenters`` (what each game shows) import only the engine;
* ``scorekeeper.selectors`` (reads) import no services, pages or API;
* ``scorekeeper.services`` (writes) import no pages or API;
* the pages (``web``) and the API (``api``) do not import each other;
* no two modules of ``games`` or ``scorekeeper`` import each other, however
  indirectly;
* and none of them imports another package's private name or module (``_x``): only
  what Django, DRF, uvicorn and the rest publish.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_graph import find_circle, import_graph, modules_of, private_imports

MODULES = modules_of("games", "scorekeeper")
GRAPH = import_graph(MODULES)

#: A layer, and the layers it may not import.
FORBIDDEN = {
    "games": ("scorekeeper",),
    "scorekeeper.presenters": (
        "scorekeeper.selectors",
        "scorekeeper.services",
        "scorekeeper.web",
        "scorekeeper.api",
    ),
    "scorekeeper.selectors": ("scorekeeper.services", "scorekeeper.web", "scorekeeper.api"),
    "scorekeeper.services": ("scorekeeper.web", "scorekeeper.api"),
    "scorekeeper.web": ("scorekeeper.api",),
    "scorekeeper.api": ("scorekeeper.web",),
}


def _in(module: str, layer: str) -> bool:
    return module == layer or module.startswith(f"{layer}.")


@pytest.mark.parametrize("layer", list(FORBIDDEN))
def test_a_layer_imports_only_what_is_below_it(layer: str) -> None:
    wrong = sorted(
        f"{module} imports {imported}"
        for module, imports in GRAPH.items()
        if _in(module, layer)
        for imported in imports
        if any(_in(imported, below) for below in FORBIDDEN[layer])
    )
    assert wrong == []


def test_no_module_imports_itself_through_others() -> None:
    assert find_circle(GRAPH) == []


def test_no_module_imports_another_packages_private_names() -> None:
    assert sorted(private_imports(MODULES)) == []


def test_private_imports_are_seen(tmp_path: Path) -> None:
    module = tmp_path / "mod.py"
    module.write_text(
        "from __future__ import annotations\n"
        "import uvicorn._compat\n"
        "from django.db.models._private import Thing\n"
        "from uvicorn.config import _Hosts, Config\n"
        "from scorekeeper.web.leagues import _int\n"
        "from . import _sibling\n"
        "if TYPE_CHECKING:\n"
        "    from rest_framework.request import _Private\n"
    )
    assert private_imports({"scorekeeper.mod": module}) == [
        "scorekeeper.mod imports django.db.models._private.Thing",
        "scorekeeper.mod imports rest_framework.request._Private",
        "scorekeeper.mod imports uvicorn._compat",
        "scorekeeper.mod imports uvicorn.config._Hosts",
    ]


def test_the_graph_sees_the_project() -> None:
    assert "scorekeeper.services.games" in GRAPH["scorekeeper.web.games"]
    assert "games" in GRAPH["scorekeeper.services.games"]


def test_the_pages_never_name_a_game() -> None:
    """What differs between games is said by each game's presenter: no module of the
    pages and no template of the sheet branches on a game's name."""
    from games import RULESETS

    root = Path(__file__).resolve().parents[1]
    files = [*(root / "scorekeeper" / "web").rglob("*.py"), *(root / "templates").rglob("*.html")]
    named = sorted(
        f"{path.relative_to(root)}: {slug}"
        for path in files
        for slug in RULESETS
        for quote in ('"', "'")
        if f"{quote}{slug}{quote}" in path.read_text()
    )
    assert named == []
