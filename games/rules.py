"""The rules text: each game's rules, loaded from ``games/rules/<slug>.md``, checked,
with the engine's scoring facts filled in and rendered to HTML.

The text lives beside the engine, one Markdown file per game in ``games/rules/``, split
into sections by ``## Title {#slug}`` headings. Scoring facts are not typed into the text
but generated from the engine: a marker such as ``{{ card_points }}`` becomes the table
:meth:`Ruleset.card_points` returns, so the rules can never disagree with the score sheet.

    >>> rules = rules_for("dirt")
    >>> [s.slug for s in rules.sections][:3]
    ['overview', 'players-and-cards', 'deal']
    >>> "| Joker | 50 |" in rules.section("scoring").body
    True

Each section is also cut into paragraphs (list items, table rows and subheadings count
as paragraphs), each with an id that :attr:`Section.anchored_html` puts on the page: what
a search of the rules (on the Django side) finds and links to.

    >>> rules_for("damn-you").section("scoring").paragraphs[12]
    Paragraph(id='scoring-13', text='Widow rule (playing on the house). A player who ...')

The one-line hint for the hand in play is :mod:`games.rules_hints`.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markdown
import nh3

from games.base import Ruleset
from games.errors import Translate
from games.i18n import gettext_noop, identity, say_choice, say_number
from games.registry import RULESETS, get_ruleset

RULES_DIR = Path(__file__).with_name("rules")

#: Every game's rules have these sections, in this order; ``variants`` only where the
#: game has variants.
SECTION_ORDER: tuple[str, ...] = (
    "overview",
    "players-and-cards",
    "deal",
    "play",
    "special-cards",
    "scoring",
    "variants",
    "house-rules",
    "quick-reference",
)
OPTIONAL_SECTIONS = frozenset({"variants"})


class RulesError(ValueError):
    """A rules file that is malformed: a missing or unknown section, an unknown marker."""


# -- sections ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Paragraph:
    """A block of a section's text: a paragraph, list item, table row (cells joined by
    " · ") or subheading. ``id`` is its id on the page, ``<section slug>-<n>``."""

    id: str
    text: str


@dataclass(frozen=True)
class Section:
    """One section of a game's rules. ``body`` is Markdown with every engine marker
    already replaced; ``keywords`` are the player words that should find it."""

    ruleset: str
    slug: str
    title: str
    body: str
    keywords: tuple[str, ...] = ()

    @functools.cached_property
    def html(self) -> str:
        return render_markdown(self.body)

    @functools.cached_property
    def anchored_html(self) -> str:
        """:attr:`html` with the id of each of its :attr:`paragraphs` on it."""
        numbers = itertools.count(1)
        return _BLOCK_RE.sub(lambda m: f'<{m[1]} id="{self.slug}-{next(numbers)}">', self.html)

    @functools.cached_property
    def paragraphs(self) -> tuple[Paragraph, ...]:
        parser = _ParagraphParser()
        parser.feed(self.anchored_html)
        parser.close()
        return tuple(
            Paragraph(id, " ".join("".join(parts).split()).strip(" ·"))
            for id, parts in parser.found
        )

    @property
    def text(self) -> str:
        """The body as plain text, one line per paragraph."""
        return "\n".join(p.text for p in self.paragraphs if p.text)

    def as_dict(self) -> dict[str, str]:
        return {"slug": self.slug, "title": self.title, "body": self.body}


@dataclass(frozen=True)
class Rules:
    """A game's whole rules reference."""

    ruleset: str
    name: str
    sections: tuple[Section, ...]

    def section(self, slug: str) -> Section:
        for section in self.sections:
            if section.slug == slug:
                return section
        raise KeyError(slug)

    @property
    def quick_reference(self) -> Section:
        return self.section("quick-reference")

    @property
    def contents(self) -> tuple[Section, ...]:
        """The sections shown in full (the quick reference card is shown apart)."""
        return tuple(s for s in self.sections if s.slug != "quick-reference")


