"""Every word a user reads goes through Django's i18n: a template or module that holds
user-facing English outside the translation functions fails here.

* Templates: the text between tags, and the attributes people read (``title``,
  ``aria-label``, ``placeholder``, ``alt``, ``content`` of a description…), outside
  ``{% translate %}`` / ``{% blocktranslate %}``, may hold no words; names that stay the
  same in every language (the games' names, "scorekeeper", "API", "QR"…) excepted.
* Python: flash messages, form labels, help texts and choices, the errors raised to the
  user (``RuleError``, ``ValidationError``) are made by a translation function, never a
  bare string or an f-string.
* Scripts: text set on the page (``textContent``, ``title``, ``aria-label``,
  ``confirm``) goes through ``gettext``.
"""

from __future__ import annotations

import ast
import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines
from django.template.base import Node, TextNode
from django.template.defaulttags import CommentNode
from django.template.loader_tags import BlockNode, IncludeNode
from django.templatetags.i18n import BlockTranslateNode, TranslateNode

BASE = Path(settings.BASE_DIR)
TEMPLATES = BASE / "templates"

#: Words that are the same in every language: names, and marks of the trade.
SAME_EVERYWHERE = [
    "Dirt on Your Neighbor",
    "Screw Your Neighbour",
    "Dirty Deals",
    "Dirty UNO",
    "D$%n You!",
    "D$%n You",
    "scorekeeper",
    "API",
    "QR",
    "PNG",
    "CSV",
    "JSON",
    "OpenAPI",
    "Swagger",
    "UNO",
    "Markdown",
]
#: Templates that are not pages: the service worker's script, the web app manifest (its
#: JSON keys are words; its description and shortcut are translated all the same).
NOT_PAGES = {"rules/sw.js", "manifest.webmanifest"}
#: Blocks that hold CSS classes of the page's ``<body>`` and ``<main>``.
CLASS_BLOCKS = {"body_class", "main_class"}
READ_ATTRIBUTES = (
    "title",
    "aria-label",
    "aria-description",
    "aria-roledescription",
    "placeholder",
    "alt",
    "data-confirm",
    "hx-confirm",
    "label",
)
#: Tags whose text no one reads as prose.
CODE = re.compile(r"<(script|style|code|pre|kbd|samp)\b.*?</\1>", re.S | re.I)
TAG = re.compile(r"<[a-zA-Z/!][^>]*>", re.S)
ATTRIBUTE = re.compile(r"""([\w:-]+)\s*=\s*("[^"]*"|'[^']*')""", re.S)
WORD = re.compile(r"[A-Za-z][a-z]+")


def template_names() -> list[str]:
    return sorted(
        str(p.relative_to(TEMPLATES))
        for p in TEMPLATES.rglob("*")
        if p.is_file() and str(p.relative_to(TEMPLATES)) not in NOT_PAGES
    )


def texts(nodes: list[Node]) -> Iterator[str]:
    """The template's own text, piece by piece, outside translation tags and comments."""
    for node in nodes:
        if isinstance(node, TextNode):
            yield node.s
        elif isinstance(node, TranslateNode | BlockTranslateNode | CommentNode | IncludeNode):
            yield "\x00"
        elif isinstance(node, BlockNode) and node.name in CLASS_BLOCKS:
            yield "\x00"  # a CSS class, not words
        else:
            for attr in node.child_nodelists:
                yield from texts(getattr(node, attr, None) or [])
            yield "\x00"


def unmarked_words(source: str) -> list[str]:
    text = re.sub(r"<!--.*?-->", "", source, flags=re.S)
    text = CODE.sub("\x00", text)
    read = []
    for tag in TAG.findall(text):
        described = tag.startswith("<meta") and 'name="description"' in tag
        for name, value in ATTRIBUTE.findall(tag):
            if name.lower() in READ_ATTRIBUTES or (described and name == "content"):
                read.append(value[1:-1])
    text = TAG.sub("\x00", text)
    words = []
    for piece in [text, *read]:
        piece = re.sub(r"&#?\w+;", " ", piece)
        for same in SAME_EVERYWHERE:
            piece = piece.replace(same, " ")
        words += list(WORD.findall(html.unescape(piece)))
    return words


@pytest.mark.parametrize("name", template_names())
def test_a_templates_words_are_translated(name: str) -> None:
    engine = engines["django"].engine
    template = engine.get_template(name)
    assert unmarked_words("".join(texts(template.nodelist))) == []


# -- Python ---------------------------------------------------------------------------

PYTHON = [
    p
    for root in ("scorekeeper", "games")
    for p in sorted((BASE / root).rglob("*.py"))
    if "migrations" not in p.parts and "management" not in p.parts
]
FLASH = {"success", "error", "info", "warning", "add_message", "debug"}
ERRORS = {"RuleError", "CardError", "ValidationError", "Problem"}
READ_KEYWORDS = {"label", "help_text", "empty_label", "title", "description"}
#: Where labels and help texts are for developers and admins only, not the table: the
#: API's (its OpenAPI schema), the models' (the Django admin's), the admin's.
NOT_READ_AT_THE_TABLE = {
    ("scorekeeper", "api"),
    ("scorekeeper", "models"),
    ("scorekeeper", "admin.py"),
}


def is_words(node: ast.AST) -> bool:
    """A bare string with words in it, an f-string, or strings added together."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(re.search(r"[A-Za-z]{2,}\s+[A-Za-z]", node.value))
    if isinstance(node, ast.JoinedStr):
        return any(is_words(v) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return is_words(node.left) or is_words(node.right)
    return False


def called(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def schema_field(node: ast.Call) -> bool:
    """A DRF serializer's field: its help text is the OpenAPI schema's, for developers."""
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.value.id == "serializers"
    name = called(node)
    return name.isupper() or name.endswith("Serializer")


def bare_words(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = called(node)
        said: list[ast.AST] = []
        if name in FLASH and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id == "messages":
                said = node.args[1:2]
        elif name in ERRORS:
            said = node.args[:1]
        if tuple(path.relative_to(BASE).parts[:2]) not in NOT_READ_AT_THE_TABLE and not (
            schema_field(node)
        ):
            said += [k.value for k in node.keywords if k.arg in READ_KEYWORDS]
        found += [f"{path.relative_to(BASE)}:{n.lineno}" for n in said if is_words(n)]
    return found


@pytest.mark.parametrize("path", PYTHON, ids=lambda p: str(p.relative_to(BASE)))
def test_a_modules_words_go_through_a_translation_function(path: Path) -> None:
    assert bare_words(path) == []


# -- scripts --------------------------------------------------------------------------

SCRIPTS = sorted((BASE / "static" / "js").glob("*.js"))
SET_TEXT = re.compile(
    r"""(?:\.(?:textContent|innerText|title|placeholder)\s*=\s*|"""
    r"""setAttribute\(\s*["'](?:aria-label|title|placeholder)["']\s*,\s*|"""
    r"""\b(?:confirm|alert)\(\s*)(["'`])((?:(?!\1).)*[A-Za-z]{2,}(?:(?!\1).)*)\1"""
)


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_a_scripts_words_go_through_gettext(path: Path) -> None:
    assert [m[1] for m in SET_TEXT.findall(path.read_text())] == []
