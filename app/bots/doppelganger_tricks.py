"""Doppelganger Tricks bots: beginner, intermediate, expert.

- beginner: a bid within reason (the intermediate's estimate give or take one trick, at most
  half the hand), a random legal card, a bonus card now and then at random.
- intermediate: bids the tricks its hand should take (high cards, navy cards), or 0 with a
  weak hand; plays to hit the bid: wins with the cheapest winning card while it needs tricks,
  sheds its highest card that does not win once it has enough, annihilating on purpose when
  that turns a trick (a navy card of the rank of the card that would win); takes the eye when
  the bid still looks exact, else the star.
- expert: Monte Carlo over hidden hands that fit the view (own hand, the trick, the last trick,
  every annihilated card, suits a seat showed it lacks) with intermediate playouts, for the
  bid as well as every card, within a time budget.

Cards are handled by name (``"N7"``: suit letter, rank 1..10); ``N`` is the navy suit. The
playouts follow suit, annihilate and find a trick's winner with the rules core's own trick
kernel (app/games/doppelganger_tricks/tricks.py).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from app.bots import legal_of
from app.games.doppelganger_tricks.tricks import LEAD_LETTERS, NAVY, RANK_OF, winner
from app.games.doppelganger_tricks.tricks import options as options_of

DEFAULT_BUDGET_MS = 60
DEFAULT_WORLDS = 200
MIN_WORLDS = 4

Plays = list[tuple[int, str, str | None]]  # (seat, card, named suit of a navy lead)


def rank(card: str) -> int:
    return RANK_OF[card]


def estimate_tricks(hand: Sequence[str], players: int) -> float:
    """Tricks a hand should take: high ranks, navy cards a little more."""
    chance = {10: 0.85, 9: 0.65, 8: 0.45, 7: 0.3, 6: 0.15}
    total = 0.0
    for card in hand:
        p = chance.get(rank(card), 0.05)
        if card[0] == NAVY:
            p += 0.1
        total += p
    return total * (0.85 if players == 4 else 0.75)


def intermediate_bid(hand: Sequence[str], players: int) -> int:
    estimate = estimate_tricks(hand, players)
    return 0 if estimate < 1.0 else int(round(estimate))


def beginner_bid(hand: Sequence[str], players: int, rng: random.Random) -> int:
    """A beginner's bid: the hand's estimate give or take one trick, never more than half the
    hand (5 of 10 cards, 6 of 12): a beginner misjudges a little, not wildly."""
    guess = intermediate_bid(hand, players) + rng.choice((-1, 0, 0, 1))
    return max(0, min(guess, len(hand) // 2))


def choose_play(hand: Sequence[str], plays: Plays, me: int, players: int, need: int,
                ) -> tuple[str, str | None]:
    """The intermediate's card: win cheaply while tricks are needed, else shed high cards."""
    options = options_of(hand, plays)
    last = len(plays) == players - 1
    want = need > 0
    best_option, best_value = options[0], float("-inf")
    for card, named in options:
        r = rank(card)
        trick = [*plays, (me, card, named)]
        wins = winner(trick) == me
        if not plays:
            value = float(r) if want else -float(r)
            if named is not None:
                value += 0.1 * sum(1 for c in hand if c[0] == named)
        elif want:
            value = (100.0 - r if last else 50.0 + r) if wins else -float(r)
        else:
            value = (-100.0 + r) if wins else float(r)
        if value > best_value:
            best_option, best_value = (card, named), value
    return best_option