_HEADING_RE = re.compile(r"^##\s+(?P<title>.+?)\s+\{#(?P<slug>[a-z0-9-]+)\}\s*$")
_KEYWORDS_RE = re.compile(r"^\s*<!--\s*keywords:(?P<words>.*?)-->\s*$", re.IGNORECASE)
_MARKER_RE = re.compile(r"\{\{\s*(?P<name>[a-z_]+)(?::(?P<arg>[a-z_]+))?\s*\}\}")


def rules_path(slug: str, language: str = "en") -> Path:
    """``games/rules/<slug>.<language>.md`` when it exists, else the English
    ``games/rules/<slug>.md``."""
    if language and language != "en":
        translated = RULES_DIR / f"{slug}.{language}.md"
        if translated.exists():
            return translated
    return RULES_DIR / f"{slug}.md"


#: What marks our own decision where the original rules are silent, per language.
HOUSE_READING = {"en": "House reading:", "de": "Unsere Lesart:", "es": "Nuestra lectura:"}


@functools.cache
def _default_rules(slug: str, language: str, translate: Translate) -> Rules:
    return build_rules(slug, language=language, translate=translate)


def rules_for(
    slug: str,
    options: Mapping[str, Any] | None = None,
    *,
    language: str = "en",
    translate: Translate = identity,
) -> Rules:
    """The rules of the game ``slug``. ``options`` (house-rule settings) change the
    generated tables, e.g. the points of a 10 in Dirt; without them the defaults show.
    ``language``: the rules document in that language where one exists (English
    otherwise), its generated parts said with ``translate``; cached per game, language
    and translate. Raises :class:`~games.errors.RuleError` for an unknown game."""
    get_ruleset(slug)
    if not options:
        return _default_rules(slug, language, translate)
    return build_rules(slug, options, language=language, translate=translate)


def all_rules(*, language: str = "en", translate: Translate = identity) -> list[Rules]:
    """Every game's rules, in the registry's order."""
    return [rules_for(slug, language=language, translate=translate) for slug in RULESETS]


def clear_cache() -> None:
    """Forget the parsed rules (after the engine or a rules file changed)."""
    _default_rules.cache_clear()


def build_rules(
    slug: str,
    options: Mapping[str, Any] | None = None,
    *,
    language: str = "en",
    translate: Translate = identity,
) -> Rules:
    """Read and expand ``games/rules/<slug>.<language>.md`` (or the English
    ``<slug>.md``), uncached; the generated tables are said with ``translate``."""
    ruleset = get_ruleset(slug)
    source = rules_path(slug, language).read_text(encoding="utf-8")
    name = ruleset.name
    chunks: list[tuple[str, str, list[str]]] = []
    for line in source.splitlines():
        if line.startswith("# ") and not chunks:
            name = line[2:].strip()
            continue
        heading = _HEADING_RE.match(line)
        if heading:
            chunks.append((heading["slug"], heading["title"], []))
        elif line.startswith("## "):
            raise RulesError(f"{slug}: heading without a {{#slug}}: {line!r}")
        elif chunks:
            chunks[-1][2].append(line)
        elif line.strip():
            raise RulesError(f"{slug}: text before the first section: {line!r}")
    expand = functools.partial(_expand_markers, ruleset, options or {}, translate)
    sections = []
    for section_slug, title, lines in chunks:
        keywords: list[str] = []
        body_lines = []
        for line in lines:
            found = _KEYWORDS_RE.match(line)
            if found:
                keywords.extend(w.strip() for w in found["words"].split(",") if w.strip())
            else:
                body_lines.append(line)
        body = expand("\n".join(body_lines).strip())
        sections.append(Section(slug, section_slug, title, body, tuple(keywords)))
    _check_sections(ruleset, [s.slug for s in sections])
    return Rules(ruleset=slug, name=name, sections=tuple(sections))


