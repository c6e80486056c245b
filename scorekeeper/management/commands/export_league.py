"""``manage.py export_league ID [--format json|csv] [-o FILE]``: a league's backup (JSON,
everything) or its results (CSV, one row per player per game), to a file or stdout.

With ``-o`` the file appears only once the export is complete (it is written beside it
under a temporary name, then renamed): an export that fails leaves no partial file and
exits with an error. On stdout a failure exits with an error too, after what was
written; a JSON export cut short is never valid JSON."""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.models import League
from scorekeeper.services.backup import export_pieces, write_export


class Command(BaseCommand):
    help = "Export a league as JSON (a complete backup) or CSV (one row per player per game)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("league", type=int, help="The league's id.")
        parser.add_argument(
            "--format",
            choices=["json", "csv"],
            default="json",
            help="json (default): everything, for import_league; csv: results.",
        )
        parser.add_argument(
            "-o", "--output", metavar="FILE", help="Write here instead of to stdout."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        league = League.objects.select_related("owner").filter(pk=options["league"]).first()
        if league is None:
            raise CommandError(f"There is no league {options['league']}.")
        path = options["output"]
        if path:
            self._to_file(league, options["format"], path)
            self.stderr.write(f"Wrote league {league.pk} ({league.name}) to {path}.")
            return
        try:
            for piece in export_pieces(league, options["format"]):
                self.stdout.write(piece, ending="")
        except BrokenPipeError:
            # Piped into `head` and the like: the reader has seen enough.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except Exception as exc:
            raise CommandError(f"The export failed part way and is incomplete: {exc}") from exc

    @staticmethod
    def _to_file(league: League, chosen: str, path: str) -> None:
        folder = os.path.dirname(os.path.abspath(path))
        try:
            fd, partial = tempfile.mkstemp(prefix=".export-", suffix=".part", dir=folder)
        except OSError as exc:
            raise CommandError(f"Cannot write {path}: {exc.strerror}.") from None
        try:
            with os.fdopen(fd, "wb") as handle:
                write_export(league, chosen, handle)
            os.replace(partial, path)
        except Exception as exc:
            raise CommandError(
                f"The export failed part way; {path} was not written: {exc}"
            ) from exc
        finally:
            if os.path.exists(partial):
                os.remove(partial)
