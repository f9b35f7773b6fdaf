"""Sampling the hidden hands: deals that fit everything one seat has seen.

The unseen cards (the deck minus the own hand and every card played) are dealt to the other
seats in their hand sizes so that a seat that showed void in a suit gets none of it, a seat
known to be Re in a normal game holds a queen of clubs if it has not played one, a seat known
to be Kontra holds none, a bride holds her unplayed queens of clubs, and the cards a poverty
partner knows about lie where they must. Cards are placed most-constrained first, each to a
seat chosen in proportion to its free places; a dead end restarts, and after a few restarts
the void constraints are dropped rather than fail.

Beyond these certainties the play tells more, and ``likelihood`` weighs a sampled deal by how
well it explains what the others did (``Signals``): a seat that could not follow a plain suit
and did not trump either mostly holds no trump; a seat that announced Re or Kontra mostly
holds a strong hand (many trumps). The expert averages its worlds with these weights.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from app.bots.doppelkopf.inference import PlayModel
from app.bots.doppelkopf.table import QC, Table
from app.games.doppelkopf.cards import CARD_POINTS, deck
from app.games.doppelkopf.contracts import TRUMP
from app.games.doppelkopf.state import KONTRA, RE

#: weight of a world that gives trumps to a seat that threw off a low card instead of trumping
#: (first such discard, each further one)
DISCARD_WITH_TRUMP = (0.5, 0.8)
SMEAR_POINTS = 10  # a discard of this many card points is a smear (partner's trick): no signal
#: weight of a world by the trumps (held and played) of a seat that announced Re / Kontra
ANNOUNCER_TRUMPS = {0: 0.1, 1: 0.1, 2: 0.15, 3: 0.25, 4: 0.45, 5: 0.75}


class Signals:
    """What the others' play says beyond certainties, read from the view once per decision.

    discards: per seat, how often it could not follow a plain suit and threw off a low plain
    card (neither a trump nor a smear). announcers: the seats (not the own) that announced Re/Kontra themselves
    in a game whose parties are hidden; played_trumps: trumps each seat has played.
    """

    def __init__(self, table: Table, view: Mapping[str, Any] | None) -> None:
        suit_of = table.suit_of
        self.discards = [0, 0, 0, 0]
        self.played_trumps = [0, 0, 0, 0]
        tricks = [trick["cards"] for trick in (view or {}).get("tricks", [])]
        if view is not None and view.get("trick"):
            tricks.append(view["trick"])
        for plays in tricks:
            led = suit_of[plays[0]["card"]]
            for play in plays:
                suit = suit_of[play["card"]]
                if suit == TRUMP:
                    self.played_trumps[play["seat"]] += 1
                elif led != TRUMP and suit != led and CARD_POINTS[play["card"]] < SMEAR_POINTS:
                    self.discards[play["seat"]] += 1
        self.announcers: set[int] = set()
        if table.contract in ("normal", "wedding", "poverty"):
            for item in (view or {}).get("announcements", []):
                if item["value"] in ("re", "kontra") and item["seat"] != table.me:
                    self.announcers.add(item["seat"])

    def likelihood(self, hands: list[list[str]], suit_of: Mapping[str, str], me: int) -> float:
        """The weight of a sampled deal: how well it explains the signals (1.0: fully)."""
        weight = 1.0
        for seat in range(4):
            if seat == me:
                continue
            discards, announced = self.discards[seat], seat in self.announcers
            if not discards and not announced:
                continue
            trumps = sum(1 for card in hands[seat] if suit_of[card] == TRUMP)
            if discards and trumps:
                weight *= DISCARD_WITH_TRUMP[0] * (DISCARD_WITH_TRUMP[1] if discards > 1 else 1.0)
            if announced:
                weight *= ANNOUNCER_TRUMPS.get(trumps + self.played_trumps[seat], 1.0)
        return weight


class Sampler:
    """Deals consistent with a table (built once per decision, sampled many times)."""

    def __init__(self, table: Table, view: Mapping[str, Any] | None = None) -> None:
        me = table.me
        self.table = table
        self.me = me
        remaining = deck(table.rules.nines)
        for card in table.hands[me]:
            remaining.remove(card)
        for card, count in table.played.items():
            for _ in range(count):
                remaining.remove(card)
        self.others = [s for s in range(4) if s != me]
        self.need = {s: table.sizes[s] for s in self.others}
        self.forced: dict[int, list[str]] = {s: [] for s in self.others}
        self.forbidden: dict[int, set[str]] = {s: set() for s in self.others}
        suit_of = table.suit_of
        qc_played = {s: 0 for s in range(4)}
        for trick in table.tricks:
            for play in trick.plays:
                if play.card == QC:
                    qc_played[play.seat] += 1
        for seat, card in table.trick:
            if card == QC:
                qc_played[seat] += 1
        unseen_qc = remaining.count(QC)
        if table.contract == "normal":
            for s in self.others:
                if table.party[s] == KONTRA:
                    self.forbidden[s].add(QC)
                elif table.party[s] == RE and qc_played[s] == 0 and unseen_qc:
                    self.forced[s].append(QC)
                    unseen_qc -= 1
        elif table.contract == "wedding" and table.bride is not None and table.bride != me:
            self.forced[table.bride] += [QC] * unseen_qc
        poverty = (view or {}).get("poverty") or {}
        gift = poverty.get("cards")
        if gift and table.contract == "poverty":
            poor, taker = poverty.get("poor"), poverty.get("taker")
            holder = taker if me == poor else poor
            if holder is not None and holder != me:
                left = list(remaining)
                for card in gift:
                    if card in left and card not in table.hands[me]:
                        left.remove(card)
                        self.forced[holder].append(card)
        for s in self.others:
            for card in self.forced[s]:
                remaining.remove(card)
        self.cards = remaining
        self.void_cards = {s: {c for c in set(remaining) if suit_of[c] in table.void[s]} | self.forbidden[s]
                           for s in self.others}
        self.free = {s: self.need[s] - len(self.forced[s]) for s in self.others}
        self.signals = Signals(table, view)
        self.model = PlayModel(table)

    def sample_weighted(self, rng: random.Random) -> tuple[list[list[str]], float]:
        """A deal (as ``sample``) and its likelihood under the signals of the play."""
        hands = self.sample(rng)
        weight = self.signals.likelihood(hands, self.table.suit_of, self.me)
        return hands, weight * self.model.likelihood(hands)

    def sample(self, rng: random.Random) -> list[list[str]]:
        """Hands for all four seats (the own hand as it is)."""
        for attempt in range(12):
            hands = self._try(rng, strict=attempt < 10)
            if hands is not None:
                return hands
        hands = self._try(rng, strict=False, forbid=False)
        assert hands is not None
        return hands

    def _try(self, rng: random.Random, *, strict: bool, forbid: bool = True) -> list[list[str]] | None:
        cards = list(self.cards)
        rng.shuffle(cards)
        others = self.others
        if strict or forbid:
            blocked = self.void_cards if strict else self.forbidden
            cards.sort(key=lambda c: sum(1 for s in others if c not in blocked[s]))
        else:
            blocked = {s: set() for s in others}
        free = dict(self.free)
        hands = {s: list(self.forced[s]) for s in others}
        for card in cards:
            seats = [s for s in others if free[s] > 0 and card not in blocked[s]]
            if not seats:
                return None
            total = sum(free[s] for s in seats)
            pick = rng.random() * total
            for seat in seats:
                pick -= free[seat]
                if pick < 0:
                    break
            hands[seat].append(card)
            free[seat] -= 1
        result: list[list[str]] = [[], [], [], []]
        result[self.me] = list(self.table.hands[self.me])
        for s in others:
            result[s] = hands[s]
        return result


def random_hands(rules_nines: bool, own: list[str], me: int, rng: random.Random) -> list[list[str]]:
    """The other three hands dealt at random from the rest of the deck (before any play)."""
    rest = deck(rules_nines)
    for card in own:
        rest.remove(card)
    rng.shuffle(rest)
    size = len(own)
    hands: list[list[str]] = []
    index = 0
    for seat in range(4):
        if seat == me:
            hands.append(list(own))
        else:
            hands.append(rest[index:index + size])
            index += size
    return hands
