"""Who sits where: the draw of a round and the arena's tables. Pure: no I/O, no clock, no
randomness but the ``random.Random`` passed in.

Rules (docs/tournaments.md, "Seating"):

- A round has ``ceil(people / size)`` tables and the people are spread evenly over them (a
  table holds one person more than another at most); computer players fill the empty seats.
- Round 1 is a random draw.
- Later rounds seat by standing, leaders together: the best ``n0`` players at table 1, the
  next at table 2, … — unless that puts two people together who shared a table before
  ("repeat table-mates"). Repeats are avoided first, then players stay as near to their
  standing's table as they can: the arrangement minimises (repeats, displacement), where
  displacement is the sum over players of how many tables away from their standing's table
  they sit. Up to :data:`EXACT_LIMIT` people the minimum is found exactly; above, from the
  standing's seating by exchanging two players while that lowers the number of repeats
  (the exchange that moves the players least first).
- Within a table the seats are shuffled (the duplicate series deals seat N the same cards at
  every table, so no one keeps a seat by their standing).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence

#: a seat at a drawn table: a person's id, or None for a computer player
Seat = int | None
#: people up to which :func:`arrange` searches every arrangement
EXACT_LIMIT = 9


def table_sizes(people: int, size: int) -> list[int]:
    """How many people sit at each table of a round: ``ceil(people / size)`` tables, as even
    as can be, the fuller tables first. ``[]`` for nobody. Raises ValueError for a size < 1."""
    if size < 1:
        raise ValueError("a table has at least one seat")
    if people <= 0:
        return []
    tables = math.ceil(people / size)
    base, extra = divmod(people, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _seated(groups: Sequence[Sequence[int]], size: int, rng: random.Random) -> list[list[Seat]]:
    """Each group at a table of ``size`` seats: computer players (None) in the empty seats,
    every seat shuffled."""
    tables = []
    for group in groups:
        seats: list[Seat] = [*group, *([None] * (size - len(group)))]
        rng.shuffle(seats)
        tables.append(seats)
    return tables


def first_round(people: Sequence[int], size: int, rng: random.Random) -> list[list[Seat]]:
    """Round 1: a random draw of ``people`` (distinct ids) to tables of ``size`` seats."""
    order = list(people)
    rng.shuffle(order)
    return _seated(_chunks(order, table_sizes(len(order), size)), size, rng)


def by_standing(ranked: Sequence[int], size: int, met: Mapping[int, set[int]],
                rng: random.Random) -> list[list[Seat]]:
    """A later round: ``ranked`` (the people, best standing first) at tables of ``size``,
    leaders together, repeat table-mates (``met[p]``: whom p shared a table with) avoided
    where the numbers allow (:func:`arrange`)."""
    return _seated(arrange(ranked, table_sizes(len(ranked), size), met), size, rng)


def _chunks(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    groups, start = [], 0
    for n in sizes:
        groups.append(list(order[start:start + n]))
        start += n
    return groups


def repeats(groups: Sequence[Sequence[int]], met: Mapping[int, set[int]]) -> int:
    """The pairs of people at one table who shared a table before."""
    return sum(1 for group in groups for a, b in itertools.combinations(group, 2)
               if b in met.get(a, ()) or a in met.get(b, ()))


def displacement(groups: Sequence[Sequence[int]], ranked: Sequence[int],
                 sizes: Sequence[int]) -> int:
    """How far the players sit from their standing's table, in tables, summed."""
    ideal = {p: t for t, group in enumerate(_chunks(ranked, sizes)) for p in group}
    return sum(abs(t - ideal[p]) for t, group in enumerate(groups) for p in group)


def arrange(ranked: Sequence[int], sizes: Sequence[int],
            met: Mapping[int, set[int]]) -> list[list[int]]:
    """The groups (table by table, of ``sizes``) that minimise (repeats, displacement) for
    ``ranked`` (best first): the standing's own tables when they repeat nobody (nothing can do
    better: no repeats, no displacement), else exactly up to EXACT_LIMIT people (the search
    grows as n!), by improving exchanges above."""
    plain = _chunks(ranked, sizes)
    if repeats(plain, met) == 0:
        return plain
    if len(ranked) <= EXACT_LIMIT:
        return _exact(ranked, sizes, met)
    return _improved(ranked, sizes, met)


def _exact(ranked: Sequence[int], sizes: Sequence[int],
           met: Mapping[int, set[int]]) -> list[list[int]]:
    best: tuple[tuple[int, int], list[list[int]]] | None = None

    def fill(table: int, left: list[int], groups: list[list[int]]) -> None:
        nonlocal best
        if table == len(sizes):
            cost = (repeats(groups, met), displacement(groups, ranked, sizes))
            if best is None or cost < best[0]:
                best = (cost, [list(g) for g in groups])
            return
        if best is not None and repeats(groups, met) > best[0][0]:
            return  # repeats only grow as tables fill
        for group in itertools.combinations(left, sizes[table]):
            remaining = [p for p in left if p not in group]
            fill(table + 1, remaining, [*groups, list(group)])

    fill(0, list(ranked), [])
    assert best is not None
    return best[1]


def _improved(ranked: Sequence[int], sizes: Sequence[int],
              met: Mapping[int, set[int]]) -> list[list[int]]:
    groups = _chunks(ranked, sizes)
    ideal = {p: t for t, group in enumerate(groups) for p in group}

    def clashes(person: int, group: Sequence[int]) -> int:
        known = met.get(person, set())
        return sum(1 for q in group if q != person and (q in known or person in met.get(q, ())))

    for _pass in range(4 * len(ranked)):  # each accepted exchange removes a repeat
        best = None
        for t, group in enumerate(groups):
            for p in group:
                here = clashes(p, group)
                if here == 0:
                    continue
                for u, other in enumerate(groups):
                    if u == t:
                        continue
                    for q in other:
                        gain = (here + clashes(q, other)
                                - clashes(p, [x for x in other if x != q])
                                - clashes(q, [x for x in group if x != p]))
                        if gain <= 0:
                            continue
                        moved = (abs(u - ideal[p]) + abs(t - ideal[q])
                                 - abs(t - ideal[p]) - abs(u - ideal[q]))
                        key = (-gain, moved)
                        if best is None or key < best[0]:
                            best = (key, t, p, u, q)
        if best is None:
            break
        _key, t, p, u, q = best
        groups[t] = [q if x == p else x for x in groups[t]]
        groups[u] = [p if x == q else x for x in groups[u]]
    return groups


def arena_groups(free: Sequence[int], size: int, waited: Mapping[int, float],
                 fill_wait: float, met_last: Mapping[int, set[int]]) -> list[list[int]]:
    """The arena's new tables among the ``free`` people (best arena score first): as many full
    tables of ``size`` as they make, the longest waiters first, arranged by score with last
    table-mates kept apart where possible; the rest wait, unless the longest waiter among them
    has waited ``fill_wait`` seconds (``waited[p]``): then they sit down together and computer
    players fill the table. Each group is a list of people (no computer players)."""
    by_wait = sorted(free, key=lambda p: -waited.get(p, 0.0))
    full = (len(free) // size) * size
    chosen = set(by_wait[:full])
    left = [p for p in by_wait[full:]]
    ranked = [p for p in free if p in chosen]
    groups = arrange(ranked, [size] * (full // size), met_last) if full else []
    if left and max(waited.get(p, 0.0) for p in left) >= fill_wait:
        groups.append([p for p in free if p in set(left)])
    return groups
