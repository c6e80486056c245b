"""``manage.py rebuild_derived``: recompute everything derived from the stored hands.

Each game's status, hand count and seat results come from folding its hands through the
engine again; then every league's standings and rating history are recomputed from those
results. Safe to run at any time (each chunk of games, and each league, is one
transaction); run it after changing scoring code or restoring a database."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.models import Game, League
from scorekeeper.ratings.rebuild import rebuild_derived


class Command(BaseCommand):
    help = (
        "Recompute every game's derived columns (status, hand count, seat scores, places, "
        "wins) from its stored hands, then every league's standings and ratings."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--league", type=int, action="append", dest="leagues", metavar="ID",
            help="Only this league (its games and statistics); repeat for more.",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        league_ids: list[int] | None = options.get("leagues")
        verbose = int(options.get("verbosity", 1)) >= 2
        games = None
        if league_ids:
            known = set(League.objects.filter(pk__in=league_ids).values_list("id", flat=True))
            unknown = sorted(set(league_ids) - known)
            if unknown:
                self.stderr.write(f"No league with id {', '.join(map(str, unknown))}.")
                league_ids = [i for i in league_ids if i in known]
            games = list(Game.objects.filter(league_id__in=league_ids).values_list("id", flat=True))
        report = rebuild_derived(
            games=games, leagues=league_ids,
            progress=(lambda message: self.stdout.write(message)) if verbose else None,
        )  # fmt: skip
        self.stdout.write(
            f"Games: {report.games} games checked, {report.games_changed} changed, "
            f"{len(report.errors)} could not be replayed."
        )
        for game_id, error in report.errors:
            self.stderr.write(f"  game {game_id}: {error} (left as it was)")
        names = dict(
            League.objects.filter(pk__in=[r.league_id for r in report.leagues]).values_list(
                "id", "name"
            )
        )
        for rebuilt in report.leagues:
            self.stdout.write(
                f"League {rebuilt.league_id} ({names.get(rebuilt.league_id, '?')}): "
                f"{rebuilt.games} finished games rated in {rebuilt.scopes} standings "
                f"(all games and each game played), {rebuilt.players} players."
            )
        self.stdout.write(self.style.SUCCESS("Derived data rebuilt."))
