"""Reading hands from play: how likely a sampled deal makes the cards the others played.

The expert models every other seat as a player of the intermediate's rules of thumb
(``policy.card_values``) who mostly, not always, plays the card those rules value most. For a
sampled deal it rewinds the deal to the first trick (each seat's hand now plus the cards it
has played), replays every card played so far and, at each card another seat chose among
several, multiplies the deal's weight by ``exp((value of the card played - value of the best
card) / TEMPERATURE)``: 1 when the card is the one the rules pick, less the worse the rules
find it. A deal in which the others' cards look like good play under their sampled hands
counts more than one in which they look like mistakes — against the intermediate it reads
hands almost exactly; against people, who play differently, the temperature keeps it mild.

Announcements are taken as known from the first trick (the view does not say when they came).
A poverty's exchange and a wedding's clarification are replayed as the table simulator plays
them; a wedding that named its partner before the first trick (Doublehead Kids) is replayed
with that partner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from app.bots.doppelkopf.policy import card_values
from app.bots.doppelkopf.table import Table

#: card points of difference to the best card that divide a deal's weight by e
TEMPERATURE = 20.0
#: the weight factor of a card the sampled hand could not have played (a void broken)
IMPOSSIBLE = 0.01
#: a deal's weight never falls below this (every sampled deal keeps some say)
FLOOR = 1e-6


class PlayModel:
    """The replay of one decision's history, built once and applied to many sampled deals."""

    def __init__(self, table: Table) -> None:
        self.me = table.me
        self.history = [(p.seat, p.card) for trick in table.tricks for p in trick.plays]
        self.history += list(table.trick)
        self.start = _rewound(table)
        self.active = any(seat != self.me for seat, _ in self.history)

    def likelihood(self, hands: Sequence[Sequence[str]]) -> float:
        """The weight of a deal whose hidden hands now are ``hands`` (1.0: every card the
        others played is the one the rules of thumb pick from the sampled hand)."""
        if not self.active:
            return 1.0
        initial = [list(hand) for hand in hands]
        for seat, card in self.history:
            initial[seat].append(card)
        sim = self.start.world(initial)
        me = self.me
        log_weight = 0.0
        for seat, card in self.history:
            if seat != me:
                cards = sim.playable(seat)
                if card not in cards:
                    log_weight += math.log(IMPOSSIBLE)
                elif len(cards) > 1:
                    values = card_values(sim, seat, cards)
                    log_weight += (values[card] - max(values.values())) / TEMPERATURE
            sim.play(seat, card)
        return max(math.exp(log_weight), FLOOR)


def _rewound(table: Table) -> Table:
    """``table`` before its first card: nothing played, full hands to be filled in, the first
    trick's leader to lead; declared parties and announcers stay shown. A wedding clarified by
    a trick is rewound to unclarified; one that named its partner (wedding_clarification
    ``named``) keeps its parties, which everyone knew from the start."""
    start = table.copy()
    first = table.tricks[0].leader if table.tricks else table.leader
    start.tricks, start.trick, start.played, start.led = [], [], {}, {}
    start.void = [set(), set(), set(), set()]
    start.sizes = [table.n_tricks] * 4
    start.leader = start.to_move = first
    announcers = {seat for seat, _ in table.announcements}
    declared = table.contract not in ("normal", "silent_solo") and table.declarer is not None
    start.shown = [seat in announcers or (declared and seat == table.declarer) for seat in range(4)]
    if table.contract == "wedding" and table.bride is not None and table.rules.wedding_clarification != "named":
        start.clarified = False
        start.team = True
        start.party = [None] * 4
    return start