def choose_bonus(options: Sequence[str], need: int, remaining: int) -> str | None:
    """The eye while the bid still looks exact (+3), else the star (+1)."""
    if "eye" in options and 0 <= need <= max(1, remaining // 2):
        return "eye"
    if "star" in options:
        return "star"
    return "eye" if "eye" in options else None


def _bonus_action(legal: Sequence[Mapping[str, Any]], value: str | None) -> dict[str, Any] | None:
    return next((dict(a) for a in legal if a["type"] == "take_bonus" and a["value"] == value), None)


def _find(legal: Sequence[Mapping[str, Any]], card: str, named: str | None) -> dict[str, Any]:
    for action in legal:
        if action["type"] == "play" and action["card"] == card and action.get("suit") == named:
            return dict(action)
    raise LookupError(card)  # pragma: no cover - options come from the same rules


def _view_plays(view: Mapping[str, Any]) -> Plays:
    return [(p["seat"], p["card"], p.get("suit")) for p in view["trick"]]


class DoppelgangerTricksBot:
    """A Doppelganger Tricks player of one level."""

    game = "doppelganger_tricks"
    #: nothing out of turn: a seat that may take a bonus card holds the turn (to_act) until it
    #: takes one or says "no bonus"
    acts_out_of_turn = False

    def __init__(self, level: str, budget_ms: int | None = None, worlds: int | None = None) -> None:
        self.level = level
        self.budget_ms = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
        self.worlds = DEFAULT_WORLDS if worlds is None else worlds

    def choose(self, view: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
        legal = legal_of(view)
        if not legal:
            return None
        me = view["seat"]
        players = view["players"]
        bonus = [a["value"] for a in legal if a["type"] == "take_bonus"]
        if bonus:
            taken = self._bonus(view, legal, bonus, rng)
            if taken is not None or me not in view["to_act"]:
                return taken
        if legal[0]["type"] == "decline_bonus":
            return dict(legal[0])
        if me not in view["to_act"]:
            return None
        if legal[0]["type"] == "bid":
            if self.level == "beginner":
                return {"seat": me, "type": "bid", "value": beginner_bid(view["hand"], players, rng)}
            if self.level == "expert":
                return {"seat": me, "type": "bid", "value": self._search_bid(view, rng)}
            return {"seat": me, "type": "bid", "value": intermediate_bid(view["hand"], players)}
        plays = [a for a in legal if a["type"] == "play"]
        if self.level == "beginner":
            return dict(rng.choice(plays))
        need = view["own_bid"] - view["tricks_won"][me]
        if self.level == "expert" and len(plays) > 1:
            card, named = self._search_play(view, rng)
        else:
            card, named = choose_play(view["hand"], _view_plays(view), me, players, need)
        return _find(legal, card, named)

    def _bonus(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], bonus: list[str],
               rng: random.Random) -> dict[str, Any] | None:
        me = view["seat"]
        if self.level == "beginner":
            if rng.random() < 0.5:
                return _bonus_action(legal, rng.choice(bonus))
            decline = [a for a in legal if a["type"] == "decline_bonus"]
            return dict(decline[0]) if decline else None
        need = (view["own_bid"] or 0) - view["tricks_won"][me]
        choice = choose_bonus(bonus, need, len(view["hand"]))
        if choice is None:
            decline = [a for a in legal if a["type"] == "decline_bonus"]
            return dict(decline[0]) if decline else None
        return _bonus_action(legal, choice)

    # --- expert -----------------------------------------------------------------------------

    def _unseen(self, view: Mapping[str, Any]) -> list[str]:
        players = view["players"]
        ranks = range(1, 11) if players == 4 else range(1, 10)
        known = set(view["hand"]) | {p["card"] for p in view["trick"]}
        if view.get("last_trick"):
            known |= {p["card"] for p in view["last_trick"]["plays"]}
        for item in view.get("annihilated", []):
            known |= set(item["cards"])
        return [f"{s}{r}" for s in (*LEAD_LETTERS, NAVY) for r in ranks if f"{s}{r}" not in known]

    def _voids(self, view: Mapping[str, Any]) -> dict[int, set[str]]:
        voids: dict[int, set[str]] = {s: set() for s in range(view["players"])}
        tricks = [view["trick"]]
        if view.get("last_trick"):
            tricks.append(view["last_trick"]["plays"])
        for plays in tricks:
            if not plays:
                continue
            first = plays[0]
            suit = first.get("suit") if first["card"][0] == NAVY else first["card"][0]
            for play in plays[1:]:
                if play["card"][0] not in (suit, NAVY):
                    voids[play["seat"]].add(suit)
        pending = view.get("bonus_pending")
        if pending is not None and pending != view["seat"]:
            voids[pending].add(NAVY)  # the table waits for its bonus choice: it holds no navy card
        return voids

    @staticmethod
    def _navy_holder(view: Mapping[str, Any]) -> int | None:
        """The other seat that must hold a navy card: its bonus chance is open and a bonus card
        is free, yet the table does not wait for it (``bonus_pending`` empty), which it does
        for every seat without a navy card (flow.bonus_pending)."""
        window, bonus = view.get("bonus_window"), view.get("bonus") or {}
        if window is None or window == view["seat"] or view.get("bids") is None:
            return None
        free = [holder for holder in bonus.values() if holder is None]
        if view.get("bonus_pending") is not None or not free or window in bonus.values():
            return None
        return window

    @staticmethod
    def _give_navy(hands: list[list[str]], seat: int, me: int, rng: random.Random,
                   voids: Mapping[int, set[str]]) -> None:
        """Swap a navy card from another hidden hand into ``seat``'s hand if it has none; the
        card given back in exchange is of a suit the donor may hold (``voids``). No such
        swap: the hands stay as they are."""
        if any(card[0] == NAVY for card in hands[seat]) or not hands[seat]:
            return
        swaps = [(other, navy, given) for other, hand in enumerate(hands) if other not in (seat, me)
                 for navy in hand if navy[0] == NAVY
                 for given, card in enumerate(hands[seat]) if card[0] not in voids.get(other, ())]
        if not swaps:
            return
        other, navy, given = rng.choice(swaps)
        hands[other][hands[other].index(navy)] = hands[seat][given]
        hands[seat][given] = navy

    def _sample(self, view: Mapping[str, Any], rng: random.Random, pool: list[str],
                voids: dict[int, set[str]]) -> list[list[str]]:
        me = view["seat"]
        players = view["players"]
        for _attempt in range(10):
            cards = list(pool)
            rng.shuffle(cards)
            hands: list[list[str]] = [[] for _ in range(players)]
            hands[me] = list(view["hand"])
            ok = True
            for seat in range(players):
                if seat == me:
                    continue
                size = view["hand_sizes"][seat]
                chosen = [c for c in cards if c[0] not in voids[seat]][:size]
                if len(chosen) < size:
                    ok = False
                    break
                for card in chosen:
                    cards.remove(card)
                hands[seat] = chosen
            if ok:
                self._must_hold_navy(view, hands, rng, voids)
                return hands
        cards = list(pool)
        rng.shuffle(cards)
        hands = [[] for _ in range(players)]
        hands[me] = list(view["hand"])
        for seat in range(players):
            if seat != me:
                size = view["hand_sizes"][seat]
                hands[seat], cards = cards[:size], cards[size:]
        self._must_hold_navy(view, hands, rng, voids)
        return hands

    def _must_hold_navy(self, view: Mapping[str, Any], hands: list[list[str]],
                        rng: random.Random, voids: Mapping[int, set[str]]) -> None:
        holder = self._navy_holder(view)
        if holder is not None:
            self._give_navy(hands, holder, view["seat"], rng, voids)

    def _playout(self, hands: list[list[str]], plays: Plays, to_move: int, bids: Sequence[int],
                 won: list[int], players: int) -> list[int]:
        """Play the round out with the intermediate policy; return tricks won per seat."""
        seat = to_move
        while any(hands):
            need = bids[seat] - won[seat]
            card, named = choose_play(hands[seat], plays, seat, players, need)
            hands[seat].remove(card)
            plays.append((seat, card, named))
            if len(plays) == players:
                taker = winner(plays)
                leader = plays[0][0]
                if taker is not None:
                    won[taker] += 1
                    seat = taker
                else:
                    seat = leader
                plays = []
            else:
                seat = (seat + 1) % players
        return won

    def _points(self, bid: int, won: int, eye: bool) -> float:
        if bid == 0:
            points = 7 if won == 0 else 0
        else:
            points = 3 if won == bid else 1 if abs(won - bid) == 1 else 0
        return points + (3 if eye and won == bid else 0)

    def _search_play(self, view: Mapping[str, Any], rng: random.Random) -> tuple[str, str | None]:
        me = view["seat"]
        players = view["players"]
        plays0 = _view_plays(view)
        options = options_of(view["hand"], plays0)
        pool = self._unseen(view)
        voids = self._voids(view)
        bids = view["bids"]
        eye = view["bonus"]["eye"] == me
        totals = {option: 0.0 for option in options}
        deadline = time.perf_counter() + self.budget_ms / 1000.0
        done = 0
        while done < self.worlds and (done < MIN_WORLDS or time.perf_counter() < deadline):
            hands = self._sample(view, rng, pool, voids)
            for option in options:
                sim = [list(h) for h in hands]
                sim[me].remove(option[0])
                plays = [*plays0, (me, option[0], option[1])]
                won = list(view["tricks_won"])
                if len(plays) == players:
                    taker = winner(plays)
                    nxt = taker if taker is not None else plays[0][0]
                    if taker is not None:
                        won[taker] += 1
                    plays = []
                else:
                    nxt = (me + 1) % players
                won = self._playout(sim, plays, nxt, bids, won, players)
                totals[option] += self._points(bids[me], won[me], eye)
            done += 1
        prior = choose_play(view["hand"], plays0, me, players, bids[me] - view["tricks_won"][me])
        totals[prior] += 0.05 * done
        return max(options, key=lambda o: totals[o])

    def _search_bid(self, view: Mapping[str, Any], rng: random.Random) -> int:
        me = view["seat"]
        players = view["players"]
        hand = list(view["hand"])
        base = intermediate_bid(hand, players)
        candidates = sorted({0, max(0, base - 1), base, base + 1})
        pool = self._unseen(view)
        totals = dict.fromkeys(candidates, 0.0)
        deadline = time.perf_counter() + self.budget_ms / 1000.0
        done = 0
        first = (view["dealer"] + 1) % players
        while done < self.worlds and (done < MIN_WORLDS or time.perf_counter() < deadline):
            hands = self._sample(view, rng, pool, {s: set() for s in range(players)})
            bids = [intermediate_bid(h, players) for h in hands]
            for bid in candidates:
                bids[me] = bid
                won = self._playout([list(h) for h in hands], [], first, bids, [0] * players, players)
                totals[bid] += self._points(bid, won[me], False)
            done += 1
        totals[base] += 0.05 * done
        return max(candidates, key=lambda b: totals[b])


def make_bot(level: str, *, rules: Mapping[str, Any] | None = None, budget_ms: int | None = None,
             worlds: int | None = None) -> DoppelgangerTricksBot:
    """The Doppelganger Tricks bot of ``level``."""
    return DoppelgangerTricksBot(level, budget_ms=budget_ms, worlds=worlds)
