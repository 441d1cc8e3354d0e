"""Text in pictures: the font, and what it can draw.

The font is the one Pillow ships inside its own package (``ImageFont.load_default``, a scalable
font since Pillow 10.1), so every machine draws the same glyphs and no system font path is
needed. It covers basic Latin only: a character it lacks is drawn as its nearest plain letter
(``é`` as ``e``), a letter or digit of another script as its Latin transliteration (AnyAscii,
ISC licence: ``Алиса`` as ``Alisa``, ``李明`` as ``LiMing``, ``Ελένη`` as ``Eleni``), anything
else as ``?``; never as an empty box. Coordinates are always plain Latin.

Why not a font with more scripts: permissive ones exist (DejaVu Sans, Bitstream Vera licence;
Noto Sans, SIL OFL), but the ones that cover Latin, Greek and Cyrillic leave CJK out, and a CJK
font is some 16 MB per weight. One transliteration reads in every script, keeps the pictures the
same bytes on every machine and their text as wide as the layout measured.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from anyascii import anyascii
from PIL import ImageFont

Font = ImageFont.FreeTypeFont

# Signs the font lacks, written the way it can (Spanish opening marks need no stand-in).
_STAND_INS = {
    "\u2013": "-",  # en dash
    "\u2014": "-",  # em dash
    "\u2212": "-",  # minus sign
    "\u00d7": "x",  # multiplication sign (5x5)
    "\u02bc": "'",  # modifier letter apostrophe
    "\u2018": "'",  # left single quotation mark
    "\u00bf": "",  # inverted question mark
    "\u00a1": "",  # inverted exclamation mark
}
_NOT_A_CHARACTER = "\U0010fffd"  # any character the font lacks shows its "missing" glyph
ELLIPSIS = "…"


@lru_cache(maxsize=16)
def font(size: int) -> Font:
    """The bundled font at ``size`` pixels."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # Pillow older than 10.1, or no FreeType
        raise RuntimeError("board pictures need Pillow >= 10.1 built with FreeType")
    return loaded


@lru_cache(maxsize=4096)
def _covered(character: str) -> bool:
    probe = font(20)
    missing = probe.getmask(_NOT_A_CHARACTER)
    mask = probe.getmask(character)
    return not (mask.size == missing.size and bytes(mask) == bytes(missing))


@lru_cache(maxsize=4096)
def _drawable_character(character: str) -> str:
    if not character.isprintable():
        return ""
    if _covered(character):
        return character
    if character in _STAND_INS:
        return _STAND_INS[character]
    plain = "".join(
        part
        for part in unicodedata.normalize("NFKD", character)
        if not unicodedata.combining(part) and _covered(part)
    )
    if not plain and unicodedata.category(character)[0] in "LN":
        # A letter or digit of another script (a player's name, a status in Russian): its
        # Latin spelling. Symbols (emoji) would be spelled as ":name:", longer than they help.
        plain = "".join(part for part in anyascii(character) if _covered(part))
    return plain or "?"


def drawable(text: str) -> str:
    """``text`` with every character the font lacks replaced by one it has."""
    return "".join(_drawable_character(character) for character in text)


def fit(text: str, size: int, width: float) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` pixels at ``size``."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + ELLIPSIS) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


def wrap(text: str, size: int, width: float, max_lines: int) -> list[str]:
    """``text`` in lines of at most ``width`` pixels at ``size``, at most ``max_lines`` of
    them (the last cut with an ellipsis when the text goes on)."""
    face = font(size)
    lines: list[str] = []
    current = ""
    words = text.split()
    whole = " ".join(words)
    if face.getlength(whole) <= width:
        # The common caption: one measure instead of one a word (each costs a layout).
        return [whole] if whole else []
    for index, word in enumerate(words):
        candidate = f"{current} {word}" if current else word
        if face.getlength(candidate) <= width or not current:
            current = candidate
            continue
        lines.append(current)
        current = word
        if len(lines) == max_lines:
            rest = " ".join(words[index:])
            lines[-1] = fit(f"{lines[-1]} {rest}", size, width)
            return lines
    if current:
        lines.append(current)
    return [fit(line, size, width) for line in lines]


def wrap_paragraphs(
    text: str, size: int, width: float, *, per_paragraph: int, max_lines: int
) -> list[str]:
    """``text`` made drawable and wrapped (:func:`wrap`) paragraph by paragraph: each line
    break of ``text`` starts a new line (a result, then its ratings), each paragraph takes at
    most ``per_paragraph`` lines and the whole at most ``max_lines`` (the last one then ends
    with an ellipsis)."""
    lines: list[str] = []
    paragraphs = [drawable(line) for line in text.splitlines()]
    paragraphs = [paragraph for paragraph in paragraphs if paragraph.strip()]
    for index, paragraph in enumerate(paragraphs):
        room = min(per_paragraph, max_lines - len(lines))
        if room <= 0:
            rest = " ".join(paragraphs[index:])
            lines[-1] = fit(f"{lines[-1].removesuffix(ELLIPSIS)} {rest}", size, width)
            break
        lines.extend(wrap(paragraph, size, width, room))
    return lines
