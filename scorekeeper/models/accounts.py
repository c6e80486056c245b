"""Accounts: invitations to sign up."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone


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
