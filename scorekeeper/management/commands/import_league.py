"""``manage.py import_league FILE --owner USERNAME``: restore a league from its JSON
backup as a new league owned by USERNAME.

Run by the server's administrator, the import is trusted: usernames in the file are
linked to the accounts of that name, and accounts that do not exist yet are created
without a usable password (``--no-create-users`` leaves them out instead).

``manage.py import_league --upload ID`` runs instead the import of a file sent to the
import page or the API, as its sender may (what the background worker runs, in a
process of its own: :mod:`scorekeeper.services.backup.uploads`)."""

from __future__ import annotations

import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import RuleError
from scorekeeper.services.backup import league_import, league_import_run, load_backup


class Command(BaseCommand):
    help = "Import a league from a JSON backup (export_league) as a new league."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="The JSON backup; '-' reads stdin.")
        parser.add_argument("--owner", metavar="USERNAME", help="Who owns the new league.")
        parser.add_argument(
            "--no-create-users",
            action="store_true",
            help="Do not create accounts named in the file that do not exist here; "
            "their references are dropped (games they owned go to --owner).",
        )
        parser.add_argument(
            "--upload",
            type=int,
            metavar="ID",
            help="Instead of a file: run the queued import ID, sent to the import page or "
            "the API (what the background worker does).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["upload"] is not None:
            made = league_import_run(options["upload"])
            outcome = f"league {made}" if made else "not imported (the import's page says why)"
            self.stdout.write(f"Import {options['upload']}: {outcome}.")
            return
        if options["file"] is None or options["owner"] is None:
            raise CommandError("Give the backup file and --owner (or --upload ID).")
        user_model = get_user_model()
        owner = user_model._default_manager.filter(
            **{user_model.USERNAME_FIELD: options["owner"]}
        ).first()
        if owner is None:
            raise CommandError(
                f"There is no user {options['owner']!r} (create one with createsuperuser)."
            )
        data = self._read(options["file"])
        try:
            result = league_import(
                data, owner=owner, trusted=True, create_users=not options["no_create_users"]
            )
        except RuleError as exc:
            raise CommandError(f"Nothing was imported: {exc.message}") from None
        league = result.league
        self.stdout.write(
            f"Imported league {league.pk} ({league.name}): {result.games} games, "
            f"{result.hands} hands, {result.players_created} new players"
            + (f", {result.players_reused} existing" if result.players_reused else "")
            + "."
        )
        if result.users_created:
            names = ", ".join(result.users_created)
            self.stdout.write(
                f"Created accounts without a password: {names} "
                "(set one with manage.py changepassword USERNAME)."
            )

    def _read(self, path: str) -> object:
        try:
            if path == "-":
                raw = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as handle:
                    raw = handle.read()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}.") from None
        try:
            return load_backup(raw)
        except RuleError as exc:
            raise CommandError(f"{path}: {exc.message}") from None
