"""``{% live_events_url access %}``: the sheet's event stream, with a fresh capability for
the viewer's access (empty when no events server is configured: the phone polls)."""

from __future__ import annotations

from django import template
from django.conf import settings

from scorekeeper.live import capability
from scorekeeper.selectors.access import GameAccess

register = template.Library()


@register.simple_tag
def live_events_url(access: GameAccess | None) -> str:
    base = settings.LIVE_EVENTS_URL
    if not base or access is None:
        return ""
    kind = access.live_kind
    # A guest's stream names their link, so that revoking it ends the stream.
    manages = kind in ("owner", "manage")
    invite = access.invite.pk if not manages and access.invite is not None else None
    return base + capability.issue(access.game.pk, kind, invite)
