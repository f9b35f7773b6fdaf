"""The expert: perfect-information Monte Carlo over deals sampled from what the seat has seen.

For each decision the expert samples complete deals that fit its view (``sampling``), plays
each candidate out to the end of the deal in every sampled deal with the intermediate policy
for all four players (each of them reading only its own hand and the public play), scores the
result with the engine's scoring, and takes the candidate with the best mean score. The same
deals serve every candidate (common random numbers). An announcement is made when, over the
same playouts, the score with it beats the score without it by a margin. Reservations are
searched the same way over random deals of the other hands.

Time: sampling stops at ``worlds`` deals or when ``budget_ms`` has passed (after at least
``min_worlds``), whichever comes first.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from app.bots.doppelkopf.policy import card_values, choose_card, choose_declaration, solo_strength
from app.bots.doppelkopf.sampling import Sampler, random_hands
from app.bots.doppelkopf.table import QC, Table
from app.games.doppelkopf.contracts import TEAM_CONTRACTS, card_order, order_name_of
from app.games.doppelkopf.rules import Rules
from app.games.doppelkopf.state import KONTRA, RE

ANNOUNCE_MARGIN = 0.6  # game points an announcement must gain on average
ANNOUNCE_MIN_WORLDS = 10  # an announcement needs at least this many sampled deals
PRIOR_BONUS = 0.2  # game points credited to the intermediate's own choice (breaks near-ties)
CARD_POINT_WEIGHT = 1.0 / 60  # game points per card point of the own party (smooths the score)
MIN_WORLDS = 4
CANDIDATES = 3  # cards searched: the intermediate's best few
CLEAR_GAP = 25.0  # the intermediate's best is played unsearched when it leads by this (card points)


def playout(sim: Table) -> None:
    """Play ``sim`` to the end with the intermediate policy for every seat."""
    while len(sim.tricks) < sim.n_tricks:
        seat = sim.to_move
        sim.play(seat, choose_card(sim, seat))


class Clock:
    """Deadline and sample cap of one decision."""

    def __init__(self, budget_ms: float, worlds: int) -> None:
        self.deadline = time.perf_counter() + budget_ms / 1000.0
        self.worlds = worlds

    def more(self, done: int) -> bool:
        if done >= self.worlds:
            return False
        return done < MIN_WORLDS or time.perf_counter() < self.deadline


def search_play(view: Mapping[str, Any], table: Table, rng: random.Random, budget_ms: float,
                worlds: int) -> dict[str, Any]:
    """The expert's action at its own turn in the play: a card, or first an announcement."""
    me = table.me
    plays = [a for a in view["legal"] if a["type"] == "play"]
    announces = [a for a in view["legal"] if a["type"] == "announce"]
    announce = announces[0] if announces and table.party[me] is not None else None
    if len(plays) == 1 and announce is None:
        return plays[0]
    cards = [a["card"] for a in plays]
    if len(cards) > 1:
        values = card_values(table, me, cards)
        cards.sort(key=lambda c: (-values[c], table.power[c], c))
        prior = cards[0]
        clear = values[cards[0]] - values[cards[1]] > CLEAR_GAP
        cards = cards[:1] if clear else cards[:CANDIDATES]
        if len(cards) == 1 and announce is None:
            return next(a for a in plays if a["card"] == prior)
    prior = cards[0]
    sampler = Sampler(table, view)
    clock = Clock(budget_ms, worlds)
    totals = dict.fromkeys(cards, 0.0)
    with_announce = dict.fromkeys(cards, 0.0)
    done = 0
    while clock.more(done):
        world = table.world(sampler.sample(rng))
        for card in cards:
            sim = world.copy()
            sim.play(me, card)
            playout(sim)
            base = sim.outcome_scores()[me]
            totals[card] += base + CARD_POINT_WEIGHT * _party_points(sim, me)
            if announce is not None:
                with_announce[card] += sim.outcome_scores(_raised(sim, me, announce))[me] - base
        done += 1
    totals[prior] += PRIOR_BONUS * done
    best = max(cards, key=lambda c: (totals[c], c == prior))
    if (announce is not None and done >= ANNOUNCE_MIN_WORLDS
            and with_announce[best] / done > ANNOUNCE_MARGIN):
        return announce
    return next(a for a in plays if a["card"] == best)


