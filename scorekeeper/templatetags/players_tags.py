"""What the player and league pages say of merges: "Bob was merged into Robert on 23
Nov 2026". Tags, so the league views need not change."""

from __future__ import annotations

from typing import Any

from django import template

from scorekeeper.models import League, Membership, Player, PlayerMerge
from scorekeeper.selectors.player_colours import colour_of, marker_class

register = template.Library()

#: A league's page lists at most this many merges (the newest).
LEAGUE_MERGES = 10


@register.inclusion_tag("players/_merges.html")
def player_merges(player: Player) -> dict[str, Any]:
    """The merges into a player."""
    merges = list(PlayerMerge.objects.filter(into=player).order_by("-merged_at", "-id")[:20])
    for m in merges:
        m.into = player
    return {"merges": merges, "heading": False}


@register.inclusion_tag("players/_merges.html")
def league_merges(league: League) -> dict[str, Any]:
    """The merges into the league's members, newest first."""
    members = Membership.objects.filter(league=league).values("player_id")
    merges = list(
        PlayerMerge.objects.filter(into_id__in=members)
        .select_related("into")
        .order_by("-merged_at", "-id")[:LEAGUE_MERGES]
    )
    return {"merges": merges, "heading": True}


@register.filter
def player_marker(player: Player) -> str:
    """The player's colour class (``player-c3``): their chosen colour, or their own
    default (away from a table, nobody else's colour needs avoiding)."""
    return marker_class(colour_of(player)) if isinstance(player, Player) else ""
