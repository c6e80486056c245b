"""League imports as their owner sees them (the background worker imports them:
:mod:`scorekeeper.services.backup.uploads`)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from scorekeeper.models import LeagueImport


def league_imports_of(user: AbstractBaseUser | AnonymousUser) -> QuerySet[LeagueImport]:
    """The imports ``user`` sent, without their files: nobody sees another's."""
    if not user.is_authenticated:
        return LeagueImport.objects.none()
    return LeagueImport.objects.filter(owner_id=user.pk).defer("file").select_related("league")
