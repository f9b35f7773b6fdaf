"""Doppelkopf's counters of a finished deal (app/stats/facts.py) and its figures.

Per seat, besides the parties and announcements of parties.py:
- ``solo:<contract>``/``solo_won:<contract>``: a solo the seat declared and played (by kind:
  ``solo_queens``, ``solo_clubs``, ...), and won; ``silent_solo``/``silent_solo_won``: the
  seat held both queens of clubs and played alone (stille Hochzeit — silent wedding);
  ``wedding``/``wedding_won``: the seat's wedding (Hochzeit), as the bride; ``poverty``/
  ``poverty_won``: the seat's poverty (Armut), as the poor player; ``poverty_taken``: the seat
  took another's poverty;
- special points, read from the deal's score lines (so they count exactly where the rules
  score them: two against two) and given to a seat from the tricks: ``fox_caught`` (the seat
  won a trick holding an opponent's fox, the ace of diamonds — Fuchs), ``fox_lost`` (the
  seat's fox went to the opponents), ``charlie`` (the seat won the last trick with the jack of
  clubs — Karlchen), ``doppelkopf`` (the seat won a trick of 40 card points or more).

No rule set here has a compulsory solo (Pflichtsolo), so there is no record of one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from app.games.doppelkopf.cards import CHARLIE, FOX
from app.games.doppelkopf.rules import EXTRA_SOLOS, STANDARD_SOLOS
from app.i18n import N_
from app.stats.facts import Deal
from app.stats.figures import Figure, count, per_kind, share
from app.stats.games import parties

#: the solos with their words (the table's msgids, static/js/words.js)
SOLOS = {
    "solo_clubs": N_("Clubs solo"), "solo_spades": N_("Spades solo"),
    "solo_hearts": N_("Hearts solo"), "solo_diamonds": N_("Diamonds solo"),
    "solo_queens": N_("Queens solo"), "solo_jacks": N_("Jacks solo"),
    "solo_fleshless": N_("Fleshless solo"), "solo_kings": N_("Kings solo"),
    "solo_queens_jacks": N_("Queens-and-jacks solo"), "solo_kings_queens": N_("Kings-and-queens solo"),
    "solo_kings_jacks": N_("Kings-and-jacks solo"),
    "solo_kings_queens_jacks": N_("Kings-queens-and-jacks solo"),
    "solo_pure_clubs": N_("Pure clubs solo"), "solo_pure_spades": N_("Pure spades solo"),
    "solo_pure_hearts": N_("Pure hearts solo"), "solo_pure_diamonds": N_("Pure diamonds solo"),
}
assert list(SOLOS) == [*STANDARD_SOLOS, *EXTRA_SOLOS]  # every solo of the rules has words


class DoppelkopfStats(parties.PartyGameStats):
    game = "doppelkopf"
    round_unit = "deals"
    points_words = N_("Game points per deal")

    def add_contract(self, deal: Deal, seats: list[Counter[str]]) -> None:
        _add_contract(deal.details, seats)
        _add_special_points(deal, seats)

    def figures(self, counts: Mapping[str, int]) -> list[Figure]:
        unit = self.round_unit
        return [
            share("won_as_re", "parties", N_("Won as Re"), "re_won", "re_deals", "deals"),
            share("won_as_kontra", "parties", N_("Won as Kontra"), "kontra_won", "kontra_deals", "deals"),
            *per_kind(counts, "solo", SOLOS, lambda kind, words: [
                count(f"solo:{kind}", "reservations", N_("%(kind)s played"), kind=words),
                share(f"solo_won:{kind}", "reservations", N_("%(kind)s won"), f"solo_won:{kind}",
                      f"solo:{kind}", "solos", short=N_("won"), kind=words)]),
            *parties.declared_figures("silent_solo", "reservations", N_("Silent solos played"),
                                      N_("Silent solos won"), "solos", unit),
            *parties.declared_figures("wedding", "reservations", N_("Weddings (yours)"),
                                      N_("Weddings won"), "weddings", unit),
            *parties.declared_figures("poverty", "reservations", N_("Poverties (yours)"),
                                      N_("Poverties won"), "poverties", unit),
            count("poverty_taken", "reservations", N_("Poverties taken")),
            *parties.announcement_figures(counts, unit),
            count("fox_caught", "special", N_("Foxes caught")),
            count("fox_lost", "special", N_("Foxes lost")),
            count("charlie", "special", N_("Charlies (last trick with the jack of clubs)")),
            count("doppelkopf", "special", N_("Doppelkopf tricks (40 points or more)")),
        ]


def _add_contract(details: Mapping[str, Any], seats: list[Counter[str]]) -> None:
    contract = details.get("contract")
    declarer = details.get("declarer")
    re_party = details["parties"]["re"]
    if contract in SOLOS and declarer is not None:
        seats[declarer][f"solo:{contract}"] += 1
        seats[declarer][f"solo_won:{contract}"] += parties.won(details, declarer)
    elif contract == "silent_solo" and len(re_party) == 1:
        (soloist,) = re_party
        seats[soloist]["silent_solo"] += 1
        seats[soloist]["silent_solo_won"] += parties.won(details, soloist)
    elif contract in ("wedding", "poverty") and declarer is not None:
        seats[declarer][contract] += 1
        seats[declarer][f"{contract}_won"] += parties.won(details, declarer)
        if contract == "poverty":
            for seat in re_party:
                if seat != declarer:
                    seats[seat]["poverty_taken"] += 1


def _add_special_points(deal: Deal, seats: list[Counter[str]]) -> None:
    """Foxes, Charlies and Doppelkopf tricks, only where the score lines count them."""
    scored = {line["reason"] for line in deal.details.get("score_lines") or ()}
    if not scored & {"fox_caught", "charlie", "doppelkopf"}:
        return
    details = deal.details
    tricks = deal.state_json["tricks"]
    for trick in tricks:
        winner = trick["winner"]
        winning_party = parties.party_of(details, winner)
        if "doppelkopf" in scored and trick["points"] >= 40:
            seats[winner]["doppelkopf"] += 1
        if "fox_caught" in scored:
            for play in trick["cards"]:
                if play["card"] == FOX and parties.party_of(details, play["seat"]) != winning_party:
                    seats[winner]["fox_caught"] += 1
                    seats[play["seat"]]["fox_lost"] += 1
    if "charlie" in scored:
        last = tricks[-1]
        if any(p["seat"] == last["winner"] and p["card"] == CHARLIE for p in last["cards"]):
            seats[last["winner"]]["charlie"] += 1


PLUGIN = DoppelkopfStats()
