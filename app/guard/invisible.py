"""Invisible characters: the code points that show nothing but change how text reads.

A character is *invisible* here when the Unicode Character Database says so, never by a hand
list: its general category is a control, format, surrogate, private-use or unassigned one
(``Cc``, ``Cf``, ``Cs``, ``Co``, ``Cn`` — the bidi marks such as U+061C ARABIC LETTER MARK,
the embeddings and isolates, zero widths, invisible operators, tag characters), or it has the
``Default_Ignorable_Code_Point`` property (variation selectors, the combining grapheme joiner,
the Hangul fillers, Mongolian free variation selectors) or ``Bidi_Control``. The properties are
ICU's (PyICU), so a new Unicode version brings its new code points without a code change.

Emoji are pictures built from sequences (Unicode TS #51): the zero width joiner between two
pictographs (👨‍👩‍👧) and the presentation selectors U+FE0E/U+FE0F right after an emoji stay,
as part of the picture; anywhere else they are removed like the rest.
"""

from __future__ import annotations

import unicodedata

from icu import Char, UProperty

ZWJ = "\u200d"
PRESENTATION_SELECTORS = frozenset("\ufe0e\ufe0f")
#: general categories that never show a glyph of their own
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def is_invisible(ch: str) -> bool:
    """Whether ``ch`` (one code point) is invisible in the sense of the module docstring."""
    return (unicodedata.category(ch) in INVISIBLE_CATEGORIES
            or Char.hasBinaryProperty(ch, UProperty.DEFAULT_IGNORABLE_CODE_POINT)
            or Char.hasBinaryProperty(ch, UProperty.BIDI_CONTROL))


def _pictograph(ch: str) -> bool:
    return Char.hasBinaryProperty(ch, UProperty.EXTENDED_PICTOGRAPHIC)


def _emoji_base(kept: list[str]) -> str | None:
    """The last pictograph kept, skipping presentation selectors and skin-tone modifiers."""
    for ch in reversed(kept):
        if ch in PRESENTATION_SELECTORS or Char.hasBinaryProperty(ch, UProperty.EMOJI_MODIFIER):
            continue
        return ch if _pictograph(ch) else None
    return None


def strip_invisible(text: str) -> str:
    """``text`` without its invisible characters (emoji sequences keep their joiners and
    presentation selectors). Pure; O(len(text))."""
    kept: list[str] = []
    for index, ch in enumerate(text):
        if not is_invisible(ch):
            kept.append(ch)
        elif ch == ZWJ:
            following = text[index + 1] if index + 1 < len(text) else ""
            if following and _pictograph(following) and _emoji_base(kept) is not None:
                kept.append(ch)
        elif ch in PRESENTATION_SELECTORS:
            if kept and Char.hasBinaryProperty(kept[-1], UProperty.EMOJI):
                kept.append(ch)
    return "".join(kept)
