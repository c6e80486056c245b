"""Static files as production serves them: collectstatic with WhiteNoise's compressed
manifest storage (hashed names, .gz and .br beside each file; the ES modules' imports
rewritten to the hashed names too), DEBUG off, no finders.

Regression: /sw.js answered 500 ("Missing staticfiles manifest entry for ''") whenever
the manifest storage was on, so the service worker never installed in production."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client, override_settings

from scorekeeper.web.rules import SHEET_MODULES

PRODUCTION_STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "scorekeeper.staticfiles.CompressedManifestModulesStorage"},
}
#: Big third-party files no page tested here uses (they only make collectstatic slow).
NOT_NEEDED = ["admin/*", "rest_framework/*", "drf_spectacular_sidecar/*"]
HASHED = re.compile(r"/static/[\w/.-]+\.[0-9a-f]{12}\.\w+")
IMPORT = re.compile(r"""^(?:import|export)\b[^;]*?\bfrom "([^"]+)";$""", re.M)


@pytest.fixture(scope="module")
def static_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("staticfiles")
    with override_settings(STATIC_ROOT=root, STORAGES=PRODUCTION_STORAGES):
        call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=NOT_NEEDED)
    return root


@pytest.fixture
def production(static_root: Path, settings: Any) -> Client:
    settings.DEBUG = False
    settings.STATIC_ROOT = static_root
    settings.STORAGES = PRODUCTION_STORAGES
    settings.WHITENOISE_USE_FINDERS = False
    settings.WHITENOISE_AUTOREFRESH = False
    return Client()  # a new client loads the middleware (WhiteNoise) with these settings


@pytest.mark.django_db
def test_service_worker_installs_with_manifest_storage(production: Client) -> None:
    response = production.get("/sw.js")
    assert response.status_code == 200, response.content[:300]
    body = response.content.decode()
    assert 'var STATIC_PREFIX = "/static/";' in body
    precache = json.loads(re.search(r"var PRECACHE = (\[.*?\]);", body).group(1))  # type: ignore[union-attr]
    static = [url for url in precache if url.startswith("/static/")]
    assert static
    assert all(HASHED.fullmatch(url) for url in static), static
    for url in precache:
        assert production.get(url).status_code == 200, url


@pytest.mark.django_db
def test_pages_name_hashed_files_that_are_served(production: Client) -> None:
    html = production.get("/rules/").content.decode()
    urls = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    icons = [icon["src"] for icon in production.get("/manifest.webmanifest").json()["icons"]]
    assert any("icons/" in url for url in urls)
    for url in urls + icons:
        assert HASHED.fullmatch(url), url
        response = production.get(url)
        assert response.status_code == 200, url
        assert "immutable" in response["Cache-Control"]


@pytest.mark.django_db
def test_static_files_come_brotli_or_gzip_compressed(production: Client, static_root: Path) -> None:
    css = next(static_root.glob("css/app.*.css"))
    assert css.with_name(css.name + ".br").exists()
    assert css.with_name(css.name + ".gz").exists()
    url = f"/static/css/{css.name}"

    brotli = production.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert brotli["Content-Encoding"] == "br"
    assert int(brotli["Content-Length"]) < css.stat().st_size / 2
    assert "Accept-Encoding" in brotli["Vary"]
    gzipped = production.get(url, headers={"Accept-Encoding": "gzip"})
    assert gzipped["Content-Encoding"] == "gzip"
    plain = production.get(url)
    assert not plain.has_header("Content-Encoding")
    assert int(plain["Content-Length"]) == css.stat().st_size


def served(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    assert "immutable" in response["Cache-Control"], url
    return b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_modules_import_the_hashed_files(production: Client) -> None:
    """A module kept for ever (its name is its content's hash) must import files named
    the same way: an import of ``./offline-queue.js`` would load whatever that name
    holds today, and a module that changed would not reach the phones."""
    imports = []
    for name in SHEET_MODULES:
        url = static(name)
        assert HASHED.fullmatch(url), url
        for target in IMPORT.findall(served(production, url)):
            imports.append(target)
            assert re.fullmatch(r"\./[\w-]+\.[0-9a-f]{12}\.js", target), (name, target)
            served(production, url.rsplit("/", 1)[0] + target.removeprefix("."))
    assert len(imports) >= 7  # offline-sheet.js alone imports five
