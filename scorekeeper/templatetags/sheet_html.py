"""Parts of the score sheet built for speed: the grid's rows in Python (see
``scorekeeper.web.sheet_rows``), and fragments that are the same on every page that
shows them rendered once per process and kept.

Usage (in the sheet's templates)::

    {% load sheet_html %}
    <tbody>{{ grid|grid_rows }}</tbody>
    <tfoot>{{ grid|grid_footer }}</tfoot>
    <ol class="board">{{ scoreboard.lines|board_lines }}</ol>
    {% cards_pad p panel %}   {# one player's pad of the cards entry (games/_pad_cards.html) #}
    {% winner_chips panel %}  {# the radio chips of who went out (or claimed the hand) #}
    {% kept_panel %}…{% endkept_panel %}  {# a blank new hand's entry panel, kept #}
    {% kept_by "head" game.pk … %}…{% endkept_by %}  {# kept by every value it shows #}
    {{ panel.pad|kept_json_script:"pad-config" }}  {# json_script, kept by its JSON #}

Loading it also makes ``{% url %}`` and ``{% static %}`` (in that template) the same
tags, cheaper: the URLs of the game's own pages are put together by
``scorekeeper.web.fast_urls``, and a static file's URL is asked of the storage once.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from django import template
from django.core.serializers.json import DjangoJSONEncoder
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template import Context
from django.template.base import Parser, Token
from django.template.defaulttags import URLNode
from django.template.defaulttags import url as url_tag
from django.template.loader import get_template
from django.templatetags.static import StaticNode
from django.urls import NoReverseMatch
from django.utils.html import conditional_escape, json_script
from django.utils.safestring import SafeString, mark_safe

from scorekeeper.web import kept_panel, sheet_rows
from scorekeeper.web.fast_urls import fast_reverse
from scorekeeper.web.forms import PlayerEntry
from scorekeeper.web.scoreboard import BoardLine
from scorekeeper.web.sheet import Grid
from scorekeeper.web.sheet_panel import Panel, PanelPlayer

register = template.Library()


@register.filter
def grid_rows(grid: Grid) -> SafeString:
    """The score grid's ``<tbody>`` rows."""
    return sheet_rows.grid_rows(grid)


@register.filter
def board_lines(lines: list[BoardLine]) -> SafeString:
    """The scoreboard's places."""
    return sheet_rows.board_lines(lines)


@register.filter
def grid_footer(grid: Grid) -> SafeString:
    """The score grid's ``<tfoot>`` rows."""
    return sheet_rows.grid_footer(grid)


#: json_script's output by element id and JSON: the same few card pads on every sheet.
_json_scripts: dict[tuple[str, str], SafeString] = {}


@register.filter
def kept_json_script(value: Any, element_id: str) -> SafeString:
    """Django's ``json_script`` filter (same output), kept for the next page that shows
    the same data: escaping the JSON for a script element costs more than making it."""
    key = (element_id, json.dumps(value, cls=DjangoJSONEncoder))
    try:
        return _json_scripts[key]
    except KeyError:
        html = json_script(value, element_id)
        if len(_json_scripts) < 256:
            _json_scripts[key] = html
        return html


@register.simple_tag
def winner_chips(panel: Panel) -> SafeString:
    """The radio chips of who went out (or claimed the hand), the entry's one checked."""
    return sheet_rows.winner_chips(panel.players, panel.entry.winner)


def _render_pad(context: dict[str, Any]) -> SafeString:
    # Its own context, without the page's (no request, no CSRF token): what it shows
    # is what it is given, so what is kept is right for every page that asks for it.
    return mark_safe(get_template("games/_pad_cards.html").render(context).strip())


@functools.lru_cache(maxsize=1024)
def _blank_pad(player: int, name: str, kind: str, scoring: str) -> SafeString:
    blank = {"id": player, "name": name, "error": "", "entry": PlayerEntry()}
    return _render_pad({"p": blank, "kind": kind, "scoring": scoring})


