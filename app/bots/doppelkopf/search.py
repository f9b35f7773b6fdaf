"""The expert: perfect-information Monte Carlo over deals sampled from what the seat has seen.

For each decision the expert samples complete deals that fit its view (``sampling``), plays
each candidate out to the end of the deal in every sampled deal with the intermediate policy
for all four players (each of them reading only its own hand and the public play), scores the
result with the engine's scoring, and takes the candidate with the best mean score. The same
deals serve every candidate (common random numbers). An announcement is made when, over the
same playouts, the score with it beats the score without it by a margin, clear of the noise of
the sampled deals (:meth:`CardSearch.wants_announcement`). Reservations are
searched the same way over random deals of the other hands.

Candidates: every playable card is searched on the first ``NARROW_AT`` sampled deals (or
until half the time budget is used), then only the best ``CANDIDATES`` of them
(:meth:`CardSearch.narrow`); the intermediate's rules of thumb only order them and pick a card
that leads the rest by ``CLEAR_GAP`` card points, which is played unsearched.

Time: sampling stops at ``worlds`` deals or when ``budget_ms`` has passed (after at least
``MIN_WORLDS``), whichever comes first; a card choice also stops as soon as it is settled
(:meth:`CardSearch.settled`): the deals go to the close choices, not the clear ones.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from app.bots.doppelkopf import endgame
from app.bots.doppelkopf.policy import (
    card_values,
    choose_card,
    choose_declaration,
    solo_strength,
    wedding_partner,
)
from app.bots.doppelkopf.sampling import Sampler, random_hands
from app.bots.doppelkopf.table import QC, Table, golden_coins
from app.games.doppelkopf.contracts import TEAM_CONTRACTS, card_order, order_name_of
from app.games.doppelkopf.rules import Rules
from app.games.doppelkopf.state import KONTRA, RE

ANNOUNCE_MARGIN = 0.6  # game points an announcement must gain on average
ANNOUNCE_MIN_WORLDS = 10  # an announcement needs at least this many sampled deals
ANNOUNCE_Z = 1.0  # standard errors of its mean by which the gain must clear the margin
PRIOR_BONUS = 0.2  # game points credited to the intermediate's own choice (breaks near-ties)
CARD_POINT_WEIGHT = 1.0 / 60  # game points per card point of the own party (smooths the score)
MIN_WORLDS = 4
CANDIDATES = 3  # cards searched to the end: the best few after the first sampled deals
NARROW_AT = 10  # every playable card is searched on this many deals, then the best CANDIDATES
CLEAR_GAP = 25.0  # the intermediate's best is played unsearched when it leads by this (card points)
SOLVE_TRICKS = 3  # from this many tricks left (the current one included) every world is solved
FINISH_TRICKS = 2  # a playout is finished by the solver from this many tricks left
SETTLE_MIN_WORLDS = 16  # a card search may stop early (settled) from this many sampled deals
SETTLE_EVERY = 4  # ... and asks whether it is settled after every this many
SETTLE_Z = 2.0  # standard errors by which the best card must lead another (or tie it)
INDIFFERENT = 0.25  # game points: a difference known to be smaller needs no more deals
#: PRIOR_BONUS and INDIFFERENT in Doublehead Kids golden coins. A basic round is won or lost
#: (the own team's coins minus the other's, +1 or -1) where a Doppelkopf normal game's score
#: spans several game points, so a near-tie is a smaller figure (docs/bots.md, "Near-ties in
#: golden coins")
KIDS_NEAR_TIES = (0.07, 0.08)


def playout(sim: Table) -> None:
    """Play ``sim`` to the end with the intermediate policy for every seat."""
    while len(sim.tricks) < sim.n_tricks:
        seat = sim.to_move
        sim.play(seat, choose_card(sim, seat))


def playout_value(sim: Table, me: int) -> tuple[float, int]:
    """Play ``sim`` out (policy, then the exact solver for the last ``FINISH_TRICKS`` tricks);
    return ``me``'s seat value (score, own party's card points - 120)."""
    while sim.n_tricks - len(sim.tricks) > FINISH_TRICKS or (
            not endgame.solvable(sim) and len(sim.tricks) < sim.n_tricks):
        seat = sim.to_move
        sim.play(seat, choose_card(sim, seat))
    if len(sim.tricks) < sim.n_tricks:
        return endgame.finish(sim, me)
    return seat_score(sim, me, sim.outcome_scores()), _party_points(sim, me)


def near_ties(rules: Rules) -> tuple[float, float]:
    """(bonus of the intermediate's own card, difference too small to search on) in the unit
    of the game's score: ``(PRIOR_BONUS, INDIFFERENT)`` game points, or ``KIDS_NEAR_TIES``
    golden coins (Doublehead Kids)."""
    return KIDS_NEAR_TIES if golden_coins(rules) else (PRIOR_BONUS, INDIFFERENT)


def seat_score(sim: Table, me: int, scores: Sequence[int]) -> float:
    """``me``'s score of a finished world: game points, or (Doublehead Kids) the own team's
    golden coins minus the other team's."""
    if not golden_coins(sim.rules):
        return float(scores[me])
    party = sim.party[me]
    other = next((s for s in range(4) if sim.party[s] != party), None)
    return float(scores[me] - (scores[other] if other is not None else 0))


class Clock:
    """Deadline and sample cap of one decision."""

    def __init__(self, budget_ms: float, worlds: int) -> None:
        now = time.perf_counter()
        self.deadline = now + budget_ms / 1000.0
        self.halfway = now + budget_ms / 2000.0
        self.worlds = worlds

    def past_half(self) -> bool:
        """Whether half the time budget is used."""
        return time.perf_counter() >= self.halfway

    def more(self, done: int) -> bool:
        if done >= self.worlds:
            return False
        return done < MIN_WORLDS or time.perf_counter() < self.deadline


class CardSearch:
    """The weighted mean seat value of each candidate card (and of announcing with it) over
    sampled worlds: exact solutions once ``SOLVE_TRICKS`` tricks are left, else playouts.

    announces: announcement actions to weigh; each is scored on the same playouts (played to
    the end by the policy) with the own party's level raised.
    facts: when given (the post-game analysis), every sampled deal's outcome of each card is
    appended to ``facts[card]`` (:func:`fact`); the search itself never reads it.
    """

    def __init__(self, view: Mapping[str, Any], table: Table, cards: Sequence[str],
                 announces: Sequence[Mapping[str, Any]] = (), keep: int | None = None,
                 facts: dict[str, list[dict[str, Any]]] | None = None) -> None:
        self.table = table
        self.cards = list(cards)
        #: after ``NARROW_AT`` sampled deals only this many cards are searched on (None: all)
        self.keep = keep
        self.announces = list(announces)
        self.sampler = Sampler(table, view)
        self.totals = dict.fromkeys(cards, 0.0)
        self.scores = dict.fromkeys(cards, 0.0)
        self.gains = {(card, i): 0.0 for card in cards for i in range(len(self.announces))}
        #: per (card, announcement): its gain in each sampled deal (for its standard error)
        self.gain_draws: dict[tuple[str, int], list[float]] = {key: [] for key in self.gains}
        self.weight = 0.0
        self.done = 0
        self.solve = table.n_tricks - len(table.tricks) <= SOLVE_TRICKS and not self.announces
        #: per sampled deal: its weight and each card's value in it (score + smoothing)
        self.samples: list[tuple[float, dict[str, float]]] = []
        self.facts = facts

    def _add(self, card: str, weight: float, score: float, points: int,
             sim: Table | None = None) -> None:
        """Count one sampled deal's outcome of ``card``; ``sim``: the world played on (for the
        facts of the trick in play), None when the solver valued it."""
        value = score + CARD_POINT_WEIGHT * points
        self.totals[card] += weight * value
        self.scores[card] += weight * score
        self.samples[-1][1][card] = value
        if self.facts is not None:
            trick = _trick_fact(sim, self.table.me, len(self.table.tricks)) if sim is not None else None
            self.facts.setdefault(card, []).append(fact(weight, score, points, trick))

    def run(self, rng: random.Random, clock: Clock,
            bonus: Mapping[str, float] | None = None) -> None:
        """Sample deals until ``clock`` says stop; with ``bonus`` (game points added to a
        card's mean when choosing, e.g. the prior's), also once the choice is settled."""
        me = self.table.me
        while clock.more(self.done) and not (
                bonus is not None and self.done % SETTLE_EVERY == 0 and self.settled(bonus)):
            hands, weight = self.sampler.sample_weighted(rng)
            self.samples.append((weight, {}))
            world = self.table.world(hands)
            if self.solve and endgame.solvable(world):
                for card, (score, points) in endgame.solved_values(world, me).items():
                    if card in self.totals:
                        self._add(card, weight, score, points, self._after(world, card))
            else:
                for card in self.cards:
                    sim = world.copy()
                    sim.play(me, card)
                    if self.announces:
                        playout(sim)  # to the end: the announcements are scored on these tricks
                        score = seat_score(sim, me, sim.outcome_scores())
                        for i, announce in enumerate(self.announces):
                            raised = sim.outcome_scores(_raised(sim, me, announce))
                            gain = seat_score(sim, me, raised) - score
                            self.gains[card, i] += weight * gain
                            self.gain_draws[card, i].append(gain)
                        self._add(card, weight, score, _party_points(sim, me), sim)
                    else:
                        self._add(card, weight, *playout_value(sim, me), sim)
            self.weight += weight
            self.done += 1
            if self.done == NARROW_AT or (self.done >= MIN_WORLDS and clock.past_half()):
                self.narrow(bonus or {})

    def _after(self, world: Table, card: str) -> Table | None:
        """For the facts of a solved world: the world after ``card``, if it ends the trick in
        play (then its outcome is known without the solver's line); None otherwise."""
        if self.facts is None or len(world.trick) != 3:
            return None
        sim = world.copy()
        sim.play(self.table.me, card)
        return sim

    def narrow(self, bonus: Mapping[str, float]) -> None:
        """Keep searching only the ``keep`` cards of the best weighted mean value plus
        ``bonus`` so far. Called after ``NARROW_AT`` sampled deals, or earlier once half the
        time budget is used (a slow core or a short budget: the best few still get the rest)."""
        if self.keep is None or len(self.cards) <= self.keep:
            return
        values = self.chosen_by(bonus)
        self.cards.sort(key=lambda card: -values[card])
        del self.cards[self.keep:]

    def settled(self, bonus: Mapping[str, float]) -> bool:
        """Whether the choice of card is settled (:func:`settled`) from
        ``SETTLE_MIN_WORLDS`` sampled deals; never while an announcement is weighed (its gain
        needs every deal)."""
        if self.announces or len(self.cards) < 2 or self.done < SETTLE_MIN_WORLDS:
            return False
        return settled(self.samples, self.cards, bonus, near_ties(self.table.rules)[1])

    def chosen_by(self, bonus: Mapping[str, float]) -> dict[str, float]:
        """What a card is chosen by: its :meth:`means` plus its ``bonus`` (the game's unit)."""
        return {card: mean + bonus.get(card, 0.0) for card, mean in self.means().items()}

    def means(self) -> dict[str, float]:
        """Each card's weighted mean seat value plus the card-point smoothing (to choose by)."""
        weight = self.weight or 1.0
        return {card: total / weight for card, total in self.totals.items()}

    def expected(self) -> dict[str, float]:
        """Each card's weighted mean seat value (the expected score itself)."""
        weight = self.weight or 1.0
        return {card: total / weight for card, total in self.scores.items()}

    def announce_gain(self, card: str, index: int = 0) -> float:
        """What announcement ``index`` adds on average when ``card`` is played."""
        return self.gains[card, index] / (self.weight or 1.0)

    def wants_announcement(self, card: str, index: int = 0) -> bool:
        """Whether announcement ``index`` is worth making with ``card``: after at least
        ``ANNOUNCE_MIN_WORLDS`` sampled deals, its mean gain less ``ANNOUNCE_Z`` standard
        errors still beats ``ANNOUNCE_MARGIN`` game points. The bound keeps a gain that a few
        lucky deals made look large from being announced: the expert weighs the same
        announcement again at its next turn, and taking the best of several noisy estimates
        would announce too often."""
        if self.done < ANNOUNCE_MIN_WORLDS or self.weight <= 0.0:
            return False
        weights = [weight for weight, _values in self.samples]
        gain, error = weighted_mean_error(weights, self.gain_draws[card, index])
        return gain - ANNOUNCE_Z * error > ANNOUNCE_MARGIN


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
    solving = table.n_tricks - len(table.tricks) <= SOLVE_TRICKS and announce is None
    if len(cards) > 1:
        values = card_values(table, me, cards)
        cards.sort(key=lambda c: (-values[c], table.power[c], c))
        prior = cards[0]
        clear = values[cards[0]] - values[cards[1]] > CLEAR_GAP
        if not solving and clear:
            cards = cards[:1]
        if len(cards) == 1 and announce is None:
            return next(a for a in plays if a["card"] == prior)
    prior = cards[0]
    search = CardSearch(view, table, cards, [announce] if announce is not None else [],
                        keep=None if solving else CANDIDATES)
    bonus = {} if solving else {prior: near_ties(table.rules)[0]}
    search.run(rng, Clock(budget_ms, worlds), bonus)
    means = search.chosen_by(bonus)
    best = max(search.cards, key=lambda c: (means[c], c == prior))
    if announce is not None and search.wants_announcement(best):
        return announce
    return next(a for a in plays if a["card"] == best)


def settled(samples: Sequence[tuple[float, Mapping[str, float]]], cards: Sequence[str],
            bonus: Mapping[str, float], indifferent: float = INDIFFERENT) -> bool:
    """Whether more sampled deals would hardly change the choice among ``cards``, by weighted
    mean value plus ``bonus`` (the game's unit: game points, golden coins). ``samples``: per
    sampled deal its weight and each card's value in it (the same deals for every card, so
    differences are paired). Settled when the best card leads each other one by more than
    ``SETTLE_Z`` standard errors of their mean paired difference, or that difference lies
    within ``indifferent`` either way at the same confidence (a tie: either card costs less
    than that)."""
    weights = [weight for weight, _values in samples]
    total = sum(weights)
    if total <= 0.0:
        return False

    def chosen_by(card: str) -> float:
        return sum(w * values[card] for w, values in samples) / total + bonus.get(card, 0.0)

    best = max(cards, key=chosen_by)
    for other in cards:
        if other == best:
            continue
        centre, error = weighted_mean_error(
            weights, [values[best] - values[other] for _w, values in samples])
        error *= SETTLE_Z
        gap = centre + bonus.get(best, 0.0) - bonus.get(other, 0.0)
        if not (gap - error > 0.0 or -indifferent < gap - error <= gap + error < indifferent):
            return False
    return True


def weighted_mean_error(weights: Sequence[float], draws: Sequence[float]) -> tuple[float, float]:
    """The weighted mean of ``draws`` and its standard error, the deals counted as their
    effective number (the square of the weights' sum over the sum of their squares; equal weights:
    the population standard deviation over the square root of the count). Raises
    ValueError when the weights sum to zero or less."""
    total = sum(weights)
    if total <= 0.0:
        raise ValueError("the weights must sum to more than zero")
    effective = total * total / sum(w * w for w in weights)
    centre = sum(w * d for w, d in zip(weights, draws, strict=True)) / total
    variance = sum(w * (d - centre) ** 2 for w, d in zip(weights, draws, strict=True)) / total
    return centre, (variance / effective) ** 0.5


def fact(weight: float, score: float, points: int,
         trick: tuple[bool, int] | None = None) -> dict[str, Any]:
    """One sampled deal's outcome for the post-game analysis' reasons: ``{"w": weight,
    "score": the seat's score, "points": its party's card points (0-240), "won": whether
    the score is positive, "trick": whether its party took the trick in play (None: not
    known, the solver finished it), "trick_points": that trick's card points}``."""
    return {"w": weight, "score": score, "points": points + 120, "won": score > 0,
            "trick": None if trick is None else trick[0],
            "trick_points": None if trick is None else trick[1]}


def _trick_fact(sim: Table, me: int, index: int) -> tuple[bool, int] | None:
    """(whether ``me``'s party took trick ``index`` of a played-out world, its card points),
    or None when the policy did not play it to its end (the solver finished the deal)."""
    if len(sim.tricks) <= index:
        return None
    trick = sim.tricks[index]
    party = sim.party[me]
    return (trick.winner == me or (party is not None and sim.party[trick.winner] == party),
            trick.points)


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
                   contract: str, partner: int | None = None) -> Table:
    """A world at the start of the play of ``contract`` declared by ``me`` (or all healthy);
    ``partner``: the seat a wedding names (Doublehead Kids), known to all from the start."""
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
    elif contract == "wedding" and partner is not None:
        t.bride = me
        t.party = [RE if s in (me, partner) else KONTRA for s in range(4)]
        t.shown[partner] = True
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


