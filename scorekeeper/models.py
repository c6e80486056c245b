"""What the table reported, and little else.

A hand row keeps the input (cards, points, passes, claims) exactly as normalised by the
engine; totals, ranks, winners and ratings always come from the engine. The few derived
columns here (``Game.status``, ``Seat.place``…) exist only so league queries stay fast;
``manage.py rebuild_derived`` recomputes them from the stored hands.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games import RULESETS, Ruleset

RULESET_CHOICES = [(slug, r.name) for slug, r in RULESETS.items()]


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

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class League(models.Model):
    """A group that plays together week after week; its games make its history."""

    name = models.CharField(max_length=80)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_leagues"
    )
    members: models.ManyToManyField[Player, Membership] = models.ManyToManyField(
        Player, through="Membership", related_name="leagues"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="unique_membership")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.league}"


class GameStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "In progress"
    FINISHED = "finished", "Finished"


class Game(models.Model):
    """One score sheet: a ruleset, its set-up, and (through ``hands``) what was played."""

    ruleset = models.CharField(max_length=40, choices=RULESET_CHOICES)
    variant = models.CharField(max_length=40, blank=True, default="")
    #: The effective house-rule options, defaults filled in at creation.
    options = models.JSONField(default=dict, blank=True)
    #: Partner play: lists of player ids; null when everybody plays alone.
    teams = models.JSONField(null=True, blank=True)
    first_dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games"
    )
    #: Ended by hand (an open-ended game, or a table that stopped early): an input.
    closed = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    #: Bumped by every change; phones watching the sheet compare it to refresh.
    version = models.PositiveIntegerField(default=0)

    # Derived from the hands by the engine (rebuildable), for fast league queries.
    status = models.CharField(
        max_length=12, choices=GameStatus.choices, default=GameStatus.IN_PROGRESS
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    hand_count = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["league", "status", "-created_at"], name="game_league_status"),
            models.Index(fields=["owner", "status", "-created_at"], name="game_owner_status"),
        ]

    def __str__(self) -> str:
        return f"{self.get_ruleset_display()} #{self.pk}"

    @property
    def ruleset_obj(self) -> Ruleset:
        return RULESETS[self.ruleset]


class Seat(models.Model):
    """A player's seat at one game; ``position`` is the clockwise seating order."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField(null=True, blank=True)

    # Derived (rebuildable): the standings of the game as the engine computed them.
    score = models.IntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    won = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="unique_seat_position"),
            models.UniqueConstraint(fields=["game", "player"], name="unique_seat_player"),
        ]
        indexes = [models.Index(fields=["player", "game"], name="seat_player_game")]

    def __str__(self) -> str:
        return f"{self.player} at seat {self.position} of game {self.game_id}"


class Hand(models.Model):
    """One hand's input as the table reported it (normalised by the engine)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    input = models.JSONField()
    revision = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_hand_number")
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of game {self.game_id}"


class HandAction(models.TextChoices):
    RECORDED = "recorded", "Recorded"
    CORRECTED = "corrected", "Corrected"
    UNDONE = "undone", "Undone"


class HandRevision(models.Model):
    """Append-only history of every hand input: nothing is overwritten or lost.

    ``input`` is the hand's input after the action; for an undo, the input removed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hand_revisions")
    number = models.PositiveIntegerField()
    revision = models.PositiveIntegerField()
    action = models.CharField(max_length=12, choices=HandAction.choices)
    input = models.JSONField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "created_at", "id"]
        indexes = [models.Index(fields=["game", "number"], name="handrev_game_number")]

    def __str__(self) -> str:
        return f"{self.action} hand {self.number} of game {self.game_id}"


class IdempotencyRecord(models.Model):
    """The first response to a request made with an ``Idempotency-Key``: a retry of the
    same key on the same game gets it back and records nothing new."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    status_code = models.PositiveSmallIntegerField(default=201)
    response = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="unique_idempotency_key")
        ]

    def __str__(self) -> str:
        return f"{self.key} on game {self.game_id}"
