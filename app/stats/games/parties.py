"""What Doppelkopf and Doublehead Kids deals share: two parties, Re and Kontra (Kids: Team
Prince/Princess and Team No Crown), named in the outcome details, and announcements.

Counters per seat:
- ``re_deals``/``re_won``, ``kontra_deals``/``kontra_won``: deals in each party, and won
  (the official winner, ``details["winner"]``; a deal both parties lost is won by nobody);
- ``announced:<value>`` and ``announced_won:<value>``: each announcement the seat made (Re,
  Kontra, No 90 … Black; a higher one made at once lists every skipped step, as the outcome
  does) and how many of them succeeded: an announcement succeeds when its party wins the deal
  (a party that announced No 90 wins only by reaching 151, so "No 90 succeeded" is "won").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from app.i18n import N_
from app.stats.facts import Deal, Sides
from app.stats.figures import Figure, count, per_kind, share

PARTIES = ("re", "kontra")
#: the announcements in order, with their words (the table's msgids, static/js/words.js)
ANNOUNCEMENTS = {"re": N_("Re"), "kontra": N_("Kontra"), "no90": N_("No 90"), "no60": N_("No 60"),
                 "no30": N_("No 30"), "black": N_("Black")}


def party_of(details: Mapping[str, Any], seat: int) -> str | None:
    """``re`` or ``kontra``: the party of ``seat`` in a deal's outcome details."""
    for party in PARTIES:
        if seat in details["parties"][party]:
            return party
    return None


def sides(details: Mapping[str, Any], players: int) -> Sides:
    """The deal's sides (Re 0, Kontra 1) and the seats of the winning party."""
    teams = tuple(0 if party_of(details, seat) == "re" else 1 for seat in range(players))
    winner = details.get("winner")
    return Sides(teams, frozenset(details["parties"][winner]) if winner in PARTIES else frozenset())


def won(details: Mapping[str, Any], seat: int) -> bool:
    """Whether ``seat``'s party won the deal."""
    return details.get("winner") is not None and party_of(details, seat) == details["winner"]


def add_parties(details: Mapping[str, Any], seats: list[Counter[str]]) -> None:
    """``re_deals``/``re_won`` and ``kontra_deals``/``kontra_won`` of every seat."""
    for seat, counter in enumerate(seats):
        party = party_of(details, seat)
        counter[f"{party}_deals"] += 1
        counter[f"{party}_won"] += won(details, seat)


def add_announcements(details: Mapping[str, Any], seats: list[Counter[str]]) -> None:
    """``announced:<value>`` and ``announced_won:<value>`` of each announcement made."""
    for made in details.get("announcements") or ():
        seat, value = made["seat"], made["value"]
        seats[seat][f"announced:{value}"] += 1
        seats[seat][f"announced_won:{value}"] += won(details, seat)


def declared(details: Mapping[str, Any], seat: int, contract: str) -> bool:
    """Whether ``seat`` declared the deal's contract and it is ``contract``."""
    return details.get("contract") == contract and details.get("declarer") == seat


def announcement_figures(counts: Mapping[str, int], round_unit: str) -> list[Figure]:
    """Per kind announced: how many were made (in ``round_unit``, deals or rounds), and the
    share that succeeded."""
    return per_kind(counts, "announced", ANNOUNCEMENTS, lambda kind, words: [
        count(f"announced:{kind}", "announcements", N_("%(kind)s announced"), unit=round_unit,
              kind=words),
        share(f"announced_won:{kind}", "announcements", N_("%(kind)s succeeded"),
              f"announced_won:{kind}", f"announced:{kind}", "announcements",
              short=N_("succeeded"), kind=words)])


def declared_figures(name: str, group: str, words: str, won_words: str, unit: str,
                     round_unit: str) -> list[Figure]:
    """A reservation or contract played (counter ``name``, in ``round_unit``) and the share of
    them won (``<name>_won``, of ``unit``: solos, weddings, ...)."""
    return [count(name, group, words, unit=round_unit),
            share(f"{name}_won", group, won_words, f"{name}_won", name, unit, short=N_("won"))]


class PartyGameStats:
    """What a Doppelkopf-family plugin does with every deal: the parties, the announcements
    and the sides; the game adds its own counters of the deal in :meth:`add_contract`."""

    def add_deal(self, deal: Deal, seats: list[Counter[str]]) -> Sides:
        details = deal.details
        add_parties(details, seats)
        add_announcements(details, seats)
        self.add_contract(deal, seats)
        return sides(details, deal.players)

    def add_contract(self, deal: Deal, seats: list[Counter[str]]) -> None:
        """The game's own counters of ``deal`` (its contract, special points, ...)."""
        raise NotImplementedError