def declaration_candidates(view: Mapping[str, Any], rules: Rules) -> list[str]:
    """What the expert weighs at its declaration: the intermediate's choice, healthy, the
    wedding against the silent solo with both queens of clubs, and every solo of some
    strength (a poverty follows the rule of thumb: its exchange is not simulated)."""
    legal = [a["value"] for a in view["legal"]]
    hand = list(view["hand"])
    baseline = choose_declaration(view, rules)
    candidates = [baseline]
    if baseline == "poverty":
        return candidates
    for value in ("healthy", "wedding"):
        if value in legal and value not in candidates:
            candidates.append(value)
    for value in legal:
        if value.startswith("solo_") and value not in candidates and solo_strength(hand, value, rules.nines) > 0.0:
            candidates.append(value)
    return candidates


Plan = tuple[str, int | None]  # a contract to declare and the wedding partner to name (or None)


def declaration_values(view: Mapping[str, Any], rules: Rules, rng: random.Random, clock: Clock,
                       candidates: Sequence[str],
                       facts: dict[str, list[dict[str, Any]]] | None = None) -> dict[str, float]:
    """Each candidate declaration's mean seat value over random deals of the other hands,
    played out (policy, exact last tricks) as if it were the contract. A wedding that names
    its partner (Doublehead Kids) is played with the partner the bots name
    (``policy.wedding_partner``). ``facts``: as :func:`plan_values`, keyed by declaration."""
    named = rules.wedding_clarification == "named"
    plans: list[Plan] = [(value, wedding_partner(view["seat"]) if value == "wedding" and named else None)
                         for value in candidates]
    found: dict[Plan, list[dict[str, Any]]] | None = {} if facts is not None else None
    means = plan_values(view, rules, rng, clock, plans, found)
    if facts is not None and found is not None:
        facts.update({value: found.get((value, partner), []) for value, partner in plans})
    return {value: means[value, partner] for value, partner in plans}


