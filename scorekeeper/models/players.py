"""Players: the people at the table, and the merging of two records of one person."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Player(models.Model):
    """Somebody at the table. Not necessarily a user: most players never sign in."""

    name = models.CharField(max_length=60)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        help_text="The account of this player, if they have one.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    #: The player's marker colour: a slot of the palette (1 to ``PLAYER_COLOURS``) in
    #: static/css/players.css, or null for one picked from the id (and, at a table, to
    #: differ from the others'). See ``scorekeeper.services.player_admin``.
    colour = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Left out of the pickers and searches (a test name, someone who moved away); past
    #: games and standings still show them.
    hidden = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


#: How many colours the players' palette has (``player-c1`` … in players.css).
PLAYER_COLOURS = 10


class PlayerMerge(models.Model):
    """One player merged into another: the games, seats, hands, league memberships and
    statistics of ``from_name`` (whose row is gone) now belong to ``into``. Kept so the
    player's page and the league say so, and an old link to the player finds the new."""

    from_player_id = models.BigIntegerField(db_index=True)
    from_name = models.CharField(max_length=60)
    into = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="merges_in")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    merged_at = models.DateTimeField(default=timezone.now)
    #: Games moved over, for the record.
    games = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-merged_at", "-id"]

    def __str__(self) -> str:
        return f"{self.from_name} merged into {self.into_id}"
