"""What a web worker would otherwise make on its first requests, made once in gunicorn's
master before it forks the workers (``preload_app``; ``gunicorn.conf.py``'s
``when_ready``): the URLs resolved (which imports every view), every template of the
project compiled (Django's cached loader keeps them; compiling the first one loads
every template tag library) and each language's translations read. A fresh worker —
the first ones, and each one ``max_requests`` starts anew — otherwise spent some 0.9
CPU-s on its first sheet (2026-11-29, in-process; 0.05 s after this), and held the same
objects as private pages: made in the master, the workers share them (``gc.freeze()``
in ``pre_fork`` keeps the collector off them). Nothing here touches the database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.template.loader import get_template
from django.urls import get_resolver, reverse
from django.utils import translation


def project_templates() -> list[str]:
    """The names of the project's own templates (``TEMPLATES``' ``DIRS``)."""
    names: list[str] = []
    engines: list[dict[str, Any]] = settings.TEMPLATES
    for engine in engines:
        for folder in engine.get("DIRS", []):
            root = Path(folder)
            names += sorted(
                str(path.relative_to(root))
                for path in root.rglob("*")
                if path.is_file() and path.suffix in (".html", ".txt", ".js", ".webmanifest")
            )
    return names


def warm() -> int:
    """Resolve the URLs, compile the templates and read the translations; the number of
    templates compiled."""
    get_resolver().url_patterns  # noqa: B018 (imports the URL configuration and views)
    reverse("home")  # (fills the resolver's reverse map)
    names = project_templates()
    for name in names:
        get_template(name)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Save")
    return len(names)
