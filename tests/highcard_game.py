"""A tiny test-only game implementing app.games.base.Game: "high card" tricks for 2-4 players.

Deck: ranks 9 T J Q K A in suits C S H D (names as Doppelkopf: ``QC``), one copy each, 3 cards
per player (``rules["hand"]``). First a ``declare`` round (``healthy`` or ``double``: doubles the
round's scores), then every seat plays one card per trick in turn; the highest rank wins (ties:
first played), the winner leads the next trick. Each trick won scores 1 (2 when doubled).
An ``announce`` (``value: "win"``) may be made by any seat that has not announced, at any time
during play: it is the "outside of one's turn" action rooms must route.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.games.base import (
    DealError,
    GameTraits,
    IllegalAction,
    MatchStatus,
    RoundOutcome,
    RulesError,
    best_seats,
    check_range,
)

RANKS = "9TJQKA"
DECK = [r + s for s in "CSHD" for r in RANKS]


@dataclass(frozen=True)
class Rules:
    hand: int = 3


@dataclass(frozen=True)
class State:
    rules: Rules
    players: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    declared: tuple[str | None, ...]
    trick: tuple[tuple[int, str], ...] = ()
    last_trick: tuple[tuple[int, str], ...] = ()
    leader: int = 0
    won: tuple[int, ...] = ()
    announced: tuple[int, ...] = ()


class HighCard:
    name = "highcard"
    player_counts = (2, 3, 4)
    presets = {"standard": {"hand": 3}, "long": {"hand": 5}}
    traits = GameTraits(option_ranges={"hand": (1, 6)})
    #: every number option of every game has its documented range (app.games.base.check_range)
    option_ranges = {"hand": (1, 6)}

    def make_rules(self, raw: Mapping[str, Any]) -> Rules:
        raw = dict(raw)
        preset = raw.pop("preset", "standard")
        if preset not in self.presets:
            raise RulesError("preset", f"unknown preset {preset!r}")
        options = {**self.presets[preset], **raw}
        for key in options:
            if key != "hand":
                raise RulesError(key, "unknown option")
        check_range("hand", options["hand"], self.option_ranges["hand"])
        return Rules(hand=options["hand"])

    def rules_json(self, rules: Rules) -> dict:
        return {"hand": rules.hand}

    def check_deal(self, rules, players, deal, deck) -> None:
        for i, hand in enumerate(deal):
            if len(hand) != rules.hand:
                raise DealError(f"deal[{i}]", f"{len(hand)} cards, expected {rules.hand}")
        cards = [c for hand in deal for c in hand] + list(deck)
        if sorted(cards) != sorted(DECK):
            raise DealError("deal", "not a permutation of the deck")

    def deal(self, rules, players, rng: random.Random):
        deck = list(DECK)
        rng.shuffle(deck)
        n = rules.hand
        return [deck[i * n:(i + 1) * n] for i in range(players)], deck[players * n:]

    def new_round(self, rules, players, deal: Sequence[Sequence[str]], deck, dealer) -> State:
        return State(rules=rules, players=players, dealer=dealer,
                     hands=tuple(tuple(h) for h in deal), declared=(None,) * players,
                     leader=(dealer + 1) % players, won=(0,) * players)

    def _declaring(self, state: State) -> int | None:
        for k in range(state.players):
            seat = (state.dealer + 1 + k) % state.players
            if state.declared[seat] is None:
                return seat
        return None

    def to_act(self, state: State) -> tuple[int, ...]:
        if self.is_over(state):
            return ()
        declaring = self._declaring(state)
        if declaring is not None:
            return (declaring,)
        return ((state.leader + len(state.trick)) % state.players,)

    def legal_actions(self, state: State, seat: int) -> list[dict]:
        if self.is_over(state):
            return []
        if self._declaring(state) is not None:
            if self._declaring(state) != seat:
                return []
            return [{"seat": seat, "type": "declare", "value": v} for v in ("healthy", "double")]
        actions = []
        if seat not in state.announced:
            actions.append({"seat": seat, "type": "announce", "value": "win"})
        if self.to_act(state) == (seat,):
            actions += [{"seat": seat, "type": "play", "card": c} for c in state.hands[seat]]
        return actions

    def apply(self, state: State, action: Mapping[str, Any]):
        seat = action.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalAction("no such seat")
        legal = self.legal_actions(state, seat)
        if dict(action) not in legal:
            raise IllegalAction("not your turn" if not legal else "that action is not allowed now")
        kind = action["type"]
        if kind == "declare":
            declared = list(state.declared)
            declared[seat] = action["value"]
            return replace(state, declared=tuple(declared)), [dict(action)]
        if kind == "announce":
            return replace(state, announced=state.announced + (seat,)), [dict(action)]
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != action["card"])
        trick = state.trick + ((seat, action["card"]),)
        events = [dict(action)]
        if len(trick) < state.players:
            return replace(state, hands=tuple(hands), trick=trick), events
        winner = max(trick, key=lambda p: (RANKS.index(p[1][0]), -trick.index(p)))[0]
        won = list(state.won)
        won[winner] += 1
        events.append({"type": "trick", "winner": winner})
        return replace(state, hands=tuple(hands), trick=(), last_trick=trick, leader=winner,
                       won=tuple(won)), events

    def view(self, state: State, seat: int | None) -> dict:
        return {
            "seat": seat,
            "dealer": state.dealer,
            "hand": list(state.hands[seat]) if seat is not None else [],
            "hand_sizes": [len(h) for h in state.hands],
            "trick": [{"seat": s, "card": c} for s, c in state.trick],
            "last_trick": [{"seat": s, "card": c} for s, c in state.last_trick],
            "declared": [d is not None for d in state.declared],
            "announcements": list(state.announced),
            "tricks_won": list(state.won),
            "to_act": list(self.to_act(state)),
            "legal": self.legal_actions(state, seat) if seat is not None else [],
            "over": self.is_over(state),
        }

    def is_over(self, state: State) -> bool:
        return all(not h for h in state.hands)

    def outcome(self, state: State) -> RoundOutcome:
        if not self.is_over(state):
            return RoundOutcome(finished=False, scores=(0,) * state.players)
        factor = 2 if "double" in state.declared else 1
        return RoundOutcome(finished=True, scores=tuple(w * factor for w in state.won),
                            details={"tricks": list(state.won)})

    def state_json(self, state: State) -> dict:
        return {"hands": [list(h) for h in state.hands], "won": list(state.won)}

    def match_status(self, rules, players, outcomes) -> MatchStatus:
        totals = [sum(o.scores[s] for o in outcomes) for s in range(players)]
        return MatchStatus(game_over=False, winners=best_seats(totals) if outcomes else ())


GAME = HighCard()