def plan_values(view: Mapping[str, Any], rules: Rules, rng: random.Random, clock: Clock,
                plans: Sequence[Plan],
                facts: dict[Plan, list[dict[str, Any]]] | None = None) -> dict[Plan, float]:
    """Each plan's mean seat value (plus the card-point smoothing) over the same random deals
    of the other hands, the deal played out from its first trick as that plan makes it.
    ``facts``: when given, each deal's outcome of each plan (:func:`fact`) is appended."""
    me = view["seat"]
    hand = list(view["hand"])
    totals = dict.fromkeys(plans, 0.0)
    done = 0
    while clock.more(done):
        hands = random_hands(rules.nines, hand, me, rng)
        for plan in plans:
            sim = contract_table(rules, view["dealer"], me, hands, *plan)
            score, points = playout_value(sim, me)
            totals[plan] += score + CARD_POINT_WEIGHT * points
            if facts is not None:
                facts.setdefault(plan, []).append(fact(1.0, score, points))
        done += 1
    return {plan: total / max(done, 1) for plan, total in totals.items()}


def partner_values(view: Mapping[str, Any], rules: Rules, rng: random.Random,
                   clock: Clock, facts: dict[int, list[dict[str, Any]]] | None = None) -> dict[int, float]:
    """Each seat the bride may name (phase ``wedding_partner``; for the post-game analysis):
    the mean seat value of the wedding with that partner, over the same random deals of the
    other hands (every partner played by the intermediate's rules, so a partner's skill does
    not show). ``facts``: as :func:`plan_values`, keyed by partner."""
    partners = [a["partner"] for a in view["legal"]]
    found: dict[Plan, list[dict[str, Any]]] | None = {} if facts is not None else None
    means = plan_values(view, rules, rng, clock, [("wedding", p) for p in partners], found)
    if facts is not None and found is not None:
        facts.update({partner: found.get(("wedding", partner), []) for partner in partners})
    return {partner: means["wedding", partner] for partner in partners}


def search_declaration(view: Mapping[str, Any], rules: Rules, rng: random.Random,
                       budget_ms: float, worlds: int) -> dict[str, Any]:
    """Healthy or a reservation: the intermediate's choice against the alternatives."""
    legal = {a["value"]: a for a in view["legal"]}
    candidates = declaration_candidates(view, rules)
    if len(candidates) == 1:
        return legal[candidates[0]]
    values = declaration_values(view, rules, rng, Clock(budget_ms, worlds), candidates)
    best = max(candidates, key=lambda c: (values[c], c == candidates[0]))
    return legal[best]
