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


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def diff(old: dict[str, Any] | None, new: dict[str, Any]) -> Patch:
    """The operations that turn ``old`` into ``new`` (both JSON-ready dicts, not modified).
    ``old`` None: one whole-state ``replace``."""
    if old is None:
        return [{"op": "replace", "path": "", "value": new}]
    ops: Patch = []
    _diff_dict(old, new, "", ops)
    return ops


def freeze(state: dict[str, Any]) -> bytes:
    """``state`` as compact JSON (UTF-8 bytes, non-string keys as strings): the form in which
    each audience keeps its last state as the base of the next patch. Bytes are one object
    the garbage collector does not track; the state as dicts and lists is about 60 tracked
    objects per audience, made anew by every action and living until the next one — what
    the collector's young generations had to walk most (docs/performance.md)."""
    return orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS)


def diff_frozen(old: bytes | None, new: dict[str, Any]) -> Patch:
    """:func:`diff` from a :func:`freeze` d state ``old`` (decoded, so its keys are strings:
    ``new``'s non-string keys are compared as their strings). ``old`` None: one whole-state
    ``replace``."""
    if old is None:
        return [{"op": "replace", "path": "", "value": new}]
    return diff(orjson.loads(old), new)


def _diff_dict(old: dict[str, Any], new: dict[str, Any], path: str, ops: Patch) -> None:
    added = 0
    for key, value in new.items():
        before = old.get(key if type(key) is str else str(key), _MISSING)
        if before is value:
            continue
        if before is _MISSING:
            added += 1
            ops.append({"op": "add", "path": _join(path, key), "value": value})
        elif before == value:
            continue
        elif type(before) is dict and type(value) is dict:
            _diff_dict(before, value, _join(path, key), ops)
        elif (type(before) is list and type(value) is list and len(value) > len(before)
              and value[:len(before)] == before):  # grown at the end (the tricks so far)
            where = _join(path, key) + "/-"
            ops.extend({"op": "add", "path": where, "value": item}
                       for item in value[len(before):])
        else:
            ops.append({"op": "replace", "path": _join(path, key), "value": value})
    if len(old) > len(new) - added:  # some member of old is gone
        keys = {k if type(k) is str else str(k) for k in new}
        for key in old:
            if key not in keys:
                ops.append({"op": "remove", "path": _join(path, key)})


_MISSING = object()


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
