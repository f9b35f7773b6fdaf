"""Helpers for hostile WebSocket input: a frame size limit and short validation errors.

These are helpers for the protocol module and the WebSocket handler, not the protocol itself:

- :func:`frame_size_error` refuses a raw frame over :data:`MAX_FRAME_BYTES` (4 KiB by default)
  *before* it is parsed. The server should also cap frames at the transport
  (uvicorn ``--ws-max-size``) so a huge frame is never buffered whole; this check is the
  application-level answer with a readable error for frames between the two limits.
- :func:`validation_error_message` turns a pydantic ``ValidationError`` into one short line
  for the user: where and what, never a traceback, never the input itself (pydantic's
  ``str(exc)`` echoes the input value), and at most :data:`MAX_ERROR_CHARS` characters even
  when the offending field *name* came from the attacker.
"""

from __future__ import annotations

import unicodedata

from pydantic import ValidationError

#: The largest WebSocket frame (in bytes, UTF-8 for text frames) the server reads.
MAX_FRAME_BYTES = 4096
#: The longest error line sent back to a client.
MAX_ERROR_CHARS = 200
#: The longest piece of a field path (a path part may be a key the client invented).
MAX_LOC_PART_CHARS = 24
#: The longest single problem description.
MAX_PROBLEM_CHARS = 100


def frame_size(frame: str | bytes | bytearray | memoryview) -> int:
    """The size of ``frame`` in bytes (UTF-8 for text)."""
    if isinstance(frame, str):
        return len(frame.encode("utf-8", "surrogatepass"))
    return len(frame)


def frame_size_error(
    frame: str | bytes | bytearray | memoryview, limit: int = MAX_FRAME_BYTES
) -> str | None:
    """``None`` when ``frame`` fits in ``limit`` bytes, else a short error line for the user."""
    if isinstance(frame, str):
        # Cheap bounds first: a character is 1 to 4 bytes in UTF-8.
        if len(frame) > limit:
            too_big = True
        elif 4 * len(frame) <= limit:
            too_big = False
        else:
            too_big = frame_size(frame) > limit
    else:
        too_big = len(frame) > limit
    if too_big:
        return f"Message too large (the limit is {limit} bytes)."
    return None


def _clean(text: str, limit: int) -> str:
    """Printable characters only, at most ``limit`` of them (an ellipsis marks a cut)."""
    cleaned = "".join(
        ch if not unicodedata.category(ch).startswith("C") else "?" for ch in text[: limit + 1]
    )
    if len(cleaned) > limit:
        cleaned = cleaned[: limit - 1] + "…"
    return cleaned


def _loc(loc: tuple[int | str, ...]) -> str:
    parts = []
    for part in loc:
        parts.append(
            f"[{part}]" if isinstance(part, int) else _clean(str(part), MAX_LOC_PART_CHARS)
        )
    return ".".join(parts).replace(".[", "[")


def validation_error_message(exc: ValidationError, limit: int = MAX_ERROR_CHARS) -> str:
    """One short, input-free line describing the first problem of ``exc`` (and how many more).

    >>> from pydantic import BaseModel
    >>> class Play(BaseModel):
    ...     card: int
    >>> try:
    ...     Play.model_validate({"card": "ace"})
    ... except ValidationError as exc:
    ...     print(validation_error_message(exc))
    Invalid message: card: Input should be a valid integer, unable to parse string as an integer.
    """
    errors = exc.errors(include_url=False, include_context=False, include_input=False)
    if not errors:
        return "Invalid message."
    first = errors[0]
    where = _loc(tuple(first.get("loc", ())))
    what = _clean(str(first.get("msg", "invalid value")).rstrip("."), MAX_PROBLEM_CHARS)
    line = f"Invalid message: {where}: {what}" if where else f"Invalid message: {what}"
    more = len(errors) - 1
    suffix = f" (and {more} more problem{'s' if more > 1 else ''})." if more else "."
    if len(line) + len(suffix) > limit:
        line = line[: limit - len(suffix) - 1] + "…"
    return line + suffix