def _check_sections(ruleset: Ruleset, slugs: list[str]) -> None:
    unknown = [s for s in slugs if s not in SECTION_ORDER]
    if unknown:
        raise RulesError(f"{ruleset.slug}: unknown section {unknown[0]!r}")
    if len(set(slugs)) != len(slugs):
        raise RulesError(f"{ruleset.slug}: a section appears twice")
    required = [s for s in SECTION_ORDER if s not in OPTIONAL_SECTIONS]
    if ruleset.variants:
        required = list(SECTION_ORDER)
    missing = [s for s in required if s not in slugs]
    if missing:
        raise RulesError(f"{ruleset.slug}: missing section {missing[0]!r}")
    if slugs != sorted(slugs, key=SECTION_ORDER.index):
        raise RulesError(f"{ruleset.slug}: sections out of order")


# -- markers: text generated from the engine ------------------------------------------


def _expand_markers(
    ruleset: Ruleset, options: Mapping[str, Any], translate: Translate, text: str
) -> str:
    def replace(match: re.Match[str]) -> str:
        name, arg = match["name"], match["arg"]
        renderer = _MARKERS.get(name)
        if renderer is None:
            raise RulesError(f"{ruleset.slug}: unknown marker {match[0]!r}")
        return renderer(ruleset, options, arg, translate)

    return _MARKER_RE.sub(replace, text)


def _say(translate: Translate, text: object) -> str:
    """``text`` said with ``translate`` (empty text stays empty: ``gettext("")`` is the
    catalog's header)."""
    said = str(text)
    return (translate(said) or said) if said else said


