"""State deltas: what changed in one audience's table state from one seq to the next.

The patch is a list of JSON Patch operations (RFC 6902), only ``replace``, ``add`` and
``remove``, with JSON Pointer paths (RFC 6901: ``/view/hand``, ``~1`` for ``/`` and ``~0`` for
``~`` in a key). Objects are compared member by member and only the changed members are sent;
a list that only grew at its end gets ``add`` operations on ``/path/-`` (RFC 6902: append),
any other changed list is replaced whole (hands and legal moves are short, and a general list
diff would cost more CPU than the bytes it saves). ``[{"op": "replace", "path": "",
"value": state}]`` replaces the whole state (when there is no previous state to diff against).

Equality is Python's ``==`` (C speed on nested dicts/lists): values equal in Python but not in
JSON type (``1``, ``1.0``, ``True``) count as unchanged. The sync test compares JSON encodings
(tests/test_deltas.py), so a game whose view flips such a value would fail it.

``static/js/patch.js`` applies the same patches in the browser; ``apply`` below is the Python
client's (tests, benchmarks/load.py).
"""

from __future__ import annotations

from typing import Any

import orjson

Patch = list[dict[str, Any]]

#: A state as the views build it: JSON-ready, its keys strings or (in some views) ints, which
#: JSON writes as strings. (The annotation matters to the compiled build, app/compiled.py,
#: which checks the types it is told.)
State = dict[Any, Any]


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def diff(old: State | None, new: State) -> Patch:
    """The operations that turn ``old`` into ``new`` (both JSON-ready dicts, not modified).
    ``old`` None: one whole-state ``replace``."""
    if old is None:
        return [{"op": "replace", "path": "", "value": new}]
    ops: Patch = []
    _diff_dict(old, new, "", ops)
    return ops


#: A state frozen member by member (:class:`Freezer`): each member's compact JSON as bytes, a
#: scalar member (``str``, ``int``, ``float``, ``bool``, None) as itself, or, for the objects
#: at the top levels, the object frozen member by member in turn.
Frozen = dict[str, Any]

#: id(value) -> (value, its compact JSON): the values one seq's :class:`Freezer` encoded, each
#: held so that its id is not reused while it is known
Encoded = dict[int, tuple[Any, bytes]]

#: The types kept as themselves in a frozen state: immutable, untracked by the collector (a
#: dict holding only these and bytes is not tracked either), compared by type and ``==``
#: (JSON's ``1``, ``1.0`` and ``true`` differ) without encoding them.
SCALARS = (str, int, float, bool, type(None))


def _scalar(value: Any) -> bool:
    """Whether ``value`` is one of :data:`SCALARS` (by identity: the hot loops ask it of every
    member, and ``in`` on the tuple compares types by ``==``)."""
    kind = type(value)
    return kind is str or kind is int or value is None or kind is bool or kind is float


#: Levels of objects frozen member by member: the state, then its members (``view``).
FROZEN_DEPTH = 2

_NON_STR = orjson.OPT_NON_STR_KEYS


