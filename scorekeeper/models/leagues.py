"""Leagues: their members and roles, and their seasons."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.models.players import Player


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

    ADMIN = "admin", _("Admin")
    RECORDER = "recorder", _("Records games")
    VIEWER = "viewer", _("Only looks")


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
