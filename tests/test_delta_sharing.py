"""app.rooms.delta.changes: the patch turns the old state into the new one, and the state kept
for the next diff equals the new one while reusing every unchanged member of the old one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rooms import delta

keys = st.sampled_from(["a", "b", "c", "d/e", "f~g"])
leaves = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text("xy", max_size=2))
json_values = st.recursive(
    leaves,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=12)
states = st.dictionaries(keys, json_values, max_size=5)


@settings(max_examples=400, deadline=None)
@given(states, states)
def test_the_patch_applies_and_the_kept_state_equals_the_new_one(old, new):
    patch, kept = delta.changes(old, new)
    assert delta.apply(old, patch) == new
    assert kept == new
    assert patch == delta.diff(old, new)


@settings(max_examples=200, deadline=None)
@given(states, st.data())
def test_unchanged_members_are_the_old_objects(old, data):
    new = {key: (data.draw(json_values) if data.draw(st.booleans()) else _copy(value))
           for key, value in old.items()}
    _, kept = delta.changes(old, new)
    for key, value in old.items():
        if new[key] == value and type(new[key]) is type(value):
            assert kept[key] is value


def test_a_grown_list_keeps_the_old_items_and_adds_the_new():
    first = {"n": 1}
    old = {"tricks": [first]}
    patch, kept = delta.changes(old, {"tricks": [{"n": 1}, {"n": 2}]})
    assert patch == [{"op": "add", "path": "/tricks/-", "value": {"n": 2}}]
    assert kept["tricks"][0] is first and kept["tricks"] == [{"n": 1}, {"n": 2}]


def test_no_old_state_is_a_whole_replace_and_keeps_the_new_state():
    new = {"a": [1]}
    patch, kept = delta.changes(None, new)
    assert patch == [{"op": "replace", "path": "", "value": new}] and kept is new


def _copy(value):
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