def _points_text(points: object, signed: bool = False) -> str:
    if isinstance(points, int) and not isinstance(points, bool):
        if points < 0:
            return f"−{-points}"
        return f"+{points}" if signed and points > 0 else str(points)
    return str(points)


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _card_points_rows(ruleset: Ruleset, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    effective = {**ruleset.default_options(4), **options}
    return ruleset.card_points(effective)


def card_points_table(
    ruleset: Ruleset, options: Mapping[str, Any] | None = None, _: Translate = identity
) -> str:
    """The engine's card-points table as Markdown (said with ``_``)."""
    rows = _card_points_rows(ruleset, options or {})
    if not rows:
        return _(gettext_noop("*This game scores no cards.*"))
    signed = any(isinstance(r["points"], int) and r["points"] < 0 for r in rows)
    lines = [_(gettext_noop("| Card | Points | Note |")), "|---|---|---|"]
    lines += [
        f"| {_cell(_say(_, r['card']))} | {_points_text(r['points'], signed)} "
        f"| {_cell(_say(_, note))} |"
        for r in rows
        for note in [r["note"]]
    ]
    return "\n".join(lines)


def _marker_card_points(
    ruleset: Ruleset, options: Mapping[str, Any], arg: str | None, _: Translate = identity
) -> str:
    return card_points_table(ruleset, options, _)


def _marker_card_points_inline(
    ruleset: Ruleset, options: Mapping[str, Any], arg: str | None, _: Translate = identity
) -> str:
    rows = _card_points_rows(ruleset, options)
    signed = any(isinstance(r["points"], int) and r["points"] < 0 for r in rows)
    return " · ".join(f"{_say(_, r['card'])} = {_points_text(r['points'], signed)}" for r in rows)


def _marker_variants(
    ruleset: Ruleset, options: Mapping[str, Any], arg: str | None, _: Translate = identity
) -> str:
    lines = [_(gettext_noop("| Variant | Hands | Details |")), "|---|---|---|"]
    for v in ruleset.variants:
        name = _say(_, v.name)
        if v.slug == ruleset.default_variant:
            name = _(gettext_noop("%(variant)s (default)")) % {"variant": name}
        hands = _(gettext_noop("open")) if v.hands is None else str(v.hands)
        lines.append(f"| {_cell(name)} | {hands} | {_cell(_say(_, v.description))} |")
    return "\n".join(lines)


def _marker_variants_inline(
    ruleset: Ruleset, options: Mapping[str, Any], arg: str | None, _: Translate = identity
) -> str:
    parts = []
    for v in ruleset.variants:
        detail = _say(_, v.description)
        # "Dirt ranks 6 4 2" reads better in a one-liner without the repeated label
        # (in any language: the words before the ranks).
        if re.match(r"^[A-Z][a-z]+ ranks \d", v.description):
            detail = re.sub(r"^\D+", "", detail)
        parts.append(f"{_say(_, v.name)} {detail}".strip())
    return " · ".join(parts)


def _option_choices(name: str, option: Mapping[str, Any], _: Translate = identity) -> str:
    if option.get("kind") == "text":
        said = _(gettext_noop("your own words, up to %(count)s characters"))
        return said % {"count": say_number(_, option["max_length"])}
    if "min" in option:
        said = _(gettext_noop("any whole number %(min)s–%(max)s"))
        return said % {"min": option["min"], "max": option["max"]}
    choices = list(option["choices"])
    if (
        len(choices) > 4
        and all(isinstance(c, int) for c in choices)
        and choices == list(range(choices[0], choices[-1] + 1))
    ):
        return f"{choices[0]}–{choices[-1]}"
    return ", ".join(say_choice(_, c, name) if isinstance(c, str) else str(c) for c in choices)


def options_table(ruleset: Ruleset, _: Translate = identity) -> str:
    """The game's house-rule options, as the engine defines them, as a Markdown list
    (a table is too wide for a phone), said with ``_``."""
    options = ruleset.metadata()["options"]
    if not options:
        return _(gettext_noop("*This game has no house-rule options.*"))
    lines = [_(gettext_noop("Options you can set when creating a game:")), ""]
    for name, option in options.items():
        default = option["default"]
        shown = (
            _(gettext_noop("set by the number of players"))
            if default is None
            else f"**{say_choice(_, default, name) if isinstance(default, str) else default}**"
        )
        params = {
            "label": _say(_, option["label"]),
            "name": name,
            "choices": _option_choices(name, option, _),
            "help": _say(_, option["help"]),
            "default": shown,
        }
        if option.get("kind") == "text":
            if option.get("required"):
                line = _(
                    gettext_noop("- **%(label)s** (`%(name)s`): required; %(choices)s. %(help)s")
                )
            else:
                line = _(
                    gettext_noop("- **%(label)s** (`%(name)s`): optional; %(choices)s. %(help)s")
                )
            lines.append(line % params)
            continue
        line = _(
            gettext_noop(
                "- **%(label)s** (`%(name)s`): default %(default)s; choices %(choices)s. %(help)s"
            )
        )
        lines.append(line % params)
    return "\n".join(lines)


def _marker_options(
    ruleset: Ruleset, options: Mapping[str, Any], arg: str | None, _: Translate = identity
) -> str:
    return options_table(ruleset, _)


def _marker_default(
    ruleset: Ruleset, options: Mapping[str, Any], arg: str | None, _: Translate = identity
) -> str:
    known = ruleset.metadata()["options"]
    if arg not in known:
        raise RulesError(f"{ruleset.slug}: no option {arg!r} for {{{{ default:{arg} }}}}")
    value = options.get(arg or "", known[arg]["default"])
    return str(value)


def _marker_deal_sizes(
    ruleset: Ruleset, options: Mapping[str, Any], arg: str | None, _: Translate = identity
) -> str:
    from games.base import GameConfig
    from games.damn_you import deal_sizes

    lines = [_(gettext_noop("| Players | Cards dealt | Short hands |")), "|---|---|---|"]
    for n in range(ruleset.min_players, ruleset.max_players + 1):
        players = tuple(range(1, n + 1))
        sizes = deal_sizes(GameConfig(ruleset.slug, players, None, {}), players[0])
        counts = Counter(sizes.values())
        big, small = max(counts), min(counts)
        if big == small:
            none = _(gettext_noop("none"))
            lines.append(f"| {n} | {big} | {none} |")
        else:
            dealt = _(gettext_noop("%(many)s get %(big)s, %(few)s get %(small)s")) % {
                "many": counts[big],
                "big": big,
                "few": counts[small],
                "small": small,
            }
            lines.append(f"| {n} | {dealt} | {counts[small]} |")
    return "\n".join(lines)


SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_NAME = {
    "S": gettext_noop("spades"),
    "H": gettext_noop("hearts"),
    "D": gettext_noop("diamonds"),
    "C": gettext_noop("clubs"),
}


def card_label(code: str) -> str:
    return f"{code[:-1]}{SUIT_SYMBOL[code[-1]]}"


def bowers() -> list[tuple[str, str]]:
    """(suit code, bower code) pairs of Dirty Deals, from the engine."""
    from games.dirty_deals import BOWER

    return [(suit, BOWER[suit]) for suit in ("H", "D", "C", "S")]


def _marker_bowers(
    ruleset: Ruleset, options: Mapping[str, Any], arg: str | None, _: Translate = identity
) -> str:
    return "\n".join(
        f"| {SUIT_SYMBOL[suit]} {_(_SUIT_NAME[suit])} | {card_label(jack)} |"
        for suit, jack in bowers()
    )


def _marker_bowers_inline(
    ruleset: Ruleset, options: Mapping[str, Any], arg: str | None, _: Translate = identity
) -> str:
    return " · ".join(f"{SUIT_SYMBOL[s]} {card_label(j)}" for s, j in bowers())


_MARKERS: dict[str, Callable[[Ruleset, Mapping[str, Any], str | None, Translate], str]] = {
    "card_points": _marker_card_points,
    "card_points_inline": _marker_card_points_inline,
    "variants": _marker_variants,
    "variants_inline": _marker_variants_inline,
    "options": _marker_options,
    "default": _marker_default,
    "deal_sizes": _marker_deal_sizes,
    "bowers": _marker_bowers,
    "bowers_inline": _marker_bowers_inline,
}


# -- rendering --------------------------------------------------------------------------


def render_markdown(text: str) -> str:
    """Markdown to HTML (tables and plain lists; the text is the project's own), with
    the red suits in red."""
    rendered = markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
    return re.sub("([♥♦])", r'<span class="suit-red">\1</span>', rendered)


def render_table_markdown(text: str) -> str:
    """The table's own Markdown (a game's notes, typed by anyone) to safe HTML: whatever
    raw HTML it holds is cleaned by ``nh3`` (no scripts, handlers, styles or
    ``javascript:`` links; links open without the page's referrer)."""
    rendered = markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
    cleaned = nh3.clean(rendered, tags=_TABLE_TAGS, link_rel="noopener noreferrer nofollow")
    # The page's own headings come first: the table's start a level below them.
    return re.sub(r"<(/?)h[12]>", r"<\1h3>", cleaned)


#: What the table's Markdown may make: nh3's safe tags but images (nothing loads from
#: elsewhere).
_TABLE_TAGS = set(nh3.ALLOWED_TAGS) - {"img"}


_BLOCKS = ("p", "li", "tr", "h3")
_BLOCK_RE = re.compile(rf"<({'|'.join(_BLOCKS)})>")


class _ParagraphParser(HTMLParser):
    """Collects the text of every element with an id, innermost first (a list item
    inside a list item is a paragraph of its own)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, list[str]]] = []
        self.open: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        id = dict(attrs).get("id")
        if id:
            self.found.append((id, []))
            self.open.append(self.found[-1][1])

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.open:
            self.open[-1].append(" · ")
        elif tag in _BLOCKS:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open:
            self.open[-1].append(data)
