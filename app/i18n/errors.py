"""Refusals people read, in their language.

A service raises an error whose message is a catalogue msgid (marked with ``N_``) and whose
values are keyword params::

    raise LobbyError(N_("there is no player called '%(name)s'"), 404, name=name)

Params named in ``translated`` are msgids too (translated before they are filled in).
``str(err)`` is the English text (logs, tests, the JSON API's ``detail`` when the request is
English); ``localized(err)`` is the text in the language of the running request, which the
pages and the JSON error handlers show. An error that is not a ``LocalizedError`` is shown
as ``str(err)``.
"""

from __future__ import annotations

from typing import Any

from app.i18n import translate


class LocalizedError(Exception):
    """An error with a translatable message: ``msgid`` with ``%(name)s`` placeholders, ``params``
    their values. Subclasses mix it in with their own base (ValueError, LookupError)."""

    def __init__(self, msgid: str, *, translated: tuple[str, ...] = (), **params: Any) -> None:
        super().__init__(msgid % params if params else msgid)
        self.msgid = msgid
        self.params = params
        #: the params that are msgids themselves (an option's words, a rules core's reason)
        self.translated = translated


def localized(err: BaseException) -> str:
    """The message of ``err`` in the current language (English for foreign errors)."""
    if not isinstance(err, LocalizedError):
        return str(err)
    params = {key: translate(value) if key in err.translated and isinstance(value, str) else value
              for key, value in err.params.items()}
    return translate(err.msgid, None, **params)