@register.simple_tag
def cards_pad(p: PanelPlayer, panel: Panel) -> SafeString:
    """One player's pad of the cards entry (Dirt, Dirty UNO). A blank pad (a new hand,
    nothing typed, no error) is the same for every hand the player plays with these
    cards: it is rendered once and kept."""
    kind = str((panel.pad or {}).get("kind", ""))
    if p.error or p.entry != PlayerEntry():
        return _render_pad({"p": p, "kind": kind, "scoring": panel.scoring})
    return _blank_pad(p.id, p.name, kind, panel.scoring)


class KeptPanelNode(template.Node):
    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: Context) -> str:
        return kept_panel.render_kept(self.nodelist, context)


@register.tag("kept_panel")
def kept_panel_tag(parser: Parser, token: Token) -> KeptPanelNode:
    """``{% kept_panel %}…{% endkept_panel %}``: the entry panel inside, the same text
    as without the tag, a blank new hand's rendered once and kept
    (``scorekeeper.web.kept_panel``)."""
    nodelist = parser.parse(("endkept_panel",))
    parser.delete_first_token()
    return KeptPanelNode(nodelist)


class KeptByNode(template.Node):
    def __init__(self, nodelist: template.NodeList, name: str, values: list[Any]) -> None:
        self.nodelist = nodelist
        self.name = name
        self.values = values

    def render(self, context: Context) -> str:
        values = [value.resolve(context) for value in self.values]
        return kept_panel.render_kept_by(self.nodelist, context, self.name, values)


@register.tag("kept_by")
def kept_by_tag(parser: Parser, token: Token) -> KeptByNode:
    """``{% kept_by name value… %}…{% endkept_by %}``: the part inside, the same text as
    without the tag, rendered once per ``value``s (every value it shows, named by the
    template) and kept (``scorekeeper.web.kept_panel.render_kept_by``)."""
    bits = token.split_contents()
    if len(bits) < 3:
        raise template.TemplateSyntaxError("kept_by takes a name and the values it shows")
    nodelist = parser.parse(("endkept_by",))
    parser.delete_first_token()
    return KeptByNode(nodelist, bits[1], [parser.compile_filter(bit) for bit in bits[2:]])


class FastURLNode(URLNode):
    """Django's ``{% url %}``, through :func:`fast_reverse` when it can."""

    def render(self, context: Context) -> str:
        request = getattr(context, "request", None)
        namespaced = getattr(request, "current_app", None) or getattr(
            getattr(request, "resolver_match", None), "namespace", ""
        )
        if self.kwargs or namespaced:
            return str(super().render(context))
        try:
            url = fast_reverse(
                self.view_name.resolve(context), [arg.resolve(context) for arg in self.args]
            )
        except NoReverseMatch:
            if self.asvar is None:
                raise
            url = ""
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag("url")
def url(parser: Parser, token: Token) -> FastURLNode:
    """``{% url %}`` as Django has it (same arguments, same output)."""
    node = url_tag(parser, token)
    return FastURLNode(node.view_name, node.args, node.kwargs, node.asvar)


#: A static file's URL by its path: the storage's answer does not change while the
#: process runs (the manifest is read once), and asking costs more than a grid row.
_static_urls: dict[str, str] = {}


class KeptStaticNode(StaticNode):
    """Django's ``{% static %}``, the storage asked once per path."""

    def url(self, context: Context) -> str:
        path = self.path.resolve(context)
        try:
            return _static_urls[path]
        except KeyError:
            url = self.handle_simple(path)
            if len(_static_urls) < 512:
                _static_urls[path] = url
            return url


@register.tag("static")
def static(parser: Parser, token: Token) -> KeptStaticNode:
    """``{% static %}`` as Django has it (same arguments, same output)."""
    node = StaticNode.handle_token(parser, token)
    return KeptStaticNode(varname=node.varname, path=node.path)


@receiver(setting_changed)
def _forget_static(*, setting: str, **kwargs: Any) -> None:
    if setting.startswith("STATIC") or setting == "STORAGES":
        _static_urls.clear()
