"""Translations: one gettext catalogue (app/i18n/<lang>/LC_MESSAGES/messages.po) for the server,
the templates and the browser.

- ``LANGUAGES`` ("de", "en"); the language of a request comes from the ``dr_lang`` cookie if
  set, else from Accept-Language (``choose_language``), else ``DEFAULT``.
- The .po files are read at start (``babel.messages.pofile.read_po``) and compiled in memory
  to ``babel.support.Translations``: no build step, no .mo files.
- ``gettext``/``_`` translate into the language of the running request (a ContextVar set by
  the middleware in app/main.py and by the page renderer); ``N_`` only marks a msgid for
  extraction (used where the text is translated later, e.g. error messages).
- Placeholders are Python's ``%(name)s`` in Python, Jinja2 and JavaScript alike
  (static/js/i18n.js fills them the same way).
- ``browser_catalogue(lang)``: the msgid → text entries the browser needs (every entry used
  in static/js), embedded in each page as JSON and read by static/js/i18n.js.
"""

from __future__ import annotations

import io
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from babel.core import negotiate_locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

HERE = Path(__file__).resolve().parent
LANGUAGES: tuple[str, ...] = ("de", "en")
DEFAULT = "en"
LANG_COOKIE = "dr_lang"
LANG_COOKIE_AGE = 400 * 24 * 3600  # seconds; browsers cap cookies at 400 days

_current: ContextVar[str] = ContextVar("language", default=DEFAULT)


def po_path(lang: str) -> Path:
    """Where the catalogue of ``lang`` lives."""
    return HERE / lang / "LC_MESSAGES" / "messages.po"


@cache
def catalog(lang: str) -> Catalog:
    """The parsed .po catalogue of ``lang`` (read once). Raises KeyError for other languages."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    with po_path(lang).open("rb") as fp:
        return read_po(fp, locale=lang)


@cache
def translations(lang: str) -> Translations:
    """``catalog(lang)`` compiled in memory to gettext Translations (empty entries fall back to
    the msgid, i.e. English)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog(lang))
    buffer.seek(0)
    return Translations(fp=buffer, domain="messages")


def current_language() -> str:
    return _current.get()


def set_language(lang: str) -> None:
    """Make ``lang`` the language of the running request or task."""
    _current.set(lang if lang in LANGUAGES else DEFAULT)


def translate(msgid: str, lang: str | None = None, **params: Any) -> str:
    """``msgid`` in ``lang`` (default: the current language), ``%(name)s`` filled from params."""
    if not msgid:
        return msgid  # gettext("") is the catalogue's header
    text = translations(lang or _current.get()).gettext(msgid)
    return text % params if params else text


def gettext(msgid: str, **params: Any) -> str:
    """``translate`` into the current language."""
    return translate(msgid, None, **params)


def ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
    """Singular or plural in the current language; ``%(num)s`` is n."""
    text = translations(_current.get()).ngettext(singular, plural, n)
    return text % {"num": n, **params}


_ = gettext


def N_(msgid: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``msgid`` for extraction without translating it (translated where it is shown)."""
    return msgid


def parse_accept_language(header: str | None) -> list[str]:
    """The tags of an Accept-Language header, best first: "de-DE,de;q=0.9,en;q=0.5" →
    ["de-DE", "de", "en"]. Malformed parts are skipped; q=0 means "not this one"."""
    ranked = []
    for index, part in enumerate((header or "").split(",")):
        tag, _sep, rest = part.strip().partition(";")
        quality = 1.0
        if rest.strip().startswith("q="):
            try:
                quality = float(rest.strip()[2:])
            except ValueError:
                continue
        if tag and tag != "*" and quality > 0:
            ranked.append((-quality, index, tag))
    return [tag for _q, _i, tag in sorted(ranked)]


def choose_language(cookie: str | None, accept_language: str | None) -> str:
    """The language of a request: the remembered choice (cookie), else the best match of the
    browser's Accept-Language (babel.core.negotiate_locale), else DEFAULT."""
    if cookie in LANGUAGES:
        return cookie
    found = negotiate_locale(parse_accept_language(accept_language), LANGUAGES, sep="-")
    return found or DEFAULT


@cache
def browser_catalogue(lang: str) -> dict[str, str | list[str]]:
    """msgid → text of every entry used in static/js (its locations), for static/js/i18n.js;
    a plural entry (JavaScript's ``ngettext``) as singular msgid → [singular, plural] text.
    Untranslated entries are left out: t() and ngettext() fall back to the English."""
    entries: dict[str, str | list[str]] = {}
    for message in catalog(lang):
        if not message.id or not any(path.startswith("static/") for path, _l in message.locations):
            continue
        if isinstance(message.id, str) and isinstance(message.string, str) and message.string:
            entries[message.id] = message.string
        elif isinstance(message.id, tuple) and message.string and all(message.string):
            entries[message.id[0]] = list(message.string)
    return entries
