"""The WebSocket protocol: every message, both ways, as pydantic models (docs/protocol.md).

Client → server (JSON text frames, at most Settings.ws_max_message bytes):
- ``{"type": "hello", "table": 7, "last_seq": 41, "epoch": "…"}`` — watch a table (its seat
  if the user holds one, else as a spectator); ``last_seq``/``epoch`` resume after a reconnect.
  ``{"type": "hello", "table": null}`` subscribes to the lobby instead, and
  ``{"type": "hello", "tournament": 3}`` to a tournament's live standings.
- ``{"type": "action", "action": {"type": "play", "card": "QC"}}`` — an action object of the
  scenario format; the server fills in ``seat`` (a given seat must be the sender's own).
- ``{"type": "ping"}`` — answered with ``pong``.

Server → client: every message has ``type`` and ``seq`` (per table, or per lobby feed), and
table messages carry the actor's ``epoch`` (a new one after a server restart: resume then gets a
snapshot). See the models below for each message's fields.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Union

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from app.guard.fields import MAX_SAFE_INT, DbId, InviteKey, Seq, SmallInt
from app.guard.messages import validation_error_message


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # "1" is not a table id


class Hello(_Msg):
    """Attach this connection to a table (or the lobby when ``table`` is None, or a
    tournament's live standings with ``tournament``). ``deltas``:
    events carry ``patch`` (the change of the receiver's state, app.rooms.delta) instead of
    the whole ``state``, and a resume sends the missed patches."""

    type: Literal["hello"]
    table: DbId | None = None
    tournament: DbId | None = None
    last_seq: Seq | None = None
    epoch: str | None = Field(default=None, max_length=64)
    key: InviteKey | None = None
    deltas: bool = False


class ActionCommand(_Msg):
    """Take an action at the attached table."""

    type: Literal["action"]
    action: dict[str, Any]


class Ping(_Msg):
    type: Literal["ping"]


class ChatCommand(_Msg):
    """Say ``text`` in the chat of the attached table, or the lobby's (hello with table null)."""

    type: Literal["chat"]
    text: str = Field(max_length=1600)


class MuteCommand(_Msg):
    """Stop (``on``) or resume (not ``on``) seeing the lines of the player ``name``."""

    type: Literal["mute"]
    name: str = Field(max_length=64)
    on: bool = True


class ReportCommand(_Msg):
    """Report chat line ``line`` of the current room to the moderators."""

    type: Literal["report"]
    line: int = Field(ge=1, le=MAX_SAFE_INT)
    reason: str = Field(default="", max_length=200)


AnyClient = Hello | ActionCommand | Ping | ChatCommand | MuteCommand | ReportCommand
ClientMessage = Annotated[AnyClient, Field(discriminator="type")]
_client_adapter: TypeAdapter[AnyClient] = TypeAdapter(ClientMessage)


class ProtocolError(ValueError):
    """A client message that is not valid JSON or fits no message model; ``str`` says why."""


_CLIENT_TYPES = ("hello", "action", "ping", "chat", "mute", "report")


def parse_client(text: str | bytes) -> AnyClient:
    """Parse one client frame. Raises ProtocolError with one short line that never echoes the
    input (app.guard.messages.validation_error_message)."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("Invalid message: not valid JSON.") from None
    if not isinstance(data, dict):
        raise ProtocolError("Invalid message: a message is a JSON object.")
    if data.get("type") not in _CLIENT_TYPES:
        raise ProtocolError("Invalid message: type: unknown message type.")
    try:
        return _client_adapter.validate_python(data)
    except ValidationError as err:
        raise ProtocolError(validation_error_message(err)) from None


# --- the actions of each game (the ``action`` of an ActionCommand) ----------------------------
#
# A client's action is checked against its table's game models before the rules see it: the
# right ``type`` with fields of the right types and lengths, and no other field (so nothing
# unexpected reaches the rules, the event log or a replay). ``seat`` may be given; the room
# refuses any seat but the sender's own. Whether the action is legal now is the rules' call.

Card = Annotated[str, Field(min_length=1, max_length=8)]
Word = Annotated[str, Field(min_length=1, max_length=32)]


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: SmallInt | None = None


class Back(_Action):
    """I'm back: end a computer player's takeover of one's seat (every game)."""

    type: Literal["back"]


class NextDeal(_Action):
    """Between deals: ready for the next one (every game; app.rooms.intermission)."""

    type: Literal["next_deal"]


class Rematch(_Action):
    """After the match: accept (default) or decline a rematch (every game)."""

    type: Literal["rematch"]
    accept: bool = True


#: the table's own actions, accepted at every game's table besides the game's actions
TABLE_ACTIONS = (Back, NextDeal, Rematch)


class PlayCard(_Action):
    """Doppelkopf, Doublehead Kids: play a card."""

    type: Literal["play"]
    card: Card


class Announce(_Action):
    """Doppelkopf, Doublehead Kids: Re/Kontra, No 90 … Black."""

    type: Literal["announce"]
    value: Word


class Declare(_Action):
    """Doppelkopf, Doublehead Kids: healthy or a reservation."""

    type: Literal["declare"]
    value: Word


class PovertyCards(_Action):
    """Doppelkopf: the three cards of a poverty, given or returned."""

    type: Literal["poverty_give", "poverty_return"]
    cards: list[Card] = Field(min_length=3, max_length=3)


class PovertyAnswer(_Action):
    type: Literal["poverty_answer"]
    value: Literal["accept", "decline"]


class WeddingPartner(_Action):
    type: Literal["wedding_partner"]
    partner: Annotated[int, Field(ge=0, le=3)]


class Discard(_Action):
    """Doppio: discard the card at a position."""

    type: Literal["discard"]
    position: Annotated[str, Field(min_length=1, max_length=4)]


class Answer(_Action):
    """Doppio: declare Doppio, or answer a catch window."""

    type: Literal["doppio", "catch", "pass"]


class Bid(_Action):
    """Doppelganger Tricks: the secret bid."""

    type: Literal["bid"]
    value: SmallInt


class PlayNamed(_Action):
    """Doppelganger Tricks: play a card (``suit``: the suit named on a navy lead)."""

    type: Literal["play"]
    card: Card
    suit: Annotated[str, Field(min_length=1, max_length=4)] | None = None


class TakeBonus(_Action):
    type: Literal["take_bonus"]
    value: Word


class DeclineBonus(_Action):
    type: Literal["decline_bonus"]


def _actions(*models: type[_Action]) -> tuple[TypeAdapter[Any], frozenset[str]]:
    union = Annotated[Union[(*TABLE_ACTIONS, *models)], Field(discriminator="type")]  # noqa: UP007
    types = frozenset(t for m in (*TABLE_ACTIONS, *models)
                      for t in m.model_fields["type"].annotation.__args__)
    return TypeAdapter(union), types


_DOPPELKOPF = (PlayCard, Announce, Declare, PovertyCards, PovertyAnswer, WeddingPartner)
#: game name → the model of its actions (tests register their own games with register_actions)
ACTIONS: dict[str, tuple[TypeAdapter[Any], frozenset[str]]] = {
    "doppelkopf": _actions(*_DOPPELKOPF),
    "doublehead_kids": _actions(*_DOPPELKOPF),
    "doppio": _actions(Discard, Answer),
    "doppelganger_tricks": _actions(Bid, PlayNamed, TakeBonus, DeclineBonus),
}


def register_actions(game: str, *models: type[_Action]) -> None:
    """Declare the action models of a game (besides the four above; e.g. a test game)."""
    ACTIONS[game] = _actions(*models)


def parse_action(game: str, data: Any) -> dict[str, Any]:
    """The action ``data`` of a client at a table of ``game``, checked against the game's
    models: returns it as sent (only the fields it gave). Raises ProtocolError with one short
    line that never echoes the input."""
    known = ACTIONS.get(game)
    if known is None:
        raise ProtocolError("Invalid action: this game takes no actions.")
    adapter, types = known
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in types:
        raise ProtocolError("Invalid action: type: not an action of this game.")
    try:
        model = adapter.validate_python(data)
    except ValidationError as err:
        raise ProtocolError(validation_error_message(err).replace("Invalid message", "Invalid action", 1)) from None
    return model.model_dump(exclude_unset=True)


# --- server → client -------------------------------------------------------------------------


class TableState(_Msg):
    """What a seat sees of a table: the table, its own seat, the game view and the score sheet.

    table: ``{"id", "game", "preset", "players", "deals", "status", "skill" (the level of
        its computer players), "seats": [{"seat", "name", "bot", "connected", "autoplay",
        "left"}],
        "turn_seconds"}``
    you: the receiver's seat, or None for a spectator.
    view: ``Game.view(state, you)`` of the current round (None before the first deal).
    scores: ``{"rounds": [{"number", "deal", "dealer", "scores", "redeal", "details"}], "totals",
        "deals", "played", "current", "end"}`` (``end``: app.rooms.match.EndCondition.json)
    result: ``{"winners": [...], "totals": [...]}`` once the match is over, else None.
    deadline: seconds left for the receiving seat to act under a turn timer, else None.
    timers: the running turn timers, the same for every receiver: ``[{"seat", "remaining"}]``
        (seconds left, one decimal) for each person to move (clients draw a countdown by
        that seat's name); ``"reservation": true`` marks a reservation decision's timer, which
        has twice the time per move (app.rooms.clocks).
    stood_in: the moves a computer player made for the receiver's person since they last
        acted (their move clock ran out, or they were away): ``[{"action", "reason"}]``,
        the newest last; ``reason`` timeout | away | left (app.rooms.clocks). Only in the
        receiver's own state; [] for spectators. At most the newest 16 moves
        (app.rooms.clocks.STOOD_IN_KEPT).
    stood_in_total: how many moves a computer player made for the receiver's person since they
        last acted — all of them, where ``stood_in`` keeps only the newest; 0 for spectators.
    pause: between two deals ``{"remaining": seconds, "ready": [seats]}`` (the next deal
        starts then, or once every person present said "Next deal"), else None.
    rematch: once the match is over ``{"accepted": [seats], "declined": [seats], "table": id
        or None}`` (``table``: the rematch's new table), else None. See app.rooms.intermission.
    """

    table: dict[str, Any]
    you: int | None
    view: dict[str, Any] | None
    scores: dict[str, Any]
    result: dict[str, Any] | None = None
    deadline: float | None = None
    timers: list[dict[str, Any]] = Field(default_factory=list)
    stood_in: list[dict[str, Any]] = Field(default_factory=list)
    stood_in_total: int = 0
    pause: dict[str, Any] | None = None
    rematch: dict[str, Any] | None = None


class Snapshot(_Msg):
    """The whole state for this receiver (after hello, or when too much was missed)."""

    type: Literal["snapshot"] = "snapshot"
    seq: int
    epoch: str
    state: TableState


class EventMessage(_Msg):
    """Something happened: the accepted ``action`` (None for a new deal or seat change; the
    receiver's own action in full, another seat's only as ``{"type", "seat"}``), the game's
    public ``events``, and the receiver's new state."""

    type: Literal["event"] = "event"
    seq: int
    epoch: str
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    state: TableState


class ErrorMessage(_Msg):
    """A command was refused; nothing changed. ``code``: bad_message | illegal | not_seated |
    not_found | forbidden | too_large | rate_limited | server_error."""

    type: Literal["error"] = "error"
    seq: int
    code: str
    message: str


class Closed(_Msg):
    """The server closes this connection: ``reason`` taken_over (another tab took the seat) |
    shutdown (server restarting: reconnect) | overflow (too slow) | table_closed |
    flood (too many messages) | too_many_connections (this address or session holds its
    limit of sockets: Settings.ws_per_address, ws_per_session)."""

    type: Literal["closed"] = "closed"
    seq: int
    reason: str
    reconnect: bool


class LobbyMessage(_Msg):
    """The open tables this user may see (each as in GET /api/tables); ``playing``: the
    running table where this user plays (the lobby's "You are playing at table N — return"),
    else null."""

    type: Literal["lobby"] = "lobby"
    seq: int
    tables: list[dict[str, Any]]
    playing: int | None = None


class TournamentMessage(_Msg):
    """A tournament page's live state (after ``hello`` with ``tournament``, then on every
    change): the tournament as ``GET /api/tournaments/{id}`` has it (standings, rounds,
    tables, duplicate boards), without the receiver's own fields."""

    type: Literal["tournament"] = "tournament"
    seq: int
    tournament: dict[str, Any]


class ChatMessage(_Msg):
    """Chat lines of the receiver's room (its history after hello, then each new line).
    ``lines``: ``[{"id", "author", "text", "at"}]``; ``text`` is raw: show it as text only.
    ``history``: true for the lines said before the receiver joined (clients count them as
    read), false for each new line."""

    type: Literal["chat"] = "chat"
    seq: int
    lines: list[dict[str, Any]]
    history: bool = False


class Reported(_Msg):
    """A report of chat line ``line`` was accepted (handed to the moderators)."""

    type: Literal["reported"] = "reported"
    seq: int
    line: int


class Pong(_Msg):
    type: Literal["pong"] = "pong"
    seq: int


def encode(value: Any) -> str:
    """A JSON-ready value as compact JSON text (orjson: ~5-10x the standard encoder's speed on
    the hot path; non-string dict keys become strings, as with ``json.dumps``)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def dump(message: _Msg) -> dict[str, Any]:
    """A server message as a JSON-ready dict.

    The hot path (every event to every seat): the fields of server messages already hold
    JSON-ready values (the views, events and score sheets are built from dicts, lists, str,
    int, float, bool and None), so the dict is assembled field by field instead of through
    pydantic's ``model_dump(mode="json")``, which walks and copies every nested value and
    cost about 0.2 ms per message (docs/performance.md). Equal to it after a JSON round trip
    (tests/test_protocol.py). Nested values are shared with the caller, not copied.
    """
    return {name: dump(value) if isinstance(value, _Msg) else value
            for name, value in message.__dict__.items()}