def _party_points(sim: Table, me: int) -> int:
    """Card points the own party took, minus half the deck (positive: ahead)."""
    party = sim.party[me]
    won = sum(t.points for t in sim.tricks if sim.party[t.winner] == party)
    return won - 120


def _raised(sim: Table, me: int, announce: Mapping[str, Any]) -> list[int]:
    levels = list(sim.levels)
    party = sim.party[me]
    if party is None:
        party = KONTRA
    level = {"re": 0, "kontra": 0, "no90": 1, "no60": 2, "no30": 3, "black": 4}[announce["value"]]
    levels[party] = max(levels[party], level)
    return levels


# --- reservations ------------------------------------------------------------------------

def contract_table(rules: Rules, dealer: int, me: int, hands: Sequence[Sequence[str]],
                   contract: str) -> Table:
    """A world at the start of the play of ``contract`` declared by ``me`` (or all healthy)."""
    if contract == "healthy":
        holders = [hand.count(QC) for hand in hands]
        if 2 in holders:
            contract, declarer = "silent_solo", holders.index(2)
        else:
            contract, declarer = "normal", None
    else:
        declarer = me
    swines = rules.swines and contract in TEAM_CONTRACTS and any(h.count("AD") == 2 for h in hands)
    order = card_order(order_name_of(contract), rules.nines, swines)
    t = Table.blank(rules, order, me)
    t.hands = [list(h) for h in hands]
    t.sizes = [len(h) for h in hands]
    t.contract = contract
    t.team = contract in TEAM_CONTRACTS
    t.declarer = declarer
    t.leader = (dealer + 1) % 4
    if contract.startswith("solo_") and rules.solo_leads == "soloist":
        t.leader = me
    t.to_move = t.leader
    if contract == "normal":
        t.party = [RE if QC in h else KONTRA for h in hands]
    elif contract == "wedding":
        t.bride, t.clarified = me, False
        t.party = [RE if s == me else None for s in range(4)]
    else:
        t.party = [RE if s == declarer else KONTRA for s in range(4)]
    if contract.startswith("solo_") and rules.solo_requires_no90 and rules.announcements:
        t.levels[RE] = 1
        t.announcements = [(me, "re"), (me, "no90")]
    if contract in ("wedding", "poverty") or contract.startswith("solo_"):
        t.shown[me] = True
    t.refresh_knowledge()
    return t


def search_declaration(view: Mapping[str, Any], rules: Rules, rng: random.Random,
                       budget_ms: float, worlds: int) -> dict[str, Any]:
    """Healthy or a reservation: the intermediate's choice against the plausible solos."""
    me = view["seat"]
    legal = {a["value"]: a for a in view["legal"]}
    hand = list(view["hand"])
    baseline = choose_declaration(view, rules)
    if baseline == "poverty":
        return legal[baseline]  # the poverty's exchange is not simulated: follow the rule of thumb
    candidates = [baseline]
    if baseline != "healthy":
        candidates.append("healthy")
    for value in legal:
        if value.startswith("solo_") and value not in candidates and solo_strength(hand, value, rules.nines) > 0.0:
            candidates.append(value)
    if len(candidates) == 1:
        return legal[candidates[0]]
    clock = Clock(budget_ms, worlds)
    totals = dict.fromkeys(candidates, 0.0)
    done = 0
    while clock.more(done):
        hands = random_hands(rules.nines, hand, me, rng)
        for value in candidates:
            sim = contract_table(rules, view["dealer"], me, hands, value)
            playout(sim)
            totals[value] += sim.outcome_scores()[me]
        done += 1
    best = max(candidates, key=lambda c: (totals[c], c == baseline))
    return legal[best]
