"""Games: the nights that hold them, the score sheets, their seats, their hands with every
revision, a write's first answer kept for its retries, and the table tools' state."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import RULESETS, RuleError, Ruleset, get_ruleset
from scorekeeper.models.leagues import League
from scorekeeper.models.players import Player

#: The longest statistics scope: a slug, "/" and a game's title (``Ruleset.league_scope``).
SCOPE_LENGTH = 110


def validate_ruleset(value: str) -> None:
    """A game's ``ruleset`` must be a game of the engine's registry (``games.RULESETS``),
    as it is now: the field keeps no list of its own, so a new game needs no migration."""
    try:
        get_ruleset(value)
    except RuleError as exc:
        raise ValidationError(exc.message, code="unknown_ruleset") from None


class Night(models.Model):
    """A game night: the games one table plays in an evening, with its own standings."""

    name = models.CharField(max_length=80)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="nights"
    )
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.PROTECT, related_name="nights"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class GameStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", _("In progress")
    FINISHED = "finished", _("Finished")


class Game(models.Model):
    """One score sheet: a ruleset, its set-up, and (through ``hands``) what was played."""

    #: The slug of a game of the engine's registry (checked by ``validate_ruleset``).
    ruleset = models.CharField(max_length=40, validators=[validate_ruleset])
    variant = models.CharField(max_length=40, blank=True, default="")
    #: The effective house-rule options, defaults filled in at creation.
    options = models.JSONField(default=dict, blank=True)
    #: Where a league ranks the game (``Ruleset.league_scope``): its ruleset's slug, or
    #: ``<slug>/<title>`` for a game the table named. Set when the game is created.
    league_scope = models.CharField(max_length=SCOPE_LENGTH, default="", db_default="", blank=True)
    #: Partner play: lists of player ids; null when everybody plays alone.
    teams = models.JSONField(null=True, blank=True)
    first_dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games"
    )
    #: The game night it belongs to (its newest game is the night's current game).
    night = models.ForeignKey(
        Night, null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    #: Ended by hand (an open-ended game, or a table that stopped early): an input.
    closed = models.BooleanField(default=False)
    #: The highest hand number ever undone (0: none). A hand numbered above it is new,
    #: with no history to continue: recording it reads no earlier revision.
    undone_upto = models.PositiveIntegerField(default=0, db_default=0)
    #: The numbers of the hands corrected since they were first saved, in order: the
    #: sheet marks their rows (saved with every write, ``services.locked_game``).
    corrected_hands = models.JSONField(default=list, db_default=[], blank=True)
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
    #: The last hand's outcome as the engine continues from it (``HandOutcome.to_json``),
    #: saved with every write: recording the next hand reads no hand row. Null when the
    #: game has no hand, or its last hand's outcome was never computed (an imported game:
    #: the hand is read then).
    last_hand = models.JSONField(null=True, blank=True, default=None)
    #: The new-game form's one-time token: the same form sent twice (Back, then "Start
    #: the game" again) opens the game it started instead of a second one.
    start_token = models.CharField(max_length=64, blank=True, default="", db_default="")
    #: The public result page's token (``/r/<token>/``, no sign-in): set while the owner
    #: publishes the result, null otherwise (``services.results``).
    public_token = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "start_token"],
                condition=~models.Q(start_token=""),
                name="unique_game_start_token",
            )
        ]
        indexes = [
            models.Index(fields=["league", "status", "-created_at"], name="game_league_status"),
            models.Index(fields=["owner", "status", "-created_at"], name="game_owner_status"),
            # A league's history, newest first, whole or for one game.
            models.Index(fields=["league", "-created_at", "-id"], name="game_league_created"),
            models.Index(
                fields=["league", "ruleset", "status", "-created_at", "-id"],
                name="game_league_ruleset",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_ruleset_display()} #{self.pk}"

    @property
    def scope(self) -> str:
        """Where a league ranks the game (``league_scope``; its slug when a row was made
        without one)."""
        return self.league_scope or self.ruleset

    def get_ruleset_display(self) -> str:
        """The game's name, from the engine's registry (the slug for a game it no longer
        has), or the name the table gave it (``Ruleset.game_title``)."""
        rules = RULESETS.get(self.ruleset)
        return rules.game_title(self.options or {}) if rules is not None else self.ruleset

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
    #: What the engine made of this hand: the API's hand object without input and
    #: revision, plus the fold's running state ("carry"), so no request replays the
    #: game; empty until computed. ``rebuild_derived`` recomputes it.
    derived = models.JSONField(default=dict, blank=True)
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
    RECORDED = "recorded", pgettext_lazy("hand history", "Recorded")
    CORRECTED = "corrected", pgettext_lazy("hand history", "Corrected")
    UNDONE = "undone", pgettext_lazy("hand history", "Undone")


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
    #: Who did it when it was not an account: a guest who joined by a score link.
    guest = models.ForeignKey(
        "Guest", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "created_at", "id"]
        indexes = [models.Index(fields=["game", "number"], name="handrev_game_number")]

    def __str__(self) -> str:
        return f"{self.action} hand {self.number} of game {self.game_id}"


class IdempotencyRecord(models.Model):
    """The first response to a request made with an ``Idempotency-Key``: a retry of the
    same key with the same body on the same game gets it back and records nothing new."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    #: SHA-256 of the request body (canonical JSON): a retry must send the same body.
    #: Empty for records older than the check (they replay whatever the body).
    body_hash = models.CharField(max_length=64, blank=True, default="")
    status_code = models.PositiveSmallIntegerField(default=201)
    response = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="unique_idempotency_key")
        ]

    def __str__(self) -> str:
        return f"{self.key} on game {self.game_id}"


class TableState(models.Model):
    """What a table's tools share across its phones (not a hand: the game's version
    stays): the negotiation timer as (duration, started at, remaining when paused), so
    every phone counts down from the server's clock; and, for the hand in play
    (``hand``), the draw penalty, the direction of play and who leads."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True)
    #: One more at every change: the events server tells the phones of it.
    revision = models.PositiveIntegerField(default=0)
    timer_seconds = models.PositiveIntegerField(default=0)
    timer_started_at = models.DateTimeField(null=True, blank=True)
    timer_paused_remaining = models.FloatField(null=True, blank=True)
    hand = models.PositiveIntegerField(default=0)
    penalty = models.PositiveIntegerField(default=0)
    clockwise = models.BooleanField(default=True)
    leader_id = models.PositiveIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"table of game {self.game_id} (revision {self.revision})"
