"""League statistics: derived from finished games, rebuildable."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from scorekeeper.models.games import SCOPE_LENGTH, Game
from scorekeeper.models.leagues import League
from scorekeeper.models.players import Player

# -- League statistics: derived from finished games, rebuildable --------------------------
#
# Nothing below is an input. ``scorekeeper.ratings`` keeps these rows in step with
# the games (inside the same transaction as every hand write) and
# ``manage.py rebuild_derived`` recreates them from the stored hands.

#: ``ruleset`` of the statistics over all of a league's games, whatever was played. The
#: other scopes are a game's ``league_scope``: its slug, or ``<slug>/<title>``.
ALL_GAMES = ""


class PlayerStanding(models.Model):
    """A player's line in a league's standings: for one game (``ruleset``) or over all
    games (``ruleset == ""``). ``rating`` is the conservative skill estimate
    ``mu - 3 * sigma`` of an openskill Plackett–Luce rating after the player's games in
    that scope, in the order the games were started."""

    # Foreign keys without their own index: the composite indexes below start with them.
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="standings", db_index=False
    )
    ruleset = models.CharField(max_length=SCOPE_LENGTH, blank=True, default=ALL_GAMES)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="standings", db_index=False
    )
    games = models.PositiveIntegerField(default=0)
    #: Finished games the player won, a shared first place (or a winning team) included.
    wins = models.PositiveIntegerField(default=0)
    #: Sum of finishing places (1 = first); the average place is ``place_sum / games``.
    place_sum = models.PositiveIntegerField(default=0)
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        # Column names, not relations: ordering by a relation would join its table.
        ordering = ["league_id", "ruleset", "-rating", "player_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "ruleset", "player"], name="unique_player_standing"
            )
        ]
        indexes = [
            models.Index(fields=["league", "ruleset", "-rating"], name="standing_order"),
            models.Index(fields=["player", "league"], name="standing_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in league {self.league_id} ({self.ruleset or 'all games'})"


class RatingPoint(models.Model):
    """A player's rating right after one finished league game, in one scope (a ruleset,
    or ``""`` for all games): the points of a rating-over-time chart, and where a
    correction of an older game starts replaying the league's ratings from.

    ``prior_mu``/``prior_sigma`` and the running counts let a replay start at any game
    without reading the history before it. ``game`` becomes NULL when the game is
    deleted (``played_at`` keeps its place in the order, so the replay knows where to
    start); the ratings replay then removes the point."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+", db_index=False)
    ruleset = models.CharField(max_length=SCOPE_LENGTH, blank=True, default=ALL_GAMES)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_points", db_index=False
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="rating_points"
    )
    #: The game's ``created_at``: ratings are applied in (created_at, game id) order.
    played_at = models.DateTimeField()
    #: The game's ruleset (the same as ``ruleset`` except in the all-games scope), so a
    #: rating history needs no join.
    game_ruleset = models.CharField(max_length=40)
    place = models.PositiveSmallIntegerField()
    won = models.BooleanField(default=False)
    prior_mu = models.FloatField()
    prior_sigma = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()
    #: Running totals in this scope, this game included.
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    place_sum = models.PositiveIntegerField()

    class Meta:
        ordering = ["league_id", "ruleset", "played_at", "game_id", "player_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "ruleset", "game", "player"], name="unique_rating_point"
            )
        ]
        indexes = [
            models.Index(
                fields=["league", "ruleset", "played_at", "game"], name="ratingpoint_replay"
            ),
            models.Index(
                fields=["player", "league", "ruleset", "played_at", "game"],
                name="ratingpoint_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after game {self.game_id} ({self.ruleset or 'all games'})"


class RatingBacklog(models.Model):
    """A league's ratings in one scope that still need replaying from a game onward.

    A correction, undo or deletion of an older league game does not replay the later
    games on the request: it leaves (or moves earlier) this mark, and a background task
    replays from it in short chunks, moving it forward as it goes. Every rating point
    before the mark is right; the standings of a league with a mark say they are
    updating. ``since_game_id`` is 0 for a mark left by a deleted game."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    ruleset = models.CharField(max_length=SCOPE_LENGTH, blank=True, default=ALL_GAMES)
    since_created_at = models.DateTimeField()
    since_game_id = models.BigIntegerField()
    queued_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "ruleset"], name="unique_rating_backlog")
        ]

    def __str__(self) -> str:
        return (
            f"league {self.league_id} ({self.ruleset or 'all games'}) from {self.since_created_at}"
        )


class LeagueGameCount(models.Model):
    """How many games (in progress or finished) a league has of one ruleset.

    Kept by database triggers on the game table (migration 0010), whatever writes the
    games (the services, an import, a bulk load, the admin), so it is always the count a
    ``COUNT(*)`` would give. The league's history reads it to page from whichever end is
    nearer: the last page of 100,000 games skips a few games, not all of them. Never
    written by the application."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+", db_index=False)
    ruleset = models.CharField(max_length=40)
    games = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "ruleset"], name="unique_league_game_count")
        ]

    def __str__(self) -> str:
        return f"league {self.league_id}: {self.games} {self.ruleset} games"
