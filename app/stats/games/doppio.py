"""Doppio's counters of a finished round (app/stats/facts.py) and its figures.

Per seat: ``caught`` (the seat caught a discard and got it), ``catch_missed`` (the seat tried
to catch a discard but a seat farther clockwise from the discarder got it), both from the
closed catch windows of the round's events; ``doppio``/``doppio_won`` (the seat called Doppio,
and it succeeded). No sides: every seat plays for itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from app.i18n import N_
from app.stats.facts import Deal
from app.stats.figures import Figure, count, share


class DoppioStats:
    game = "doppio"
    round_unit = "rounds"
    points_words = N_("Penalty points per round")

    def add_deal(self, deal: Deal, seats: list[Counter[str]]) -> None:
        for event in deal.events:
            if event["type"] != "catch_window_closed":
                continue
            for seat in event["catchers"]:
                seats[seat]["caught" if seat == event["caught_by"] else "catch_missed"] += 1
        call = deal.details.get("doppio")
        if call is not None:
            seats[call["seat"]]["doppio"] += 1
            seats[call["seat"]]["doppio_won"] += bool(call["success"])
        return None

    def figures(self, counts: Mapping[str, int]) -> list[Figure]:
        return [
            count("caught", "catches", N_("Catches made"), unit="rounds"),
            count("catch_missed", "catches", N_("Catches missed (another player had priority)"), unit="rounds"),
            count("doppio", "catches", N_("Doppio called"), unit="rounds"),
            share("doppio_won", "catches", N_("Doppio succeeded"), "doppio_won", "doppio", "calls",
                  short=N_("succeeded")),
        ]


PLUGIN = DoppioStats()
