"""Each audience keeps its last state frozen (JSON bytes, app.rooms.delta.freeze) and diffs the
next state against it: the patches turn the decoded old state into exactly the new one, also
where the live state holds what JSON changes (non-string keys, tuples, floats)."""

from __future__ import annotations

import gc
import json

from hypothesis import given
from hypothesis import strategies as st

from app.rooms import delta

atoms = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text("ab/~", max_size=3))
values = st.recursive(atoms, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner),
    st.dictionaries(st.one_of(st.text("ab/~", max_size=2), st.integers(0, 3)), inner,
                    max_size=4)), max_leaves=12)
states = st.dictionaries(st.sampled_from(["view", "table", "you", "scores"]), values)


def as_json(value):
    return json.loads(json.dumps(value))


@given(states, states)
def test_a_patch_from_the_frozen_state_gives_the_new_state_as_json(old, new):
    patch = delta.diff_frozen(delta.freeze(old), new)
    patched = delta.apply(as_json(old), as_json(patch))
    assert json.dumps(patched, sort_keys=True) == json.dumps(as_json(new), sort_keys=True)


def test_no_previous_state_is_one_whole_replace():
    state = {"you": 1, "view": {"hand": ["QC"]}}
    assert delta.diff_frozen(None, state) == [{"op": "replace", "path": "", "value": state}]


def test_an_unchanged_state_with_integer_keys_gives_no_operation():
    state = {"view": {1: ["QC"], 2: ("KS", "AH")}, "you": 0}
    frozen = delta.freeze(state)
    assert delta.diff_frozen(frozen, {"view": {1: ["QC"], 2: ["KS", "AH"]}, "you": 0}) == []
    assert delta.diff_frozen(frozen, {"view": {1: ["QC"]}, "you": 0}) == [
        {"op": "remove", "path": "/view/2"}]


def test_the_frozen_state_is_not_tracked_by_the_collector():
    frozen = delta.freeze({"view": {"hand": ["QC", "KS"], "tricks": [{"cards": ["AH"]}]}})
    assert isinstance(frozen, bytes) and not gc.is_tracked(frozen)
