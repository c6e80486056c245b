"""What the table reported, and little else.

A hand row keeps the input (cards, points, passes, claims) exactly as normalised by the
engine; totals, ranks, winners and ratings always come from the engine. The few derived
columns here (``Game.status``, ``Seat.place``…) exist only so league queries stay fast;
``manage.py rebuild_derived`` recomputes them from the stored hands.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone

from games import RULESETS, RuleError, Ruleset, get_ruleset


def validate_ruleset(value: str) -> None:
    """A game's ``ruleset`` must be a game of the engine's registry (``games.RULESETS``),
    as it is now: the field keeps no list of its own, so a new game needs no migration."""
    try:
        get_ruleset(value)
    except RuleError as exc:
        raise ValidationError(exc.message, code="unknown_ruleset") from None


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


class MemberRole(models.TextChoices):
    """What a member may do in a league (the owner is ``League.owner``, above them all;
    the table of rights is ``selectors.access`` and the README's "League roles")."""

    ADMIN = "admin", "Admin"
    RECORDER = "recorder", "Records games"
    VIEWER = "viewer", "Only looks"


class Membership(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField(default=timezone.now)
    #: Matters for a player with an account (the one signed in as them).
    role = models.CharField(
        max_length=10,
        choices=MemberRole.choices,
        default=MemberRole.RECORDER,
        db_default=MemberRole.RECORDER,
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="unique_membership")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.league}"


class Season(models.Model):
    """A named stretch of a league's games, from ``start`` to ``end`` (days in the
    site's time zone, both included; ``end`` is None while the season is current). A
    game belongs to the season its start falls in: the games carry no season of their
    own. Each season's ratings start level; the all-time ones run on. When the next
    season starts, this one closes and its final table is kept in ``final_table`` as it
    was then: ``{scope: [standing rows]}`` (``""`` is all games, else a game's slug)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    start = models.DateField()
    end = models.DateField(null=True, blank=True)
    final_table = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["start", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "start"], name="season_unique_start"),
            models.UniqueConstraint(
                fields=["league"], condition=models.Q(end__isnull=True), name="season_one_open"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} of {self.league_id}"


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
    IN_PROGRESS = "in_progress", "In progress"
    FINISHED = "finished", "Finished"


class Game(models.Model):
    """One score sheet: a ruleset, its set-up, and (through ``hands``) what was played."""

    #: The slug of a game of the engine's registry (checked by ``validate_ruleset``).
    ruleset = models.CharField(max_length=40, validators=[validate_ruleset])
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

    def get_ruleset_display(self) -> str:
        """The game's name, from the engine's registry (the slug for a game it no longer
        has)."""
        rules = RULESETS.get(self.ruleset)
        return rules.name if rules is not None else self.ruleset

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


class InviteRole(models.TextChoices):
    SCORE = "score", "Score"
    WATCH = "watch", "Watch"


class Invite(models.Model):
    """A link that lets a phone without an account into one game: to keep its score
    (``score``) or to follow it (``watch``). Revoking keeps the row (the hands its guests
    recorded still name them) and shuts the link and its guests out.

    The token itself is stored, not a hash of it, so the owner can show a live link's QR
    code again at the table; it gives access to one game only, and is revocable."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invites")
    role = models.CharField(max_length=8, choices=InviteRole.choices)
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.role} link to game {self.game_id}"


class Guest(models.Model):
    """Somebody who joined a game by a score link and gave a name (once, kept in their
    browser's session): the hands they record, correct or undo name them. Removing one
    guest (``removed_at``) shuts that phone out and keeps the row, as revoking a link
    does, while the link's other guests play on."""

    invite = models.ForeignKey(Invite, on_delete=models.CASCADE, related_name="guests")
    name = models.CharField(max_length=40)
    created_at = models.DateTimeField(default=timezone.now)
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["invite", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.name} (guest)"


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


