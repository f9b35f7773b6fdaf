"""The documented ranges and formats of values that come from outside (HTTP paths, queries,
forms, JSON bodies and WebSocket messages), as pydantic types used at every edge.

==================  =============================================  =========================
type                range / format                                 why
==================  =============================================  =========================
``DbId``            1 … 2,147,483,647                              a row id (PostgreSQL
                                                                   ``integer``); larger ids
                                                                   exist nowhere
``InviteKey``       1-64 of ``A-Z a-z 0-9 _ -``                    the shape of
                                                                   ``secrets.token_urlsafe``
``Seq``             0 … 2**53 - 1                                  a message sequence number
                                                                   (exact in JavaScript)
``SmallInt``        -1,000,000 … 1,000,000                         a number inside a game
                                                                   action (a seat, a bid)
==================  =============================================  =========================

A value outside its range is refused where it enters (422 over HTTP, ``bad_message`` over the
WebSocket) and never reaches a service, a query or the event log.
"""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Path
from pydantic import Field, StringConstraints

#: the largest row id (PostgreSQL ``integer``, the type of every primary key here)
MAX_DB_ID = 2_147_483_647
#: the largest integer a browser reads exactly (Number.MAX_SAFE_INTEGER)
MAX_SAFE_INT = 2**53 - 1
#: the shape of an invite key (``secrets.token_urlsafe``)
INVITE_KEY_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"

DbId = Annotated[int, Field(ge=1, le=MAX_DB_ID)]
InviteKey = Annotated[str, StringConstraints(pattern=INVITE_KEY_PATTERN)]
Seq = Annotated[int, Field(ge=0, le=MAX_SAFE_INT)]
SmallInt = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]
#: a table id in a route's path: ``/tables/{table_id}`` (404 semantics are the route's)
TableIdPath = Annotated[int, Path(ge=1, le=MAX_DB_ID)]


def same_key(given: str | None, secret: str) -> bool:
    """Whether ``given`` is ``secret``, compared in constant time as UTF-8 bytes (any text,
    also non-ASCII, compares without raising)."""
    if given is None:
        return False
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"),
                                  secret.encode("utf-8", "surrogatepass"))
