"""Sharing a game or a night with the table: join links and the guests who came by them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from scorekeeper.models.games import Game, Night


class InviteRole(models.TextChoices):
    SCORE = "score", pgettext_lazy("link role", "Score")
    WATCH = "watch", pgettext_lazy("link role", "Watch")


class Invite(models.Model):
    """A link that lets a phone without an account into one game, or into every game of
    one night (exactly one of ``game`` and ``night``): to keep its score (``score``) or to
    follow it (``watch``). Revoking keeps the row (the hands its guests recorded still
    name them) and shuts the link and its guests out.

    The token itself is stored, not a hash of it, so the owner can show a live link's QR
    code again at the table; it gives access to its game or night only, and is
    revocable."""

    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="invites"
    )
    night = models.ForeignKey(
        Night, null=True, blank=True, on_delete=models.CASCADE, related_name="invites"
    )
    role = models.CharField(max_length=8, choices=InviteRole.choices)
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(game__isnull=False, night__isnull=True)
                | Q(game__isnull=True, night__isnull=False),
                name="invite_one_game_or_one_night",
            )
        ]

    def __str__(self) -> str:
        if self.night_id is not None:
            return f"{self.role} link to night {self.night_id}"
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
