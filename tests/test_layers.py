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

import ast
import re
from pathlib import Path
from typing import Any

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


# -- a game is one module (issue 28) ------------------------------------------------------
#
# What a game knows lives in its own files: its engine module(s) in games/, its presenter
# module in scorekeeper/presenters/, its entry template, its rules text, migrations and
# tests. Nothing else in the app (scorekeeper/**/*.py, templates/**, static/js/**) may
# name it: neither its slug ("dirt", "damn-you", also written "damn_you", and names
# made from it such as ``dirt_rank`` or the CSS class ``dirt-rank``) nor its ruleset class
# ("DamnYou"). Python's comments and docstrings, and the templates' and scripts'
# comments, are prose and not read; the game's *name* ("Dirt on Your Neighbor", "Partner
# Dirt") is prose too. The word "dirt" in a string is read as the slug: it is also the
# rules' word for the hand's dirt rank, which is Dirt's own knowledge all the same.

ROOT = Path(__file__).resolve().parents[1]

#: Named outside the game's own files, and why: (file, slug). It may only shrink; it is
#: empty since each game's part of the API's answers and of its documentation moved to
#: its presenter (``hand_facts``…, ``score_meaning``, ``hand_examples``,
#: ``new_game_examples``, ``rules_hit_example``).
ALLOWED: dict[tuple[str, str], str] = {}


def _slug_forms(slug: str) -> tuple[str, ...]:
    return (slug, slug.replace("-", "_"))


def _naming(tokens: list[str], slug: str, class_name: str) -> list[str]:
    """The tokens that name the game: its slug (either spelling), a name made from it, or
    its class (``class_name``: empty to leave the class out)."""
    forms = _slug_forms(slug)
    return [
        token
        for token in tokens
        if (class_name and token == class_name)
        or token.lstrip("'") in forms
        or any(token.lstrip("'").startswith(f"{form}{sep}") for form in forms for sep in "-_")
    ]


def _names_in(tokens: list[str], slug: str, class_name: str) -> bool:
    return bool(_naming(tokens, slug, class_name))


_WORD = re.compile(r"[A-Za-z0-9_-]+")


def _python_tokens(source: str) -> list[str]:
    """The identifiers and the words of the strings of a module (not its comments or
    docstrings); a string's words come marked ``"'word"``."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
        and isinstance(node.body[0].value.value, str)
    }
    tokens: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                tokens += [f"'{word}" for word in _WORD.findall(node.value)]
        elif isinstance(node, ast.Name):
            tokens.append(node.id)
        elif isinstance(node, ast.Attribute):
            tokens.append(node.attr)
        elif isinstance(node, ast.alias):
            tokens += node.name.split(".")
        elif isinstance(node, ast.ImportFrom) and node.module:
            tokens += node.module.split(".")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            tokens.append(node.name)
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            tokens.append(node.arg)
    return tokens


_TEMPLATE_COMMENT = re.compile(r"\{#.*?#\}|<!--.*?-->|\{% comment %\}.*?\{% endcomment %\}", re.S)
_JS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S)


def _text_tokens(path: Path) -> list[str]:
    text = path.read_text()
    text = (_JS_COMMENT if path.suffix == ".js" else _TEMPLATE_COMMENT).sub(" ", text)
    return _WORD.findall(text)


def _own_files() -> dict[str, set[str]]:
    """Each game's own files under the scanned folders: its presenter module, and its
    entry template when no other game shares it."""
    import inspect

    from games import RULESETS
    from scorekeeper.presenters import presenter_for

    presenters = {slug: presenter_for(slug) for slug in RULESETS}
    templates = [p.entry_template for p in presenters.values()]
    own: dict[str, set[str]] = {}
    for slug, presenter in presenters.items():
        module = inspect.getfile(type(presenter))
        files = {str(Path(module).resolve().relative_to(ROOT))}
        if templates.count(presenter.entry_template) == 1:
            files.add(f"templates/{presenter.entry_template}")
        own[slug] = files
    return own


def games_named_outside_their_files(*, tokens_too: bool = False) -> list[tuple[Any, ...]]:
    """(file, slug) for every app file naming a game that is not its own (with
    ``tokens_too``, the naming tokens as a third item)."""
    from games import RULESETS

    own = _own_files()
    files = sorted(
        [
            *(p for p in (ROOT / "scorekeeper").rglob("*.py") if "migrations" not in p.parts),
            *(p for p in (ROOT / "templates").rglob("*") if p.is_file()),
            *(ROOT / "static" / "js").rglob("*.js"),
        ]
    )
    found = []
    for path in files:
        name = str(path.relative_to(ROOT))
        python = path.suffix == ".py"
        tokens = _python_tokens(path.read_text()) if python else _text_tokens(path)
        for slug, rules in RULESETS.items():
            class_name = type(rules).__name__
            if not python and class_name in rules.name.split():
                class_name = ""  # a word of the game's name in the page's text ("Dirt")
            # A string's word is marked: "'Dirt" (prose, the game's name) is no class.
            naming = _naming(tokens, slug, class_name) if name not in own[slug] else []
            if naming:
                found.append((name, slug, sorted(set(naming))) if tokens_too else (name, slug))
    return found


def test_a_game_is_named_only_in_its_own_files() -> None:
    assert sorted(set(games_named_outside_their_files()) - set(ALLOWED)) == []


def test_the_allowed_names_are_all_still_there() -> None:
    """An entry of the allow-list whose file no longer names the game must go."""
    assert sorted(set(ALLOWED) - set(games_named_outside_their_files())) == []


def test_a_game_named_in_code_is_seen() -> None:
    tokens = _python_tokens(
        '"""Dirt on Your Neighbor: the dirt rank."""\n'
        "# dirt in a comment\n"
        'if game.ruleset == "damn-you":\n'
        "    pass\n"
    )
    assert _names_in(tokens, "damn-you", "DamnYou")
    assert not _names_in(tokens, "dirt", "Dirt")
    assert _names_in(
        _python_tokens("from games.dirty_uno import TARGET\n"), "dirty-uno", "DirtyUno"
    )
    assert _names_in(_python_tokens("x: DirtyDeals\n"), "dirty-deals", "DirtyDeals")
    assert _names_in(_python_tokens("panel.dirt_rank = 7\n"), "dirt", "Dirt")
    assert not _names_in(_python_tokens('x = "dirty-uno"\n'), "dirt", "Dirt")