class Freezer:
    """Freezes the states of one seq's audiences and diffs each against its last one.

    A frozen state is the form in which each audience keeps its last state as the base of
    the next patch: objects down to ``FROZEN_DEPTH`` levels become dicts of their members
    (keys as strings), everything below compact JSON bytes (non-string keys as strings).
    Dicts of bytes are not tracked by the garbage collector; the state as dicts and lists is
    about 60 tracked objects per audience, made anew by every action and living until the
    next one — what the collector's young generations had to walk most (docs/performance.md).
    A member is compared with the last state's as bytes, and only a member that changed is
    decoded to find what changed inside it; a scalar member (:data:`SCALARS`: a seat, a phase,
    a deadline) is kept and compared as itself, without encoding it.

    A value that several audiences' states hold as the same object (the table, the score
    sheet, the parts of a view every seat sees) is encoded once, and its change since the
    last seq is found once: the freezer remembers both by identity, holding the objects, for
    as long as it lives — one seq. ``before``: what the last seq's freezer encoded
    (:attr:`encoded`); a value the views hand out again as the same object (a completed
    trick, a hand that did not change, the table) is not encoded again. So an object a view
    returned must not be changed afterwards: the views build anew what changes, and cache
    only what never will (tests/test_deltas.py holds every game's clients to the snapshots)."""

    def __init__(self, before: Encoded | None = None) -> None:
        #: id(value) -> (value, its JSON): what this seq encoded or took from ``before``
        self._json: Encoded = {}
        self._before: Encoded = before if before is not None else {}
        #: (id(before), id(now), path, member) -> (before, now, the operations between them)
        self._ops: dict[tuple[int, int, str, str], tuple[bytes, bytes, Patch]] = {}

    @property
    def encoded(self) -> Encoded:
        """What this freezer encoded: the ``before`` of the next seq's freezer."""
        return self._json

    def known(self, value: Any, encoded: bytes) -> None:
        """Take ``encoded`` as the JSON of ``value`` (the caller vouches for it)."""
        self._json[id(value)] = (value, encoded)

    def _known(self, value: Any) -> tuple[Any, bytes] | None:
        """``value`` and its JSON if this seq or the last one encoded it (the held object
        keeps its id from being reused), else None."""
        key = id(value)
        known = self._json.get(key)
        if known is None:
            known = self._before.get(key)
            if known is not None:
                self._json[key] = known
        return known

    def encode(self, value: Any, last: Any = None) -> bytes:
        """``value``'s compact JSON, encoded once per object, in a bytes object of its own
        size (orjson's result keeps the 4 KB buffer it wrote into, and an audience keeps some
        30 members). ``last``: what the same member was frozen to last time; when the JSON is
        the same, that bytes object is taken instead of a copy, and the diff finds the member
        unchanged by identity."""
        known = self._known(value)
        if known is None:
            raw = orjson.dumps(value, option=_NON_STR)
            if raw != last:  # a changed member (or bytes != a frozen dict: True)
                raw = memoryview(raw).tobytes()
            else:
                raw = last
            known = self._json[id(value)] = (value, raw)
        return known[1]

    def freeze(self, state: State, depth: int = FROZEN_DEPTH) -> Frozen:
        """``state`` frozen member by member (a value whose JSON is known is taken whole)."""
        frozen: Frozen = {}
        encode = self.encode
        for key, value in state.items():
            name = key if type(key) is str else str(key)
            if _scalar(value):
                frozen[name] = value
            elif depth > 1 and type(value) is dict and self._known(value) is None:
                frozen[name] = self.freeze(value, depth - 1)
            else:
                frozen[name] = encode(value)
        return frozen

    def update(self, state: State, last: Frozen | None) -> tuple[Frozen, Patch]:
        """``state`` frozen (as :meth:`freeze`) and the patch from ``last``, the audience's
        last frozen state, in one pass over the members: a member whose JSON is the same as
        in ``last`` keeps its bytes and gives no operation. ``last`` None: one whole-state
        ``replace``. The operations are :func:`diff`'s between the states as JSON (non-string
        keys of ``state`` compared as their strings)."""
        if last is None:
            return self.freeze(state), [{"op": "replace", "path": "", "value": state}]
        ops: Patch = []
        return self._update_members(state, last, "", FROZEN_DEPTH, ops), ops

    def _update_members(self, state: State, last: Frozen, path: str, depth: int,
                        ops: Patch) -> Frozen:
        # the hot loop of every broadcast (once per member of every audience's state); a
        # changed member's operations are found once per pair of encodings and place
        # (``self._ops``)
        frozen: Frozen = {}
        known, found = self._known, self._ops
        added = 0
        for key, value in state.items():
            name = key if type(key) is str else str(key)
            before = last.get(name, _MISSING)
            now: Any  # bytes, a scalar, or a frozen object
            if _scalar(value):
                frozen[name] = value
                if type(before) is type(value) and before == value:
                    continue
                if before is _MISSING:
                    added += 1
                    ops.append({"op": "add", "path": _join(path, key), "value": value})
                else:
                    ops.append({"op": "replace", "path": _join(path, key), "value": value})
                continue
            entry = known(value)
            if entry is not None:
                now = entry[1]
            elif depth > 1 and type(value) is dict:
                if type(before) is dict:
                    frozen[name] = self._update_members(value, before, _join(path, key),
                                                        depth - 1, ops)
                    continue
                now = self.freeze(value, depth - 1)
            else:
                now = self.encode(value, before)
            frozen[name] = now
            if now is before or now == before:
                continue
            if type(before) is bytes and type(now) is bytes:
                pair = (id(before), id(now), path, name)
                done = found.get(pair)
                if done is None:
                    member_ops: Patch = []
                    _diff_value(orjson.loads(before), value, _join(path, key), member_ops)
                    done = found[pair] = (before, now, member_ops)
                ops.extend(done[2])
            elif before is _MISSING:
                added += 1
                ops.append({"op": "add", "path": _join(path, key), "value": value})
            else:  # a frozen object or scalar that is bytes now, or became an object
                _diff_value(thaw(before), value, _join(path, key), ops)
        if len(last) > len(frozen) - added:  # some member of last is gone
            ops.extend({"op": "remove", "path": _join(path, key)}
                       for key in last if key not in frozen)
        return frozen


def freeze(state: State) -> Frozen:
    """``state`` frozen (:class:`Freezer`)."""
    return Freezer().freeze(state)


def update(state: State, last: Frozen | None) -> tuple[Frozen, Patch]:
    """:meth:`Freezer.update`."""
    return Freezer().update(state, last)


