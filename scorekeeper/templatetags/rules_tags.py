"""Rules on the score sheet: the Rules button with its overlay, and the one-line hint for
the hand in play.

Usage (in the sheet template)::

    {% load rules_tags %}
    {% rules_button "dirt" %}                    {# a Rules button + its <dialog> #}
    {% rules_button game.ruleset label="Rules" %}
    {% rules_hint state names %}                  {# state: games.GameState #}
    {% rules_hint_for "damn-you" state.next_hand names %}
    {{ section|anchored_html:"rp-" }}              {# a section, ids on its paragraphs #}

``names`` maps player ids to names: a dict ``{id: name}``, or an iterable of objects or
dicts with ``id``/``pk`` and ``name``. The hint is plain text (escaped as usual); it is
empty once the game is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games import RULESETS, GameState, rules, rules_hints
from scorekeeper import engine_text

register = template.Library()


@register.inclusion_tag("rules/_overlay.html")
def rules_button(ruleset: str, label: str = "", game: Any = None) -> dict[str, str]:
    """A button that opens the game's rules in a dialog over the page, leaving whatever
    is being typed on the page untouched. (On the sheet it is part of the head, a
    ``{% cache %}`` fragment: rendered once per version of the game.) With ``game`` (a
    score sheet) whose table wrote its own rules, those open instead."""
    if ruleset not in RULESETS:
        raise template.TemplateSyntaxError(f"rules_button: no game {ruleset!r}")
    rules_of = RULESETS[ruleset]
    label = label or gettext("Rules")
    if game is not None and getattr(game, "pk", None) and rules_of.table_rules(game.options):
        return {
            "dialog_id": f"rules-dialog-{ruleset}",
            "label": label,
            "name": gettext("%(game)s rules") % {"game": rules_of.game_title(game.options)},
            "page_url": reverse("game_rules", args=[game.pk]),
            "panel_url": reverse("game_rules_panel", args=[game.pk]),
        }
    return {
        "dialog_id": f"rules-dialog-{ruleset}",
        "label": label,
        "name": gettext("%(game)s rules") % {"game": engine_text.rules_for(ruleset).name},
        "page_url": reverse("rules_detail", args=[ruleset]),
        "panel_url": reverse("rules_panel", args=[ruleset]),
    }


@register.filter
def anchored_html(section: rules.Section, prefix: str = "") -> SafeString:
    """The section's HTML with an id on each paragraph, after ``prefix`` ("rp-" in the
    sheet's overlay, where the ids must not clash with the sheet's own)."""
    return mark_safe(section.anchored_html.replace(' id="', f' id="{prefix}'))


def names_mapping(names: object) -> dict[Any, str]:
    """``{player id: name}`` from a mapping, or from players given as objects or dicts."""
    if names is None:
        return {}
    if isinstance(names, Mapping):
        return {key: str(value) for key, value in names.items()}
    found: dict[Any, str] = {}
    if isinstance(names, Iterable) and not isinstance(names, str):
        for item in names:
            if isinstance(item, Mapping):
                key = item.get("id", item.get("pk"))
                name = item.get("name")
            else:
                key = getattr(item, "pk", getattr(item, "id", None))
                name = getattr(item, "name", None)
            if key is not None and name is not None:
                found[key] = str(name)
    return found


@register.simple_tag
def rules_hint_for(ruleset: str, next_hand: Mapping[str, Any] | None, names: object = None) -> str:
    """The hint for the next hand of a ``ruleset`` game (``next_hand`` as the engine
    gives it)."""
    if ruleset not in RULESETS:
        return ""
    return rules_hints.context_hint(
        ruleset, next_hand, names_mapping(names), engine_text.Speaker(ruleset)
    )


@register.simple_tag
def rules_hint(state: GameState | None, names: object = None) -> str:
    """The hint for the hand about to be played in the game ``state``."""
    if state is None:
        return ""
    return rules_hint_for(state.config.ruleset, state.next_hand, names)
