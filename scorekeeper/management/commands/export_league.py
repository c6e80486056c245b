"""``manage.py export_league ID [--format json|csv] [-o FILE]``: a league's backup (JSON,
everything) or its results (CSV, one row per player per game), to a file or stdout."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.models import League
from scorekeeper.services.backup import league_export_csv, league_export_json_text


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
            try:
                with open(path, "w", encoding="utf-8", newline="") as handle:
                    self._export(league, options["format"], handle.write)
            except OSError as exc:
                raise CommandError(f"Cannot write {path}: {exc.strerror}.") from None
            self.stderr.write(f"Wrote league {league.pk} ({league.name}) to {path}.")
        else:
            try:
                self._export(
                    league, options["format"], lambda text: self.stdout.write(text, ending="")
                )
            except BrokenPipeError:
                # Piped into `head` and the like: the reader has seen enough.
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())

    @staticmethod
    def _export(league: League, chosen: str, write: Callable[[str], object]) -> None:
        if chosen == "csv":
            for line in league_export_csv(league):
                write(line)
        else:
            for piece in league_export_json_text(league):
                write(piece)
