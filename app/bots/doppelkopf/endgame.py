"""The bridge between a sampled world (``table.Table``) and the exact solver (``solver``).

``position(world)`` turns a complete world into a solver :class:`~.solver.Position` (the
hands, the trick, the parties, what the finished tricks already gave); ``solved_values`` gives
the exact value of each card for the seat to move and ``finish`` the exact value of the rest
of a deal being played out. Values are *seat values*: what the deciding seat's own party
gets, from its own view (Doppelkopf game points as the engine scores the seat; Doublehead
Kids golden coins of the own team minus the other team's, since the expert plays for the
lead), plus that party's card points as a second figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from app.bots.doppelkopf.solver import SCALE, Position, Solver
from app.bots.doppelkopf.table import Table
from app.bots.doppelkopf.values import DealValue, Summary, announcement_steps
from app.games.doppelkopf.bits import INDEX
from app.games.doppelkopf.contracts import CardOrder
from app.games.doppelkopf.rules import Rules
from app.games.doppelkopf.state import KONTRA, RE, Trick


@lru_cache(maxsize=256)
def deal_value(rules: Rules, contract: str, solo: bool, levels: tuple[int, int],
               steps: tuple[int, int]) -> DealValue:
    """A shared :class:`DealValue` (its memo of scores lives across worlds and decisions)."""
    return DealValue(rules, contract, solo, levels, steps)


def solvable(world: Table) -> bool:
    """Whether the solver can take the world: every party known (a wedding is clarified)."""
    return None not in world.party


def position(world: Table) -> Position:
    """The solver position of a complete world (all hands filled, parties known)."""
    return make_position(world.rules, world.order, world.contract, world.party, world.hands,
                         world.trick, world.leader, world.tricks, world.levels, world.announcements)


def make_position(rules: Rules, order: CardOrder, contract: str, party: Sequence[int | None],
                  hands: Sequence[Sequence[str]], trick: Sequence[tuple[int, str]], leader: int,
                  tricks: Sequence[Trick], levels: Sequence[int],
                  announcements: Sequence[tuple[int, str]]) -> Position:
    """A solver position from the parts of a deal in play: ``tricks`` are the finished ones
    (their points and special points make the position's summary), ``party`` RE/KONTRA per
    seat (None counts as Kontra)."""
    parties = tuple(KONTRA if p is None else p for p in party)
    solo = parties.count(RE) == 1
    value = deal_value(rules, contract, solo, (levels[RE], levels[KONTRA]),
                       announcement_steps(announcements, parties))
    summary: Summary = (0, False, False, 0, 0)
    pos = Position(order, rules, tuple(tuple(h) for h in hands), tuple((s, c) for s, c in trick),
                   leader, rules.hand_size - len(tricks), parties, summary, value)
    solver = Solver(pos)
    for index, done in enumerate(tricks):
        plays = [(p.seat, INDEX[p.card]) for p in done.plays]
        summary = solver.finish(plays, done.winner, index == rules.hand_size - 1, summary)
    return replace(pos, summary=summary)


def seat_value(value: int, pos: Position, seat: int) -> tuple[float, int]:
    """(score of ``seat``, card points of its party minus 120) from a solver value."""
    net, re_points = divmod(value, SCALE)
    if pos.party[seat] == RE:
        factor = 3 if pos.value.solo and not pos.value.kids else 1
        return float(net * factor), re_points - 120
    return float(-net), 120 - re_points


def solved_values(world: Table, seat: int) -> dict[str, tuple[float, int]]:
    """The exact seat value of each card ``seat`` (to move) may play in the world."""
    pos = position(world)
    return {card: seat_value(value, pos, seat) for card, value in Solver(pos).values().items()}


def finish(world: Table, seat: int) -> tuple[float, int]:
    """The exact seat value of the rest of the world's deal (every player plays perfectly)."""
    pos = position(world)
    return seat_value(Solver(pos).best_value(), pos, seat)
