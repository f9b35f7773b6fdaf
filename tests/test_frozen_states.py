"""Each audience keeps its last state frozen (member by member as JSON bytes, a scalar as
itself: app.rooms.delta.freeze) and diffs the next state against it: the patches turn the decoded old
state into exactly the new one, also where the live state holds what JSON changes (non-string
keys, tuples, floats), and the frozen state's JSON is the state's."""

from __future__ import annotations

import gc
import json
import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from app.rooms import delta

atoms = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text("ab/~", max_size=3))
values = st.recursive(atoms, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner),
    st.dictionaries(st.one_of(st.text("ab/~", max_size=2), st.integers(0, 3)), inner,
                    max_size=4)), max_leaves=12)
states = st.dictionaries(st.sampled_from(["view", "table", "you", "scores"]), values)
#: states without booleans (Python's ``False == 0``, which the live diff takes as unchanged)
plain_states = st.dictionaries(st.sampled_from(["view", "table", "you", "scores"]), st.recursive(
    st.one_of(st.none(), st.integers(-5, 5), st.text("ab/~", max_size=3)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                            st.dictionaries(st.one_of(st.text("ab/~", max_size=2),
                                                      st.integers(0, 3)), inner, max_size=4)),
    max_leaves=12))


def as_json(value):
    return json.loads(json.dumps(value))


def diff(old, new):
    frozen, patch = delta.update(new, delta.freeze(old))
    assert frozen == delta.freeze(new)  # the same frozen state as freezing it afresh
    return patch


@given(states, states)
def test_a_patch_from_the_frozen_state_gives_the_new_state_as_json(old, new):
    patched = delta.apply(as_json(old), as_json(diff(old, new)))
    assert json.dumps(patched, sort_keys=True) == json.dumps(as_json(new), sort_keys=True)


@given(plain_states, plain_states)
def test_the_frozen_patch_is_the_patch_of_the_states_as_json(old, new):
    """The same operations as from the live old state (for a new state of JSON types: a
    tuple where the old state had a list is replaced whole instead of grown)."""
    new = as_json(new)
    assert as_json(diff(old, new)) == delta.diff(as_json(old), new)


@given(states)
def test_a_frozen_state_is_the_state_as_json(state):
    frozen = delta.freeze(state)
    assert json.loads(delta.frozen_json(frozen)) == as_json(state)
    assert delta.thaw(frozen) == as_json(state)


def test_no_previous_state_is_one_whole_replace():
    state = {"you": 1, "view": {"hand": ["QC"]}}
    assert delta.update(state, None) == (delta.freeze(state), [
        {"op": "replace", "path": "", "value": state}])


def test_an_unchanged_state_with_integer_keys_gives_no_operation():
    state = {"view": {1: ["QC"], 2: ("KS", "AH")}, "you": 0}
    assert diff(state, {"view": {1: ["QC"], 2: ["KS", "AH"]}, "you": 0}) == []
    assert diff(state, {"view": {1: ["QC"]}, "you": 0}) == [
        {"op": "remove", "path": "/view/2"}]


def test_a_member_replaced_by_another_of_the_same_count_is_removed_and_added():
    assert diff({"view": {"a": 1}}, {"view": {"b": 1}}) == [
        {"op": "add", "path": "/view/b", "value": 1}, {"op": "remove", "path": "/view/a"}]


def test_a_value_several_states_share_is_encoded_once_and_diffed_once():
    trick = [{"seat": 0, "card": "QC"}]
    freezer = delta.Freezer()
    olds = [delta.freeze({"you": seat, "view": {"trick": []}}) for seat in range(2)]
    news = [{"you": seat, "view": {"trick": trick}} for seat in range(2)]
    frozen, patches = zip(*(freezer.update(state, old) for old, state in zip(olds, news, strict=True)), strict=True)
    assert frozen[0]["view"]["trick"] is frozen[1]["view"]["trick"]
    assert patches[0] == patches[1] == [
        {"op": "add", "path": "/view/trick/-", "value": {"seat": 0, "card": "QC"}}]


def test_a_known_encoding_is_taken_as_it_is():
    table = {"id": 7, "seats": [{"seat": 0}]}
    freezer = delta.Freezer()
    encoded = b'{"id":7,"seats":[{"seat":0}]}'
    freezer.known(table, encoded)
    assert freezer.freeze({"table": table, "you": 0})["table"] is encoded


def test_the_frozen_state_is_not_tracked_by_the_collector():
    frozen = delta.freeze({"you": 0, "hand": ["QC", "KS"], "tricks": [{"cards": ["AH"]}]})
    assert not gc.is_tracked(frozen)
    assert isinstance(frozen["hand"], bytes) and frozen["you"] == 0  # a scalar as itself
    view = delta.freeze({"view": {"hand": ["QC", "KS"], "tricks": [{"cards": ["AH"]}]}})
    assert not gc.is_tracked(view["view"])


def test_a_frozen_member_takes_the_memory_of_its_json_not_of_the_encoder_buffer():
    """(orjson's result keeps the 4 KB buffer it wrote into: 30 members were 120 KB.)"""
    tracemalloc.start()
    try:
        frozen = [delta.freeze({"you": seat, "view": {"to_move": seat, "hand": [str(seat)]}})
                  for seat in range(1000)]
        size, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(frozen) == 1000 and size < 1000 * 2048  # three members and two dicts each


def test_an_unchanged_member_keeps_the_bytes_of_the_last_state():
    """Freezing against the audience's last state keeps its bytes for every member whose JSON
    is the same (no copy, and the diff skips it by identity); the patch is the same."""
    old = delta.freeze({"you": 0, "deadline": None, "view": {"hand": ["QC", "KS"], "trick": []}})
    state = {"you": 0, "deadline": 4.5, "view": {"hand": ["QC"], "trick": ["KS"]}}
    new, patch = delta.update(state, old)
    assert new["you"] is old["you"]
    assert new["deadline"] is not old["deadline"] and new["view"]["hand"] is not old["view"]["hand"]
    assert new == delta.freeze(state)
    assert patch == [
        {"op": "replace", "path": "/deadline", "value": 4.5},
        {"op": "replace", "path": "/view/hand", "value": ["QC"]},
        {"op": "add", "path": "/view/trick/-", "value": "KS"}]


def test_a_value_the_last_seq_encoded_is_not_encoded_again(monkeypatch):
    """A freezer given what the last seq's encoded takes the JSON of a value handed out
    again as the same object, and encodes an equal but new object itself."""
    hand, trick = ["QC", "KS"], [{"seat": 0, "card": "QC"}]
    first = delta.Freezer()
    last, _patch = first.update({"you": 0, "view": {"hand": hand, "trick": trick}}, None)
    encoded: list[object] = []
    real = delta.orjson.dumps
    monkeypatch.setattr(delta.orjson, "dumps", lambda value, **kw: encoded.append(value) or real(value, **kw))
    second = delta.Freezer(first.encoded)
    new_trick = [*trick, {"seat": 1, "card": "AH"}]
    frozen, patch = second.update({"you": 0, "view": {"hand": hand, "trick": new_trick}}, last)
    assert encoded == [new_trick]
    assert frozen["view"]["hand"] is last["view"]["hand"]
    assert patch == [{"op": "add", "path": "/view/trick/-", "value": {"seat": 1, "card": "AH"}}]
    assert frozen == delta.freeze({"you": 0, "view": {"hand": hand, "trick": new_trick}})
