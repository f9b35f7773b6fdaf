"""The seating rules (app/tournaments/pairing.py) as properties: nobody twice in a round, no
table over its size, everyone seated, tables as even as can be, and repeat table-mates
minimal (compared with every arrangement, up to twelve people)."""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st

from app.tournaments.pairing import (
    EXACT_LIMIT,
    arena_groups,
    arrange,
    by_standing,
    displacement,
    first_round,
    repeats,
    table_sizes,
)


def _people(tables):
    return [p for t in tables for p in t if p is not None]


def _check_round(tables, people, size):
    seated = _people(tables)
    assert sorted(seated) == sorted(people)  # everyone, nobody twice
    assert all(len(t) == size for t in tables)  # every table has its seats …
    counts = [sum(p is not None for p in t) for t in tables]
    assert max(counts) - min(counts) <= 1  # … people as even as can be
    assert len(tables) == -(-len(people) // size)


@st.composite
def history(draw, low=1, high=40):
    """People, a table size, and the tables of one or two earlier rounds (who met whom)."""
    n = draw(st.integers(low, high))
    size = draw(st.sampled_from([2, 3, 4]))
    seed = draw(st.integers(0, 10**6))
    rng = random.Random(seed)
    people = list(range(100, 100 + n))
    met: dict[int, set[int]] = {}
    for _round in range(draw(st.integers(1, 2))):
        for table in first_round(people, size, rng):
            group = [p for p in table if p is not None]
            for p in group:
                met.setdefault(p, set()).update(set(group) - {p})
    ranked = people[:]
    rng.shuffle(ranked)
    return people, size, met, ranked, rng


@given(st.integers(1, 60), st.sampled_from([2, 3, 4]), st.integers(0, 10**6))
def test_first_round_seats_everyone_once_at_tables_of_the_size(n, size, seed):
    people = list(range(n))
    tables = first_round(people, size, random.Random(seed))
    _check_round(tables, people, size)


@given(history())
def test_later_rounds_seat_everyone_once_and_never_more_repeats_than_the_plain_standing(h):
    people, size, met, ranked, rng = h
    tables = by_standing(ranked, size, met, rng)
    _check_round(tables, people, size)
    groups = [[p for p in t if p is not None] for t in tables]
    plain, start = [], 0
    for n in table_sizes(len(ranked), size):
        plain.append(ranked[start:start + n])
        start += n
    assert repeats(groups, met) <= repeats(plain, met)


def _every_arrangement(ranked, sizes):
    def fill(left, k):
        if k == len(sizes):
            yield []
            return
        for group in itertools.combinations(left, sizes[k]):
            rest = [p for p in left if p not in group]
            for tail in fill(rest, k + 1):
                yield [list(group), *tail]
    return fill(list(ranked), 0)


@given(history(low=2, high=9))
def test_repeat_table_mates_are_minimal_and_then_the_leaders_meet(h):
    people, size, met, ranked, _rng = h
    sizes = table_sizes(len(ranked), size)
    mine = arrange(ranked, sizes, met)
    best = min((repeats(g, met), displacement(g, ranked, sizes))
               for g in _every_arrangement(ranked, sizes))
    assert (repeats(mine, met), displacement(mine, ranked, sizes)) == best


def test_without_history_the_leaders_sit_together_in_standing_order():
    ranked = [7, 3, 9, 1, 5, 2, 8, 4]
    assert arrange(ranked, [4, 4], {}) == [[7, 3, 9, 1], [5, 2, 8, 4]]


def test_sixteen_people_after_a_round_meet_nobody_again():
    people = list(range(16))
    rng = random.Random(3)
    met: dict[int, set[int]] = {}
    for table in first_round(people, 4, rng):
        for p in table:
            met.setdefault(p, set()).update(set(table) - {p})
    ranked = people[:]
    rng.shuffle(ranked)
    tables = by_standing(ranked, 4, met, rng)
    assert repeats(tables, met) == 0
    assert len(ranked) > EXACT_LIMIT  # the exchanging search, not the exact one


def test_table_sizes_are_even_and_fuller_first():
    assert table_sizes(13, 4) == [4, 3, 3, 3]
    assert table_sizes(5, 4) == [3, 2]
    assert table_sizes(8, 4) == [4, 4]
    assert table_sizes(1, 4) == [1]
    assert table_sizes(0, 4) == []


def test_arena_seats_full_tables_and_fills_a_short_one_only_after_the_wait():
    waited = {1: 40.0, 2: 35.0, 3: 5.0, 4: 2.0, 5: 1.0, 6: 0.5}
    groups = arena_groups([1, 2, 3, 4, 5, 6], 4, waited, 30.0, {})
    assert groups == [[1, 2, 3, 4]]  # the longest waiters; 5 and 6 wait (1 s < 30 s)
    short = arena_groups([5, 6], 4, {5: 10.0, 6: 1.0}, 30.0, {})
    assert short == []
    filled = arena_groups([5, 6], 4, {5: 31.0, 6: 1.0}, 30.0, {})
    assert filled == [[5, 6]]


@given(st.lists(st.integers(0, 200), min_size=0, max_size=30, unique=True),
       st.sampled_from([2, 3, 4]), st.floats(0, 100))
def test_arena_groups_take_everyone_at_most_once_and_never_over_the_size(free, size, wait):
    waited = {p: float(p % 50) for p in free}
    groups = arena_groups(free, size, waited, wait, {})
    seated = [p for g in groups for p in g]
    assert len(seated) == len(set(seated))
    assert set(seated) <= set(free)
    assert all(1 <= len(g) <= size for g in groups)
    assert sum(1 for g in groups if len(g) < size) <= 1
