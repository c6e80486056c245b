"""The examples in the README and the engine's docstrings run as doctests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import games

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(name for _, name, _ in pkgutil.walk_packages(games.__path__, prefix="games."))


@pytest.mark.parametrize("name", MODULES)
def test_engine_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_readme_examples() -> None:
    result = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.failed == 0
    assert result.attempted > 0
