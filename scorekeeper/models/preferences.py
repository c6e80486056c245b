"""What an account chose for itself: for now its language, applied on every device it
signs in on (each device keeps its own choice in the language cookie until then)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AccountLanguage(models.Model):
    """The language an account last chose with the language switch."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_choice"
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
