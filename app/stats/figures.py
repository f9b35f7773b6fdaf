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
from functools import cache
from typing import Any

from babel import Locale
from babel.numbers import format_decimal, format_percent

from app.i18n import N_, current_language, gettext, ngettext
from app.stats.facts import Counters

COUNT, SHARE, MEAN = "count", "share", "mean"


@dataclass(frozen=True, slots=True)
class Figure:
    """One number: ``counter`` as a count, as a share of ``base`` or as a mean over ``base``.

    key: stable name (the API's); group: the heading it is shown under; words: its msgid,
    with ``params`` (msgids too) for ``%(kind)s``; unit: what ``base`` counts; short: for a
    share of the count listed just before it (solos won of solos played), its words there
    ("won"), so a profile shows it as that count's second line.
    """

    key: str
    group: str
    words: str
    kind: str
    counter: str
    base: str
    unit: str
    params: tuple[tuple[str, str], ...] = field(default=())
    short: str | None = None

    def evaluate(self, counts: Mapping[str, int]) -> dict[str, Any]:
        """``{"key", "group", "label", "kind", "value", "count", "base", "unit", "shown",
        "rests_on", "short"}``: ``value`` is the count, the share (0..1, 3 decimals) or the mean (2
        decimals); None for a share or mean of nothing (base 0). ``count``: the counter,
        ``base``: what it rests on, in ``unit``; ``label``, ``shown`` ("86 %") and
        ``rests_on`` ("6 of 7 deals") in the current language."""
        count, base = counts.get(self.counter, 0), counts.get(self.base, 0)
        if self.kind == COUNT:
            value: float | None = count
        elif not base:
            value = None
        else:
            value = round(count / base, 3 if self.kind == SHARE else 2)
        label = gettext(self.words, **{k: gettext(v) for k, v in self.params})
        return {"key": self.key, "group": self.group, "label": label, "kind": self.kind,
                "value": value, "count": count, "base": base, "unit": self.unit,
                "shown": shown(self.kind, value),
                "rests_on": rests_on(self.kind, count, base, self.unit),
                "short": gettext(self.short) if self.short else None}


def count(key: str, group: str, words: str, base: str = "deals", unit: str = "deals",
          counter: str | None = None, **params: str) -> Figure:
    return Figure(key, group, words, COUNT, counter or key, base, unit, tuple(params.items()))


def share(key: str, group: str, words: str, counter: str, base: str, unit: str, *,
          short: str | None = None, **params: str) -> Figure:
    return Figure(key, group, words, SHARE, counter, base, unit, tuple(params.items()), short)


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

#: a share's base in words, "6 of 7 deals" (German in the dative: "6 von 7 Spielen"); literal
#: ngettext calls, so that the catalogue holds each plural
OF: dict[str, Callable[[int, int], str]] = {
    "matches": lambda c, n: ngettext("%(count)s of %(num)s match", "%(count)s of %(num)s matches", n, count=c),
    "deals": lambda c, n: ngettext("%(count)s of %(num)s deal", "%(count)s of %(num)s deals", n, count=c),
    "rounds": lambda c, n: ngettext("%(count)s of %(num)s round", "%(count)s of %(num)s rounds", n, count=c),
    "solos": lambda c, n: ngettext("%(count)s of %(num)s solo", "%(count)s of %(num)s solos", n, count=c),
    "weddings": lambda c, n: ngettext("%(count)s of %(num)s wedding", "%(count)s of %(num)s weddings", n,
                                      count=c),
    "poverties": lambda c, n: ngettext("%(count)s of %(num)s poverty", "%(count)s of %(num)s poverties", n,
                                       count=c),
    "announcements": lambda c, n: ngettext("%(count)s of %(num)s announcement",
                                           "%(count)s of %(num)s announcements", n, count=c),
    "lone": lambda c, n: ngettext("%(count)s of %(num)s round alone", "%(count)s of %(num)s rounds alone", n,
                                  count=c),
    "bids": lambda c, n: ngettext("%(count)s of %(num)s bid of zero", "%(count)s of %(num)s bids of zero", n,
                                  count=c),
    "eyes": lambda c, n: ngettext("%(count)s of %(num)s eye", "%(count)s of %(num)s eyes", n, count=c),
    "calls": lambda c, n: ngettext("%(count)s of %(num)s call", "%(count)s of %(num)s calls", n, count=c),
}
#: a count's or mean's base in words, "in 240 deals"
IN: dict[str, Callable[[int], str]] = {
    "matches": lambda n: ngettext("in %(num)s match", "in %(num)s matches", n),
    "deals": lambda n: ngettext("in %(num)s deal", "in %(num)s deals", n),
    "rounds": lambda n: ngettext("in %(num)s round", "in %(num)s rounds", n),
}


def rests_on(kind: str, count: int, base: int, unit: str) -> str:
    """What a figure rests on in words: "6 of 7 deals" (a share), "in 240 deals"; nothing for
    a figure that is its own base (matches)."""
    if kind == COUNT and count == base:
        return ""
    if kind == SHARE:
        return OF[unit](count, base)
    return IN[unit](base)


def shown(kind: str, value: float | None) -> str:
    """A figure's value as people read it in the current language: "12", "86 %", "2.62"
    ("2,62"); "–" for a share or mean of nothing."""
    if value is None:
        return "–"
    locale = _locale(current_language())
    if kind == SHARE:
        return format_percent(value, locale=locale)
    if kind == MEAN:
        return format_decimal(value, format="#,##0.00", locale=locale)
    return format_decimal(value, locale=locale)


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


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
    evaluated, in the order of :data:`GROUPS` (the plugin's order within a group); a share of
    nothing (base 0: no poverty, so no share of poverties won) is left out."""
    if plugin is None:
        figures = common_figures("rounds", N_("Points per round"), counts)
    else:
        figures = common_figures(plugin.round_unit, plugin.points_words, counts) + plugin.figures(counts)
    order = list(GROUPS)
    figures.sort(key=lambda f: order.index(f.group))
    evaluated = [figure.evaluate(counts) for figure in figures]
    return [f for f in evaluated if f["kind"] != SHARE or f["base"]]  # a share of nothing says nothing
