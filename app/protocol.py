"""The WebSocket protocol: every message, both ways, as pydantic models (docs/protocol.md).

Client → server (JSON text frames, at most Settings.ws_max_message bytes):
- ``{"type": "hello", "table": 7, "last_seq": 41, "epoch": "…"}`` — watch a table (its seat
  if the user holds one, else as a spectator); ``last_seq``/``epoch`` resume after a reconnect.
  ``{"type": "hello", "table": null}`` subscribes to the lobby instead.
- ``{"type": "action", "action": {"type": "play", "card": "QC"}}`` — an action object of the
  scenario format; the server fills in ``seat`` (a given seat must be the sender's own).
- ``{"type": "ping"}`` — answered with ``pong``.

Server → client: every message has ``type`` and ``seq`` (per table, or per lobby feed), and
table messages carry the actor's ``epoch`` (a new one after a server restart: resume then gets a
snapshot). See the models below for each message's fields.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Hello(_Msg):
    """Attach this connection to a table (or the lobby when ``table`` is None)."""

    type: Literal["hello"]
    table: int | None = None
    last_seq: int | None = Field(default=None, ge=0)
    epoch: str | None = Field(default=None, max_length=64)
    key: str | None = Field(default=None, max_length=64)


class ActionCommand(_Msg):
    """Take an action at the attached table."""

    type: Literal["action"]
    action: dict[str, Any]


class Ping(_Msg):
    type: Literal["ping"]


ClientMessage = Annotated[Hello | ActionCommand | Ping, Field(discriminator="type")]
_client_adapter: TypeAdapter[Hello | ActionCommand | Ping] = TypeAdapter(ClientMessage)


class ProtocolError(ValueError):
    """A client message that is not valid JSON or fits no message model; ``str`` says why."""


def parse_client(text: str | bytes) -> Hello | ActionCommand | Ping:
    """Parse one client frame. Raises ProtocolError with a short, safe reason."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("not valid JSON") from None
    try:
        return _client_adapter.validate_python(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        raise ProtocolError(f"{where}: {first['msg']}") from None


# --- server → client -------------------------------------------------------------------------


class TableState(_Msg):
    """What a seat sees of a table: the table, its own seat, the game view and the score sheet.

    table: ``{"id", "game", "preset", "players", "deals", "status", "seats": [{"seat", "name",
        "bot", "connected"}]}``
    you: the receiver's seat, or None for a spectator.
    view: ``Game.view(state, you)`` of the current round (None before the first deal).
    scores: ``{"rounds": [{"number", "dealer", "scores", "redeal", "details"}], "totals",
        "deals", "played"}``
    result: ``{"winners": [...], "totals": [...]}`` once the match is over, else None.
    deadline: seconds left for the seat to act under a turn timer, else None.
    """

    table: dict[str, Any]
    you: int | None
    view: dict[str, Any] | None
    scores: dict[str, Any]
    result: dict[str, Any] | None = None
    deadline: float | None = None


class Snapshot(_Msg):
    """The whole state for this receiver (after hello, or when too much was missed)."""

    type: Literal["snapshot"] = "snapshot"
    seq: int
    epoch: str
    state: TableState


class EventMessage(_Msg):
    """Something happened: the accepted ``action`` (None for a new deal or seat change), the
    game's public ``events``, and the receiver's new state."""

    type: Literal["event"] = "event"
    seq: int
    epoch: str
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    state: TableState


class ErrorMessage(_Msg):
    """A command was refused; nothing changed. ``code``: bad_message | illegal | not_seated |
    not_found | forbidden | too_large | server_error."""

    type: Literal["error"] = "error"
    seq: int
    code: str
    message: str


class Closed(_Msg):
    """The server closes this connection: ``reason`` taken_over (another tab took the seat) |
    shutdown (server restarting: reconnect) | overflow (too slow) | table_closed."""

    type: Literal["closed"] = "closed"
    seq: int
    reason: str
    reconnect: bool


class LobbyMessage(_Msg):
    """The open tables this user may see (each as in GET /api/tables)."""

    type: Literal["lobby"] = "lobby"
    seq: int
    tables: list[dict[str, Any]]


class Pong(_Msg):
    type: Literal["pong"] = "pong"
    seq: int


def dump(message: _Msg) -> dict[str, Any]:
    """A server message as a JSON-ready dict."""
    return message.model_dump(mode="json")
