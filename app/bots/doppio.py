"""Doppio bots: beginner, intermediate, expert. Scores are penalties: lower is better.

- beginner: a random discard, a random answer to a catch window, and Doppio once its hand
  value is low (at most ``BEGINNER_DOPPIO``, 6), the one thing every beginner learns first.
- intermediate: discards the card whose removal (with the shift toward the divider and the
  refill at the outer position) leaves the lowest expected hand value, the refill drawn from the
  cards it has not seen (or its held caught card); catches a card that lowers that expectation
  (one that completes a pair); declares Doppio with a low hand value, lower still early on.
- expert: the same discards and catches, and Doppio decided by Monte Carlo: the other hands are
  sampled from the unseen cards and improved by as many intermediate turns as those seats have
  had; it declares when the chance of being strictly lowest makes the expected penalty of
  declaring smaller than that of playing on.

A hand is the list of six cards ``[L3, L2, L1, R1, R2, R3]``; pairs are L1-R1, L2-R2, L3-R3.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from app.bots import legal_of

BONUS = "B"
CARDS = tuple(str(n) for n in range(3, 14)) + (BONUS,)
POSITIONS = ("L3", "L2", "L1", "R1", "R2", "R3")
PAIRS = ((2, 3), (1, 4), (0, 5))
DEFAULT_BUDGET_MS = 40
DEFAULT_WORLDS = 200
MIN_WORLDS = 8
CATCH_GAIN = 1.0  # expected hand value a catch must save
BEGINNER_DOPPIO = 6  # a beginner declares Doppio with a hand value at most this


#: each card's face value (the bonus card: -2); a lookup, as the playouts of the post-game
#: analysis ask for hand values millions of times
FACES = {card: -2 if card == BONUS else int(card) for card in CARDS}


def face(card: str) -> int:
    return FACES[card]


def hand_value(hand: Sequence[str]) -> int:
    total = 0
    for a, b in PAIRS:
        left, right = hand[a], hand[b]
        if left != right:
            total += FACES[left] + FACES[right]
    return total


def discard(hand: Sequence[str], position: str, refill: str) -> list[str]:
    """The hand after discarding ``position``: that side shifts in, ``refill`` goes outermost."""
    if position[0] == "L":
        side = [hand[2], hand[1], hand[0]]
        side.pop(int(position[1]) - 1)
        side.append(refill)
        return [side[2], side[1], side[0], hand[3], hand[4], hand[5]]
    side = [hand[3], hand[4], hand[5]]
    side.pop(int(position[1]) - 1)
    side.append(refill)
    return [hand[0], hand[1], hand[2], *side]


def unseen_pool(view: Mapping[str, Any]) -> Counter[str]:
    """The cards this seat has not seen: the deck minus its hand, the dead pile, held cards and
    the card in an open catch window."""
    pool: Counter[str] = Counter({card: 4 for card in CARDS})
    pool.subtract(view["hand"])
    pool.subtract(view["dead"])
    pool.subtract(card for card in view["held"] if card is not None)
    window = view.get("catch_window")
    if window is not None:
        pool.subtract([window["card"]])
    return Counter({card: n for card, n in pool.items() if n > 0})


def expected_after(hand: Sequence[str], position: str, refill: str | None, pool: Counter[str]) -> float:
    """Expected hand value after discarding ``position`` (refill known, or drawn from pool)."""
    if refill is not None:
        return float(hand_value(discard(hand, position, refill)))
    total = sum(pool.values())
    if not total:
        return float(hand_value(hand))
    # the refill lies in the outer place (L3 or R3): the two inner pairs are the same for
    # every refill, only the outer pair is summed over the pool (the same integer sum as
    # valuing each refilled hand whole)
    shifted = discard(hand, position, BONUS)
    fixed = 0
    for a, b in PAIRS[:2]:
        if shifted[a] != shifted[b]:
            fixed += FACES[shifted[a]] + FACES[shifted[b]]
    other = shifted[5] if position[0] == "L" else shifted[0]
    outer = FACES[other]
    spread = sum(n * (FACES[card] + outer) for card, n in pool.items() if card != other)
    return (fixed * total + spread) / total


def best_discard(hand: Sequence[str], refill: str | None, pool: Counter[str]) -> tuple[str, float]:
    """The position to discard and the expected hand value after it."""
    best = min(POSITIONS, key=lambda p: (expected_after(hand, p, refill, pool), p))
    return best, expected_after(hand, best, refill, pool)


def lookahead_discard(hand: Sequence[str], refill: str | None, pool: Counter[str]) -> tuple[str, float]:
    """Two turns deep: the discard whose expected value after the best next discard is lowest
    (the next refill drawn from ``pool``); returns the position and that expectation."""
    total = sum(pool.values())
    best, best_value = POSITIONS[0], float("inf")
    for position in POSITIONS:
        draws = [(refill, 1)] if refill is not None else list(pool.items())
        weight = 1 if refill is not None else total
        expectation = 0.0
        for card, n in draws:
            after = discard(hand, position, card)
            now = hand_value(after)
            _, later = best_discard(after, None, pool)
            expectation += n * min(now, later)
        expectation /= max(weight, 1)
        if expectation < best_value - 1e-9:
            best, best_value = position, expectation
    return best, best_value


class DoppioBot:
    """A Doppio player of one level."""

    game = "doppio"
    acts_out_of_turn = True  # catch windows

    def __init__(self, level: str, rules: Mapping[str, Any] | None = None,
                 budget_ms: int | None = None, worlds: int | None = None) -> None:
        self.level = level
        self.max_value = int((rules or {}).get("doppio_max_value", 10))
        self.budget_ms = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
        self.worlds = DEFAULT_WORLDS if worlds is None else worlds

    def choose(self, view: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
        legal = legal_of(view)
        me = view["seat"]
        if not legal or me not in view["to_act"]:
            return None
        kinds = {a["type"]: a for a in legal}
        if "catch" in kinds:
            if self.level == "beginner":
                return dict(kinds["catch" if rng.random() < 0.5 else "pass"])
            return dict(kinds["catch" if self._wants(view) else "pass"])
        discards = [a for a in legal if a["type"] == "discard"]
        if not discards:
            return None
        if self.level == "beginner":
            if "doppio" in kinds and view["hand_value"] <= BEGINNER_DOPPIO:
                return dict(kinds["doppio"])
            return dict(rng.choice(discards))
        hand = view["hand"]
        pool = unseen_pool(view)
        held = view["held"][me]
        position, after = best_discard(hand, held, pool)
        if self.level == "expert":
            position, _ = lookahead_discard(hand, held, pool)
        if "doppio" in kinds and self._declare(view, after, pool, rng):
            return dict(kinds["doppio"])
        return next(dict(a) for a in discards if a["position"] == position)

    def _wants(self, view: Mapping[str, Any]) -> bool:
        """Catch when the card, as the next refill, beats a card from the deck by CATCH_GAIN."""
        hand = view["hand"]
        pool = unseen_pool(view)
        card = view["catch_window"]["card"]
        choose = lookahead_discard if self.level == "expert" else best_discard
        _, with_card = choose(hand, card, pool)
        _, without = choose(hand, None, pool)
        return with_card <= without - CATCH_GAIN

    def _declare(self, view: Mapping[str, Any], after: float, pool: Counter[str],
                 rng: random.Random) -> bool:
        value = view["hand_value"]
        if value > self.max_value:
            return False
        if self.level == "intermediate":
            return value <= 3 or (value <= 6 and view["deck_size"] <= 8)
        chance = self._lowest_chance(view, value, pool, rng)
        declare_cost = (1 - chance) * (20 + value)
        go_on_cost = min(float(value), after) * (0.9 if view["deck_size"] > 6 else 1.0)
        return declare_cost < go_on_cost

    def _lowest_chance(self, view: Mapping[str, Any], value: int, pool: Counter[str],
                       rng: random.Random) -> float:
        """Monte Carlo: chance that every other hand is worth more than ``value``."""
        me = view["seat"]
        players = view["players"]
        initial_deck = 48 - 6 * players
        turns = max(0, (initial_deck - view["deck_size"]) // players)
        cards = [card for card, n in pool.items() for _ in range(n)]
        deadline = time.perf_counter() + self.budget_ms / 1000.0
        wins = done = 0
        others = [seat for seat in range(players) if seat != me]
        if len(cards) < 6 * len(others):
            return 0.0
        while done < self.worlds and (done < MIN_WORLDS or time.perf_counter() < deadline):
            rng.shuffle(cards)
            hands = {seat: cards[6 * k:6 * k + 6] for k, seat in enumerate(others)}
            rest = cards[6 * len(others):] or [BONUS]
            draws = Counter(rest)
            lowest = True
            for k, seat in enumerate(others):
                hand = hands[seat]
                for turn in range(turns):
                    position, _ = best_discard(hand, None, draws)
                    hand = discard(hand, position, rest[(k * turns + turn) % len(rest)])
                if hand_value(hand) <= value:
                    lowest = False
                    break
            wins += lowest
            done += 1
        return wins / done if done else 0.0


def make_bot(level: str, *, rules: Mapping[str, Any] | None = None, budget_ms: int | None = None,
             worlds: int | None = None) -> DoppioBot:
    """The Doppio bot of ``level``."""
    return DoppioBot(level, rules=rules, budget_ms=budget_ms, worlds=worlds)
