"""gunicorn's master makes once what each web worker would make on its first requests
(``scorekeeper.warm``, called by ``gunicorn.conf.py``'s ``when_ready`` with
``preload_app``): every template of the project compiles, and nothing touches the
database (a connection opened there would be shared by every forked worker)."""

from __future__ import annotations

import runpy
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from scorekeeper import warm

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_every_template_compiles_without_a_query(django_assert_num_queries: Any) -> None:
    names = warm.project_templates()
    assert "games/sheet.html" in names
    assert "games/_live_parts.html" in names
    assert "rules/sw.js" in names
    with django_assert_num_queries(0):
        assert warm.warm() == len(names)


@pytest.mark.parametrize("preload", [True, False])
def test_the_master_warms_only_when_it_loads_the_app(
    monkeypatch: pytest.MonkeyPatch, preload: bool
) -> None:
    called: list[bool] = []
    monkeypatch.setattr(warm, "warm", lambda: called.append(True) or 0)
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert config["preload_app"] is True
    config["when_ready"](SimpleNamespace(cfg=SimpleNamespace(preload_app=preload)))
    assert called == ([True] if preload else [])
