"""User names: what a name may be, and the one key by which names are compared.

**What a name may be.** 3 to 20 characters, each a letter of any script (Unicode category
L*), a combining mark after a letter (M*: the vowel signs of Devanagari, the accents of
decomposed Latin), a decimal digit (Nd), ``_`` or ``-``: Zoë, José, Åsa, Jürgen, Ἀθηνᾶ, Дмитрий,
राम. The name is prepared by the PRECIS ``UsernameCasePreserved`` profile (RFC 8265, the
``precis-i18n`` package): full-width forms become their ordinary ones, the text is NFC, and
the Bidi Rule holds (a right-to-left name reads unambiguously). That prepared spelling is the
display name. Names beginning with ``Guest-`` (in any spelling) are kept for guests.

**One key.** Two names are the same name when their keys are equal:

    name_key(name) = skeleton(UsernameCaseMapped(name))

``UsernameCaseMapped`` (RFC 8265) also maps case (``JÜRGEN`` → ``jürgen``), the same in
Python on every database (SQLite's lower() folds A-Z only); the *skeleton* is the confusable
skeleton of Unicode TR39 (UTS #39, ICU's SpoofChecker through PyICU), under which letters that
look alike are one: ``аdmin`` with a Cyrillic а is ``admin``, ``ℌans`` is ``hans``. The key is
stored in ``users.name_key`` (unique), so the database refuses a second spelling, and login,
its rate limit, friends, invitations and profiles all find a user by it.

The skeleton is meant for comparing, never for showing (TR39): it is not a name. It depends on
the Unicode version of ICU's confusables data: a new ICU may change a few keys (a later
migration would recompute them, as 0005_name_key does).
"""

from __future__ import annotations

import unicodedata

from icu import SpoofChecker
from precis_i18n import get_profile

from app.i18n import N_

MIN_CHARS, MAX_CHARS = 3, 20
GUEST_PREFIX = "Guest-"
#: the longest key: a skeleton maps one character to a few (m → rn) and decomposes accents
MAX_KEY_CHARS = 160

_PRESERVED = get_profile("UsernameCasePreserved")
_MAPPED = get_profile("UsernameCaseMapped")
_SPOOF = SpoofChecker()


class NameRefused(ValueError):
    """A name that may not be a user name; ``message`` is a catalogue msgid."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _allowed(ch: str, first: bool) -> bool:
    category = unicodedata.category(ch)
    if category[0] == "L" or category == "Nd" or ch in "_-":
        return True
    return category[0] == "M" and not first


def display_name(raw: str) -> str:
    """The name as it is stored and shown, from what a person typed (trimmed). Raises
    NameRefused unless it is a name by the rules of the module docstring."""
    try:
        name = _PRESERVED.enforce(raw.strip())
    except UnicodeError:
        raise NameRefused(N_("a name has 3 to 20 letters, digits, _ or -")) from None
    if not MIN_CHARS <= len(name) <= MAX_CHARS or not all(
            _allowed(ch, index == 0) for index, ch in enumerate(name)):
        raise NameRefused(N_("a name has 3 to 20 letters, digits, _ or -"))
    if name_key(name).startswith(_GUEST_KEY):
        raise NameRefused(N_("names starting with Guest- are kept for guests"))
    return name


def name_key(name: str) -> str:
    """The canonical key of ``name`` (see the module docstring). Any text has one: a text
    PRECIS refuses gets the skeleton of its case-folded NFKC form, so that a login with it
    is limited and looked up like any other and simply finds nobody."""
    text = name.strip()
    try:
        mapped = _MAPPED.enforce(text)
    except UnicodeError:
        mapped = unicodedata.normalize("NFKC", text).casefold()
    return _SPOOF.getSkeleton(0, mapped)[:MAX_KEY_CHARS]


_GUEST_KEY = name_key(GUEST_PREFIX.lower() + "x")[:-1]
