"""The translation catalogs: complete, careful and up to date.

Every language in ``LANGUAGES`` but English has a catalog for the pages and one for the
scripts; each entry is translated (no empty string, no fuzzy entry), keeps the msgid's
placeholders, and the compiled files (the ``.mo`` Django reads, the static script
catalog the pages load) say what the ``.po`` says. ``make messages`` then ``make
compilemessages`` keep them so.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

LOCALE = Path(settings.BASE_DIR) / "locale"
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
DOMAINS = ["django", "djangojs"]
#: The folders whose files hold the words (``make messages`` reads the project, less
#: ``tests/``, ``bench/``, ``staticfiles/`` and the vendored scripts).
CODE = ("games", "scorekeeper", "templates", "static")
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}")


def catalog(language: str, domain: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / f"{domain}.po"))


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text.replace("%%", "")))


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_entry_is_translated_and_none_is_fuzzy(language: str, domain: str) -> None:
    po = catalog(language, domain)
    assert len(po) > 0
    assert not [e.msgid for e in po.fuzzy_entries()]
    untranslated = [e.msgid for e in po if not e.obsolete and not e.translated()]
    assert not untranslated


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_translations_keep_the_placeholders(language: str, domain: str) -> None:
    wrong = []
    for entry in catalog(language, domain):
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            wanted = set(placeholders(entry.msgid_plural)) | set(placeholders(entry.msgid))
            for said in entry.msgstr_plural.values():
                # A singular may say "one" instead of its count, never a new placeholder.
                if not set(placeholders(said)) <= wanted:
                    wrong.append((entry.msgid, said))
        elif set(placeholders(entry.msgid)) != set(placeholders(entry.msgstr)):
            wrong.append((entry.msgid, entry.msgstr))
    assert not wrong


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalog_says_what_the_po_says(language: str, domain: str) -> None:
    po = catalog(language, domain)
    mo = polib.mofile(str(LOCALE / language / "LC_MESSAGES" / f"{domain}.mo"))

    def said(entries: polib._BaseFile) -> dict[tuple[str | None, str], object]:
        return {
            (e.msgctxt, e.msgid): (e.msgstr_plural and dict(e.msgstr_plural)) or e.msgstr
            for e in entries
            if not e.obsolete and e.msgid
        }

    assert said(mo) == said(po), "run `make compilemessages`"


def test_the_scripts_static_catalogs_are_up_to_date(tmp_path: Path) -> None:
    with override_settings(STATICI18N_ROOT=tmp_path):
        call_command("compilejsi18n", verbosity=0)
    for code, _name in settings.LANGUAGES:
        made = (tmp_path / "jsi18n" / code / "djangojs.js").read_text()
        kept = Path(settings.BASE_DIR, "static", "jsi18n", code, "djangojs.js").read_text()
        assert made == kept, "run `make compilemessages`"


@pytest.mark.skipif(not shutil.which("xgettext"), reason="makemessages needs GNU gettext")
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_catalogs_hold_every_string_the_code_marks(
    tmp_path: Path, domain: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``make messages`` would extract now is what the catalogs hold: a string marked
    in the code but missing from the catalogs (or one kept after the code dropped it)
    fails here. It runs in a copy of the catalogs, beside links to the code: run in the
    project, ``makemessages`` writes the catalogs of the folder whose files it reads
    (the project's own ``locale/``), whatever ``LOCALE_PATHS`` says."""
    base = Path(settings.BASE_DIR)
    work = tmp_path / "project"
    work.mkdir()
    for folder in CODE:
        (work / folder).symlink_to(base / folder)
    shutil.copytree(LOCALE, work / "locale")
    monkeypatch.chdir(work)
    ignore = ["static/vendor/*", "static/jsi18n/*"]
    with override_settings(LOCALE_PATHS=[work / "locale"]):
        call_command(
            "makemessages",
            locale=TRANSLATED,
            domain=domain,
            extensions=["html", "txt", "py", "webmanifest"] if domain == "django" else ["js"],
            ignore_patterns=ignore,
            no_obsolete=True,
            symlinks=True,
            verbosity=0,
        )
    for language in TRANSLATED:
        fresh = polib.pofile(str(work / "locale" / language / "LC_MESSAGES" / f"{domain}.po"))
        kept = catalog(language, domain)
        assert {(e.msgctxt, e.msgid) for e in fresh} == {(e.msgctxt, e.msgid) for e in kept}, (
            "run `make messages`, translate, `make compilemessages`"
        )
