"""A finished game's result (or a game night's) drawn as a PNG (1200×630: the size chat
apps preview).

The font is DejaVu Sans, shipped inside the package (``scorekeeper/fonts``, found next
to this code, so it works with DEBUG off and without collected static files). It covers
Latin, Greek, Cyrillic, Hebrew, Arabic, Armenian, Georgian and many symbols; Pillow's
Raqm layout (bundled in its wheels) shapes Arabic and orders right-to-left text. A name
the font cannot draw in full is tried with fonts the server may have installed (Noto
CJK, GNU Unifont — ``apt-get install fonts-noto-cjk`` or ``fonts-unifont``); what no
font can draw (most emoji) becomes a small box rather than an error. If even the
bundled font is missing, the system's DejaVu and then Pillow's own default font are used.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from django.utils.translation import gettext
from PIL import Image, ImageDraw, ImageFont, features

from scorekeeper.services.results import SIGNATURE, ResultLine

WIDTH, HEIGHT = 1200, 630
MARGIN = 64

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
SYSTEM_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
#: Fonts tried, if the server has them, for names DejaVu Sans cannot draw in full.
FALLBACK_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    "/usr/share/fonts/opentype/unifont/unifont.otf",
    "/usr/share/fonts/truetype/unifont/unifont.ttf",
)
MISSING = "\u25a1"  # □, drawn where no font has the character
#: A private-use character no font here draws: its mask is the font's "missing" glyph.
_NOTDEF_PROBE = "\U0010fffd"

# The image's own palette (a PNG has no CSS): the light theme's colours.
BG = (246, 244, 239)
SURFACE = (255, 255, 255)
INK = (29, 35, 43)
MUTED = (93, 102, 112)
LINE = (220, 215, 204)
ACCENT = (31, 111, 92)
ACCENT_INK = (255, 255, 255)
GOLD = (184, 134, 11)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont | ImageFont.TransposedFont


def _layout() -> ImageFont.Layout:
    return ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC


def _primary_path(bold: bool) -> str | None:
    name = BOLD if bold else REGULAR
    for folder in (FONT_DIR, SYSTEM_DEJAVU):
        if (folder / name).is_file():
            return str(folder / name)
    return None


def _candidates(bold: bool) -> list[str]:
    paths = [_primary_path(bold), _primary_path(False) if bold else None]
    paths += [p for p in FALLBACK_FONTS if Path(p).is_file()]
    seen: list[str] = []
    for p in paths:
        if p and p not in seen:
            seen.append(p)
    return seen


@lru_cache(maxsize=64)
def _font(path: str | None, size: int) -> Font:
    if path is None:
        return ImageFont.load_default(size)
    try:
        return ImageFont.truetype(path, size, layout_engine=_layout())
    except OSError:
        return ImageFont.load_default(size)


@lru_cache(maxsize=16)
def _notdef(path: str) -> tuple[tuple[int, int], bytes]:
    mask = _font(path, 24).getmask(_NOTDEF_PROBE)
    return mask.size, bytes(mask)


@lru_cache(maxsize=8192)
def _covers(path: str, ch: str) -> bool:
    if ch.isspace() or unicodedata.category(ch) in ("Cf", "Mn", "Me", "Cc"):
        return True
    mask = _font(path, 24).getmask(ch)
    return (mask.size, bytes(mask)) != _notdef(path)


def _drawable(text: str) -> str:
    """Control characters out (a name cannot hold them, but a font would draw boxes)."""
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cc")


def font_for(text: str, size: int, *, bold: bool = False) -> tuple[Font, str]:
    """The first font that draws all of ``text``, and the text; else the main font and
    the text with what it cannot draw replaced by a box."""
    text = _drawable(text)
    paths = _candidates(bold)
    if not paths:
        return _font(None, size), text
    for path in paths:
        if all(_covers(path, ch) for ch in text):
            return _font(path, size), text
    main = paths[0]
    return _font(main, size), "".join(ch if _covers(main, ch) else MISSING for ch in text)


def _width(font: Font, text: str) -> float:
    return float(font.getlength(text))


def fit(font: Font, text: str, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if _width(font, text) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _width(font, text[:mid].rstrip() + "…") <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    *,
    fill: tuple[int, int, int],
    bold: bool = False,
    width: float | None = None,
    anchor: str = "ls",
) -> None:
    font, text = font_for(text, size, bold=bold)
    if width is not None:
        text = fit(font, text, width)
    draw.text(xy, text, font=font, fill=fill, anchor=anchor)


class ResultCard(Protocol):
    """What the image shows: a heading, its day and count, and the ranked lines (a
    game's :class:`~scorekeeper.services.results.Result`, a night's card)."""

    @property
    def title(self) -> str: ...
    @property
    def day_text(self) -> str: ...
    @property
    def hands_text(self) -> str: ...
    @property
    def lines(self) -> Sequence[ResultLine]: ...


def render_result_png(result: ResultCard) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN

    # A green band across the top, like the app's bar.
    draw.rectangle((0, 0, WIDTH, 14), fill=ACCENT)
    _text(draw, (MARGIN, 104), result.title, 56, fill=INK, bold=True, width=inner)
    _text(
        draw,
        (MARGIN, 152),
        f"{result.day_text} · {result.hands_text}",
        30,
        fill=MUTED,
        width=inner,
    )

    top, bottom = 186, HEIGHT - 78
    card = (MARGIN - 24, top, WIDTH - MARGIN + 24, bottom)
    draw.rounded_rectangle(card, radius=18, fill=SURFACE, outline=LINE, width=2)
    count = max(1, len(result.lines))
    row_h = min(104.0, (bottom - top - 24) / count)
    size = max(16, min(44, int(row_h * 0.5)))
    y = top + 12 + (bottom - top - 24 - row_h * count) / 2
    badge = row_h * 0.36
    for line in result.lines:
        mid = y + row_h / 2
        cx = MARGIN + badge
        if line.won:
            draw.ellipse((cx - badge, mid - badge, cx + badge, mid + badge), fill=GOLD)
            _text(draw, (cx, mid), "★", int(badge * 1.2), fill=ACCENT_INK, anchor="mm")
        else:
            draw.ellipse((cx - badge, mid - badge, cx + badge, mid + badge), outline=LINE, width=3)
            _text(draw, (cx, mid), str(line.place), int(badge * 1.0), fill=MUTED, anchor="mm")
        score_font, score = font_for(line.score, size, bold=line.won)
        score_w = _width(score_font, score)
        draw.text((WIDTH - MARGIN, mid), score, font=score_font, fill=INK, anchor="rm")
        name_x = MARGIN + badge * 2 + 24
        _text(
            draw,
            (name_x, mid),
            line.label,
            size,
            fill=INK,
            bold=line.won,
            width=WIDTH - MARGIN - score_w - 32 - name_x,
            anchor="lm",
        )
        y += row_h
        if line is not result.lines[-1]:
            draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=LINE, width=1)

    _text(draw, (MARGIN, HEIGHT - 30), gettext(SIGNATURE), 24, fill=MUTED)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
