"""``{% live_events_url game can_manage guest %}``: the sheet's event stream, with a
fresh capability (empty when no events server is configured: the phone polls)."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

from scorekeeper.live import capability

register = template.Library()


@register.simple_tag
def live_events_url(game: Any, can_manage: bool = False, guest: Any = None) -> str:
    base = settings.LIVE_EVENTS_URL
    if not base or game is None or not getattr(game, "pk", None):
        return ""
    kind = "manage" if can_manage else ("score" if getattr(guest, "can_change", False) else "watch")
    # A guest's stream names their link, so that revoking it ends the stream.
    invite = None if can_manage else getattr(getattr(guest, "invite", None), "pk", None)
    return base + capability.issue(game.pk, kind, invite)
