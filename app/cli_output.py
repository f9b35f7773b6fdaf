"""What the command-line tools print: a JSON document on stdout, or one line on stderr.

Shared by ``python -m app replay`` and ``python -m app analyse``: exit status 0 with the JSON,
2 with the first line of the refusal.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def emit(document: Any) -> int:
    """Print ``document`` as indented JSON on stdout; returns the exit status 0."""
    json.dump(document, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def refuse(err: Exception | str, fallback: str = "invalid scenario") -> int:
    """Print the first line of ``err`` (``fallback`` when empty) on stderr; returns 2."""
    text = str(err)
    print(text.splitlines()[0] if text else fallback, file=sys.stderr)
    return 2


def progress(what: str):
    """A ``progress(done, total)`` that rewrites one line on stderr: "counted 12/40 matches"
    for ``what`` "counted %(done)s/%(total)s matches"."""
    def show(done: int, total: int) -> None:
        sys.stderr.write("\r" + what % {"done": done, "total": total})
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show
