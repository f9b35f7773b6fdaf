"""Doublehead Kids' counters of a finished round (app/stats/facts.py) and its figures.

The round is a Doppelkopf deal (Team Prince/Princess is Re, Team No Crown Kontra), scored in
golden coins. Per seat, besides the teams and announcements of parties.py: ``wedding``/
``wedding_won`` (the seat held both Prince/Princess cards and named a partner), ``partner``
(the seat was named the partner), ``lone``/``lone_won`` (the seat held both and played alone).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from app.i18n import N_
from app.stats.facts import Deal
from app.stats.figures import Figure, count
from app.stats.games import parties


class KidsStats(parties.PartyGameStats):
    game = "doublehead_kids"
    round_unit = "rounds"
    points_words = N_("Golden coins per round")

    def add_contract(self, deal: Deal, seats: list[Counter[str]]) -> None:
        details = deal.details
        declarer = details.get("declarer")
        if details.get("lone"):
            (alone,) = details["parties"]["re"]
            seats[alone]["lone"] += 1
            seats[alone]["lone_won"] += parties.won(details, alone)
        elif parties.declared(details, declarer, "wedding"):
            seats[declarer]["wedding"] += 1
            seats[declarer]["wedding_won"] += parties.won(details, declarer)
            if details.get("partner") is not None:
                seats[details["partner"]]["partner"] += 1

    def figures(self, counts: Mapping[str, int]) -> list[Figure]:
        unit = self.round_unit
        return [
            *parties.declared_figures("wedding", "teams", N_("Weddings (both Prince/Princess cards, a partner named)"),
                                      N_("Weddings won"), "weddings", unit),
            count("partner", "teams", N_("Named as the partner"), unit=unit),
            *parties.declared_figures("lone", "teams", N_("Rounds as the lone player"),
                                      N_("Won as the lone player"), "lone", unit),
            *parties.announcement_figures(counts, unit),
        ]


PLUGIN = KidsStats()