# -- League statistics: derived from finished games, rebuildable --------------------------
#
# Nothing below is an input. ``scorekeeper.ratings`` keeps these rows in step with
# the games (inside the same transaction as every hand write) and
# ``manage.py rebuild_derived`` recreates them from the stored hands.

#: ``ruleset`` of the statistics over all of a league's games, whatever was played.
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
    ruleset = models.CharField(max_length=40, blank=True, default=ALL_GAMES)
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
    ruleset = models.CharField(max_length=40, blank=True, default=ALL_GAMES)
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
    ruleset = models.CharField(max_length=40, blank=True, default=ALL_GAMES)
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


def _invitation_code() -> str:
    return secrets.token_urlsafe(12)


def _invitation_expiry() -> datetime:
    return timezone.now() + SIGNUP_INVITATION_DAYS


#: How long a new sign-up invitation lasts unless its maker says otherwise.
SIGNUP_INVITATION_DAYS = timedelta(days=14)


class SignupInvitation(models.Model):
    """A code (or the sign-up link carrying it) that lets somebody create an account
    while ``settings.SIGNUP`` is ``invite``: made in the admin, or by any user when
    ``SIGNUP_INVITES_BY`` is ``users``. Good for ``max_uses`` accounts until
    ``expires_at``."""

    code = models.CharField(max_length=64, unique=True, default=_invitation_code)
    note = models.CharField(
        max_length=120, blank=True, default="", help_text="Who it is for (only you see it)."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="signup_invitations",
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(default=_invitation_expiry)
    max_uses = models.PositiveSmallIntegerField(
        default=1,
        validators=[MinValueValidator(1)],
        help_text="How many accounts may be created with it.",
    )
    uses = models.PositiveSmallIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.note or f"invitation {self.code[:4]}…"

    def usable(self) -> bool:
        return self.uses < self.max_uses and self.expires_at > timezone.now()


class WorkerHeartbeat(models.Model):
    """A background worker's latest sign of life: ``manage.py worker`` writes it every
    ``WORKER_HEARTBEAT_SECONDS`` and ``/healthz`` reads the newest (a worker that
    stopped, or never started, makes the instance unhealthy)."""

    worker_id = models.CharField(max_length=64, unique=True)
    beat_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.worker_id} at {self.beat_at:%Y-%m-%d %H:%M:%S}"


class RateCounter(models.Model):
    """Requests of one client address to one group of views in one window of time
    (``security.rate_limit``), counted with ``F()`` so that processes counting at once
    lose none. Counters of windows that ended are deleted as new windows start."""

    key = models.CharField(max_length=255, unique=True)
    count = models.PositiveIntegerField(default=0)
    expires = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"


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


class LeagueImportStatus(models.TextChoices):
    QUEUED = "queued", "Waiting to start"
    CHECKING = "checking", "Checking the file"
    IMPORTING = "importing", "Saving the league"
    DONE = "done", "Imported"
    FAILED = "failed", "Refused"


class LeagueImport(models.Model):
    """A league backup sent to the import page or the API, imported by the background
    worker (:mod:`scorekeeper.services.backup.uploads`): the file until the import is
    over, then what became of it — the new league, or the problem and its place in the
    file. ``games``/``games_checked`` say how far the check is."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_imports"
    )
    #: The file as sent; emptied (None) once the import is over.
    file = models.BinaryField(null=True)
    size = models.PositiveIntegerField()
    status = models.CharField(
        max_length=10, choices=LeagueImportStatus.choices, default=LeagueImportStatus.QUEUED
    )
    games = models.PositiveIntegerField(null=True)
    games_checked = models.PositiveIntegerField(default=0)
    league = models.ForeignKey(League, on_delete=models.SET_NULL, null=True, related_name="+")
    error = models.TextField(blank=True)
    #: Runs started: one cut short (its worker stopped) is run again, not for ever.
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True)

    def __str__(self) -> str:
        return f"import {self.pk} by {self.owner_id}: {self.status}"

    @property
    def over(self) -> bool:
        return self.status in (LeagueImportStatus.DONE, LeagueImportStatus.FAILED)