def frozen_json(frozen: Frozen) -> bytes:
    """The JSON text of a frozen state (the state's own encoding, member order kept)."""
    return b"{" + b",".join(orjson.dumps(key) + b":" + _member_json(value)
                            for key, value in frozen.items()) + b"}"


def _member_json(value: Any) -> bytes:
    if type(value) is bytes:
        return value
    if type(value) is dict:
        return frozen_json(value)
    return orjson.dumps(value)  # a scalar


def thaw(frozen: Any) -> Any:
    """The JSON-ready value of a frozen state or member (keys as strings)."""
    if type(frozen) is bytes:
        return orjson.loads(frozen)
    if type(frozen) is dict:
        return {key: thaw(value) for key, value in frozen.items()}
    return frozen  # a scalar


def _diff_dict(old: State, new: State, path: str, ops: Patch) -> None:
    added = 0
    for key, value in new.items():
        before = old.get(key if type(key) is str else str(key), _MISSING)
        if before is value:
            continue
        if before is _MISSING:
            added += 1
            ops.append({"op": "add", "path": _join(path, key), "value": value})
        elif before != value:
            _diff_value(before, value, _join(path, key), ops)
    if len(old) > len(new) - added:  # some member of old is gone
        keys = {k if type(k) is str else str(k) for k in new}
        for key in old:
            if key not in keys:
                ops.append({"op": "remove", "path": _join(path, key)})


_MISSING = object()


def _diff_value(before: Any, value: Any, where: str, ops: Patch) -> None:
    """The operations for the member at ``where``, which changed from ``before``."""
    if type(before) is dict and type(value) is dict:
        _diff_dict(before, value, where, ops)
    elif (type(before) is list and type(value) is list and len(value) > len(before)
          and value[:len(before)] == before):  # grown at the end (the tricks so far)
        ops.extend({"op": "add", "path": where + "/-", "value": item}
                   for item in value[len(before):])
    else:
        ops.append({"op": "replace", "path": where, "value": value})


def _join(path: str, key: Any) -> str:
    """``path`` + ``/key`` (the key escaped), built only for the members that changed."""
    key = str(key)
    if "~" in key or "/" in key:
        key = _escape(key)
    return f"{path}/{key}"


def apply(state: dict[str, Any] | None, patch: Patch) -> dict[str, Any]:
    """A new state with ``patch`` applied; ``state`` is not modified (changed objects are
    copied along each path, the rest is shared).

    Raises ValueError for an operation this module does not produce or a path that does not
    lead through objects (the client then asks for a snapshot)."""
    for op in patch:
        kind, path = op.get("op"), op.get("path")
        if not isinstance(path, str) or kind not in ("add", "replace", "remove"):
            raise ValueError(f"unsupported patch operation {op!r}")
        if path == "":
            if kind == "remove":
                raise ValueError("cannot remove the whole state")
            state = op["value"]
            continue
        if state is None or not path.startswith("/"):
            raise ValueError(f"bad patch path {path!r}")
        tokens = [_unescape(t) for t in path[1:].split("/")]
        state = _set(state, tokens, kind, op.get("value"))
    if not isinstance(state, dict):
        raise ValueError("the patched state is not an object")
    return state


def _set(node: Any, tokens: list[str], kind: str, value: Any) -> Any:
    head = tokens[0]
    if isinstance(node, list) and len(tokens) == 1 and head == "-" and kind == "add":
        return [*node, value]  # append
    if not isinstance(node, dict):
        raise ValueError("patch path goes through a non-object")
    copy = dict(node)
    if len(tokens) == 1:
        if kind == "remove":
            if head not in copy:
                raise ValueError(f"nothing to remove at {head!r}")
            del copy[head]
        else:
            copy[head] = value
        return copy
    if head not in copy:
        raise ValueError(f"no member {head!r} on the patch path")
    copy[head] = _set(copy[head], tokens[1:], kind, value)
    return copy


class ClientState:
    """A protocol client's view of one table: the last state, seq and epoch, kept up to date
    from ``snapshot`` and ``event`` messages (with ``state`` or ``patch``).

    ``apply(message)`` returns the new state; raises ValueError when an event cannot be
    applied (wrong epoch, a seq that does not follow, a bad patch): resync with a snapshot.
    """

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None
        self.seq: int | None = None
        self.epoch: str | None = None

    def apply(self, message: dict[str, Any]) -> dict[str, Any] | None:
        kind = message.get("type")
        if kind == "snapshot":
            self.state = message["state"]
        elif kind == "event":
            if "state" in message:
                self.state = message["state"]
            else:
                if message.get("epoch") != self.epoch or self.seq is None \
                        or message.get("seq") != self.seq + 1:
                    raise ValueError(f"event {message.get('seq')} does not follow {self.seq}")
                self.state = apply(self.state, message["patch"])
        else:
            return self.state
        self.seq, self.epoch = message["seq"], message["epoch"]
        return self.state
