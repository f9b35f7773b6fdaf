"""Doppelganger Tricks' counters of a finished round (app/stats/facts.py) and its figures.

Per seat, from the round's outcome details (bids, tricks won, bonus cards): ``bid_exact``
(won exactly the tricks bid), ``zero_bid``/``zero_bid_made`` (bid 0, and won no trick),
``star`` and ``eye`` (took that bonus card), ``eye_scored`` (the eye with an exact bid: +3).
No sides: every seat plays for itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from app.i18n import N_
from app.stats.facts import Deal
from app.stats.figures import Figure, count, share


class DoppelgangerStats:
    game = "doppelganger_tricks"
    round_unit = "rounds"
    points_words = N_("Points per round")

    def add_deal(self, deal: Deal, seats: list[Counter[str]]) -> None:
        details = deal.details
        bonus = details.get("bonus") or {}
        for seat, (bid, won) in enumerate(zip(details["bids"], details["tricks_won"], strict=True)):
            counter = seats[seat]
            counter["bid_exact"] += bid == won
            counter["zero_bid"] += bid == 0
            counter["zero_bid_made"] += bid == 0 and won == 0
            counter["star"] += bonus.get("star") == seat
            counter["eye"] += bonus.get("eye") == seat
            counter["eye_scored"] += bonus.get("eye") == seat and bid == won
        return None

    def figures(self, counts: Mapping[str, int]) -> list[Figure]:
        return [
            share("bid_exact", "bids", N_("Bids met exactly"), "bid_exact", "deals", "rounds"),
            count("zero_bid", "bids", N_("Bids of zero"), unit="rounds"),
            share("zero_bid_made", "bids", N_("Bids of zero made"), "zero_bid_made", "zero_bid", "bids",
                  short=N_("made")),
            count("star", "bonus", N_("Star taken (+1)"), unit="rounds"),
            count("eye", "bonus", N_("Eye taken"), unit="rounds"),
            share("eye_scored", "bonus", N_("Eye scored (+3 with an exact bid)"), "eye_scored", "eye", "eyes",
                  short=N_("scored (+3 with an exact bid)")),
        ]


PLUGIN = DoppelgangerStats()
