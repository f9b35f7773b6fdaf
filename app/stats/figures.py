"""The numbers people read, made from a player's counters (app/stats/facts.py), each with what
it rests on.

A :class:`Figure` names one number: a ``count`` (foxes caught: 12, in 240 deals), a ``share``
(won as Re: 7 of 12 deals, 58 %) or a ``mean`` (game points per deal: +101 over 240 deals).
``base`` is the counter the figure rests on and ``unit`` what that counter counts (deals,
matches, solos, ...). Every game has :func:`common_figures`; its plugin adds its own
(``PLUGIN.figures(counts)``), some of them one per kind found in the counters (solos by kind,
announcements by kind) with :func:`per_kind`.

Words are catalogue msgids (``N_``), translated when shown; ``params`` fill their
``%(kind)s``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.i18n import N_, gettext, ngettext
from app.stats.facts import Counters

COUNT, SHARE, MEAN = "count", "share", "mean"


@dataclass(frozen=True, slots=True)
class Figure:
    """One number: ``counter`` as a count, as a share of ``base`` or as a mean over ``base``.

    key: stable name (the API's); group: the heading it is shown under; words: its msgid,
    with ``params`` (msgids too) for ``%(kind)s``; unit: what ``base`` counts.
    """

    key: str
    group: str
    words: str
    kind: str
    counter: str
    base: str
    unit: str
    params: tuple[tuple[str, str], ...] = field(default=())

    def evaluate(self, counts: Mapping[str, int]) -> dict[str, Any]:
        """``{"key", "group", "label", "kind", "value", "count", "base", "unit"}``:
        ``value`` is the count, the share (0..1, 3 decimals) or the mean (2 decimals); None
        for a share or mean of nothing (base 0). ``count``: the counter, ``base``: what it
        rests on, in ``unit``."""
        count, base = counts.get(self.counter, 0), counts.get(self.base, 0)
        if self.kind == COUNT:
            value: float | None = count
        elif not base:
            value = None
        else:
            value = round(count / base, 3 if self.kind == SHARE else 2)
        label = gettext(self.words, **{k: gettext(v) for k, v in self.params})
        return {"key": self.key, "group": self.group, "label": label, "kind": self.kind,
                "value": value, "count": count, "base": base, "unit": self.unit}


def count(key: str, group: str, words: str, base: str = "deals", unit: str = "deals",
          counter: str | None = None, **params: str) -> Figure:
    return Figure(key, group, words, COUNT, counter or key, base, unit, tuple(params.items()))


def share(key: str, group: str, words: str, counter: str, base: str, unit: str,
          **params: str) -> Figure:
    return Figure(key, group, words, SHARE, counter, base, unit, tuple(params.items()))


def mean(key: str, group: str, words: str, counter: str, base: str, unit: str) -> Figure:
    return Figure(key, group, words, MEAN, counter, base, unit)


def per_kind(counts: Mapping[str, int], prefix: str, kinds: Mapping[str, str],
             make: Callable[[str, str], Iterable[Figure]]) -> list[Figure]:
    """The figures ``make(kind, its words)`` for each kind in ``kinds`` (in that order) whose
    counter ``<prefix>:<kind>`` is not zero."""
    return [figure for kind, words in kinds.items() if counts.get(f"{prefix}:{kind}")
            for figure in make(kind, words)]


#: the groups, in the order a profile shows them
GROUPS = {
    "overview": N_("Overview"),
    "placings": N_("Placings"),
    "parties": N_("Re and Kontra"),
    "reservations": N_("Solos and reservations"),
    "announcements": N_("Announcements"),
    "special": N_("Special points"),
    "teams": N_("Teams"),
    "bids": N_("Bids"),
    "bonus": N_("Bonus cards"),
    "catches": N_("Catches and Doppio"),
}

#: what a base counts, in words for a number of them (``UNITS[unit](n)``; literal ngettext
#: calls, so that the catalogue has each plural)
UNITS: dict[str, Callable[[int], str]] = {
    "matches": lambda n: ngettext("%(num)s match", "%(num)s matches", n),
    "deals": lambda n: ngettext("%(num)s deal", "%(num)s deals", n),
    "rounds": lambda n: ngettext("%(num)s round", "%(num)s rounds", n),
    "solos": lambda n: ngettext("%(num)s solo", "%(num)s solos", n),
    "weddings": lambda n: ngettext("%(num)s wedding", "%(num)s weddings", n),
    "poverties": lambda n: ngettext("%(num)s poverty", "%(num)s poverties", n),
    "announcements": lambda n: ngettext("%(num)s announcement", "%(num)s announcements", n),
    "lone": lambda n: ngettext("%(num)s round alone", "%(num)s rounds alone", n),
    "bids": lambda n: ngettext("%(num)s bid", "%(num)s bids", n),
    "eyes": lambda n: ngettext("%(num)s eye", "%(num)s eyes", n),
    "calls": lambda n: ngettext("%(num)s Doppio call", "%(num)s Doppio calls", n),
}


def unit_words(unit: str, n: int) -> str:
    """``n`` of ``unit`` in words: ("deals", 240) → "240 deals" / "240 Spiele"."""
    return UNITS[unit](n) if unit in UNITS else str(n)


#: the most places a match can have (four players)
PLACES = 4


def common_figures(round_unit: str, points_words: str, counts: Mapping[str, int]) -> list[Figure]:
    """What every game shows: matches, deals (or rounds), points per deal, the share of deals
    won where the game has sides, and the placings. ``round_unit``: ``deals`` or ``rounds``."""
    figures = [
        count("matches", "overview", N_("Matches"), base="matches", unit="matches"),
        count(round_unit, "overview", N_("Deals played") if round_unit == "deals" else N_("Rounds played"),
              base="matches", unit="matches", counter="deals"),
        mean("points_per_deal", "overview", points_words, "points", "deals", round_unit),
    ]
    if "won" in counts:
        figures.append(share("won", "overview", N_("Deals won") if round_unit == "deals" else N_("Rounds won"),
                             "won", "deals", round_unit))
    for place in range(1, PLACES + 1):
        if counts.get(f"place_{place}"):
            figures.append(share(f"place_{place}", "placings", PLACE_WORDS[place], f"place_{place}",
                                 "matches", "matches"))
    return figures


PLACE_WORDS = {1: N_("1st place"), 2: N_("2nd place"), 3: N_("3rd place"), 4: N_("4th place")}


def game_figures(plugin: Any, counts: Counters) -> list[dict[str, Any]]:
    """Every figure of a game (``plugin``: app/stats/facts.plugin_for, or None) for ``counts``,
    evaluated, in the order of :data:`GROUPS` (the plugin's order within a group)."""
    if plugin is None:
        figures = common_figures("rounds", N_("Points per round"), counts)
    else:
        figures = common_figures(plugin.round_unit, plugin.points_words, counts) + plugin.figures(counts)
    order = list(GROUPS)
    figures.sort(key=lambda f: order.index(f.group))
    return [figure.evaluate(counts) for figure in figures]
