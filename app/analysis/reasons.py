"""Why a decision cost: the reason in words, from the sampled deals' own figures.

``reason(entry, taken, best, ...)`` compares the action taken with the best one over the deals
the estimator sampled (app.analysis.statistics) and picks what made the difference in that
game's terms; ``words(why, ...)`` writes it in German or English with the figures it quotes:

- ``announce``: an announcement made or left out — how often the own side wins the deal, and
  what announcing adds or costs on average ("Kontra: your side wins this deal in 62 % of the
  sampled deals (20 of 32), so announcing adds about 0.8 game points on average");
- ``bid`` (Doppelganger Tricks): how many tricks the seat took with the bid made, and how
  often the better bid is made exactly;
- ``trick``: how often the own side takes the trick in play with either card, and what it
  is worth;
- ``win``: how often the own side wins the deal (Doppelganger Tricks: makes its bid exactly;
  Doppio: ends with the lowest penalty) with either action, and their mean scores;
- ``hand`` (Doppio): the hand's mean final value after either action;
- ``points``: the own side's mean card points with either action;
- ``paired``: in how many of the same deals the better action scored more, and less.

The first kind whose figures differ clearly (thresholds below) is chosen; ``paired`` always
applies. A reason is data: ``{"kind", "figures"}``, stored in the analysis document in no
language; :func:`words` writes it for a reader.
"""

from __future__ import annotations

import contextvars
from collections.abc import Mapping
from typing import Any

from babel.numbers import format_decimal

from app.analysis.statistics import paired, summary
from app.i18n import N_, gettext, ngettext, set_language
from app.i18n.actions import action_words, value_words

Fact = dict[str, Any]

#: a difference of deal counts that words a reason: at least this share of the deals ...
SHARE = 0.15
#: ... and at least this many deals
MIN_DEALS = 2
HAND_VALUE_GAP = 1.0  # Doppio: mean final hand values this far apart
CARD_POINTS_GAP = 6.0  # Doppelkopf: the own side's mean card points this far apart

UNITS = {"game points": N_("game points"), "golden coins": N_("golden coins"),
         "points": N_("points"), "penalty points": N_("penalty points")}


def _clear(better: int, worse: int, n: int) -> bool:
    """Whether ``better`` deals exceed ``worse`` by a clear margin of ``n`` deals."""
    return better - worse >= max(MIN_DEALS, SHARE * n)


def reason(game: str, phase: str | None, taken: Mapping[str, Any], best: Mapping[str, Any],
           facts_taken: list[Fact], facts_best: list[Fact], *,
           lower_is_better: bool) -> dict[str, Any]:
    """The reason ``taken`` cost against ``best`` (action dicts), from their facts (one per
    sampled deal, the same deals for both). ``{"kind", "figures": {"taken": summary, "best":
    summary, "paired": {...}}}``; the summaries are app.analysis.statistics.summary's. Raises
    ValueError when either has no facts."""
    took, top = summary(facts_taken), summary(facts_best)
    figures = {"taken": took, "best": top,
               "paired": paired(facts_taken, facts_best, lower_is_better=lower_is_better)}
    return {"kind": _kind(game, phase, taken, best, took, top), "figures": figures}


def _kind(game: str, phase: str | None, taken: Mapping[str, Any], best: Mapping[str, Any],
          took: dict[str, Any], top: dict[str, Any]) -> str:
    """The first kind whose figures favour the best action clearly (see the module docstring)."""
    n = min(took["n"], top["n"])
    if "announce" in (taken.get("type"), best.get("type")):
        return "announce"
    if taken.get("type") == "bid" and took["tricks"]:
        return "bid"
    if took["trick"] and top["trick"] and took["trick"]["of"] * 2 >= took["n"] and top["trick"]["of"] * 2 >= top["n"] \
            and _clear(top["trick"]["won"], took["trick"]["won"], n):
        return "trick"
    if _clear(top["won"], took["won"], n):
        return "win"
    if took["hand_value"] is not None and top["hand_value"] is not None \
            and took["hand_value"] - top["hand_value"] >= HAND_VALUE_GAP:
        return "hand"
    if took["points"] is not None and top["points"] is not None \
            and top["points"] - took["points"] >= CARD_POINTS_GAP:
        return "points"
    return "paired"


# --- words -----------------------------------------------------------------------------------

def _number(value: float, lang: str, signed: bool = False) -> str:
    pattern = "+0.0;-0.0" if signed else "0.0"
    return format_decimal(value, format=pattern, locale=lang)


def _percent(count: int, n: int) -> str:
    return f"{round(100 * count / n) if n else 0} %"


def words(why: Mapping[str, Any], *, game: str, unit: str, lang: str, taken: Mapping[str, Any],
          best: Mapping[str, Any], taken_card: str | None = None,
          best_card: str | None = None) -> str:
    """The reason ``why`` (:func:`reason`) in ``lang`` ("de" or "en"), quoting its figures.
    ``taken_card``/``best_card``: the card an action moves without naming it (a Doppio
    discard or catch: app.i18n.actions.acted_card)."""
    def write() -> str:
        set_language(lang)
        names = {"taken": action_words(game, taken, taken_card),
                 "best": action_words(game, best, best_card)}
        return WRITERS[why["kind"]](why["figures"], names, game, gettext(UNITS.get(unit, unit)), lang,
                                    taken, best)

    return contextvars.copy_context().run(write)


def _capital(text: str) -> str:
    """``text`` beginning with a capital (a sentence that opens with an action's words)."""
    return text[:1].upper() + text[1:]


def _side(game: str) -> bool:
    """Whether the seat plays with a side (a party or team) rather than alone."""
    return game in ("doppelkopf", "doublehead_kids")


def _announce(f, names, game, unit, lang, taken, best) -> str:
    announced = taken if taken.get("type") == "announce" else best
    side = f["taken"] if announced is taken else f["best"]
    n = side["n"]
    value = value_words(game, announced["value"])
    gain = side["gain"] if side["gain"] is not None else side["mean"] - (f["best"] if announced is taken else f["taken"])["mean"]
    params = {"value": value, "percent": _percent(side["won"], n), "won": side["won"], "n": n,
              "unit": unit}
    if gain >= 0:
        return gettext("%(value)s: your side wins this deal in %(percent)s of the sampled deals "
                       "(%(won)s of %(n)s), so announcing adds about %(gain)s %(unit)s on average.",
                       gain=_number(gain, lang), **params)
    return gettext("%(value)s: your side wins this deal in only %(percent)s of the sampled deals "
                   "(%(won)s of %(n)s), so announcing costs about %(loss)s %(unit)s on average.",
                   loss=_number(-gain, lang), **params)


def _bid(f, names, game, unit, lang, taken, best) -> str:
    took = f["taken"]
    n = took["n"]
    bid = int(taken["value"])
    tricks = took["tricks"] or {}
    exact = tricks.get(str(bid), 0)
    common = sorted(((count, int(k)) for k, count in tricks.items() if int(k) != bid), reverse=True)
    text = gettext("Bidding %(bid)s: you took exactly %(tricks)s in %(percent)s of the sampled "
                   "deals (%(count)s of %(n)s)", bid=bid,
                   tricks=ngettext("%(num)s trick", "%(num)s tricks", bid),
                   percent=_percent(exact, n), count=exact, n=n)
    if common:
        count, most = common[0]
        text += gettext(", %(tricks)s in %(percent)s", tricks=ngettext(
            "%(num)s trick", "%(num)s tricks", most), percent=_percent(count, n))
    better = int(best["value"]) if best.get("type") == "bid" else None
    if better is not None:
        made = (f["best"]["tricks"] or {}).get(str(better), 0)
        text += gettext("; a bid of %(bid)s is made exactly in %(percent)s (%(count)s of %(n)s).",
                        bid=better, percent=_percent(made, f["best"]["n"]), count=made, n=f["best"]["n"])
    else:
        text += "."
    return text


def _trick(f, names, game, unit, lang, taken, best) -> str:
    took, top = f["taken"]["trick"], f["best"]["trick"]
    params = {"taken": names["taken"], "best": names["best"], "lost": took["of"] - took["won"],
              "n": took["of"], "kept": top["won"], "m": top["of"]}
    if not _side(game):
        return gettext("With %(taken)s you lose this trick in %(lost)s of %(n)s sampled deals; "
                       "with %(best)s you take it in %(kept)s of %(m)s.", **params)
    points = took["points"] if took["points"] is not None else top["points"]
    if points is None:
        return gettext("With %(taken)s your side loses this trick in %(lost)s of %(n)s sampled "
                       "deals; with %(best)s it takes the trick in %(kept)s of %(m)s.", **params)
    return gettext("With %(taken)s your side loses this trick, worth %(points)s card points on "
                   "average, in %(lost)s of %(n)s sampled deals; with %(best)s it takes the trick "
                   "in %(kept)s of %(m)s.", points=round(points), **params)


def _win(f, names, game, unit, lang, taken, best) -> str:
    took, top = f["taken"], f["best"]
    params = {"taken": names["taken"], "best": names["best"], "best_count": top["won"], "taken_count": took["won"],
              "n": top["n"], "mean_b": _number(top["mean"], lang, signed=True),
              "mean_t": _number(took["mean"], lang, signed=True), "unit": unit}
    if game == "doppelganger_tricks":
        return gettext("With %(best)s you make your bid exactly in %(best_count)s of %(n)s sampled deals, "
                       "with %(taken)s in %(taken_count)s (on average %(mean_b)s against %(mean_t)s %(unit)s).",
                       **params)
    if game == "doppio":
        params.update(mean_b=_number(top["mean"], lang), mean_t=_number(took["mean"], lang))
        return _capital(gettext("%(best)s: you end the round with the lowest penalty of the table "
                                "in %(best_count)s of %(n)s sampled deals; %(taken)s: in %(taken_count)s (on average "
                                "%(mean_b)s against %(mean_t)s %(unit)s).", **params))
    return gettext("With %(best)s your side wins the deal in %(best_count)s of %(n)s sampled deals, with "
                   "%(taken)s in %(taken_count)s (on average %(mean_b)s against %(mean_t)s %(unit)s).", **params)


def _hand(f, names, game, unit, lang, taken, best) -> str:
    took, top = f["taken"], f["best"]
    return gettext("Your hand ends the round worth %(best_value)s on average after %(best)s, and %(taken_value)s "
                   "after %(taken)s (over %(n)s sampled deals; lower is better).",
                   taken=names["taken"], best=names["best"], taken_value=_number(took["hand_value"], lang),
                   best_value=_number(top["hand_value"], lang), n=min(took["n"], top["n"]))


def _points(f, names, game, unit, lang, taken, best) -> str:
    took, top = f["taken"], f["best"]
    return gettext("With %(best)s your side takes %(best_value)s card points on average, with %(taken)s "
                   "%(taken_value)s (over %(n)s sampled deals).", best=names["best"], taken=names["taken"],
                   best_value=round(top["points"]), taken_value=round(took["points"]), n=min(took["n"], top["n"]))


def _paired(f, names, game, unit, lang, taken, best) -> str:
    p = f["paired"]
    return gettext("In the same %(n)s sampled deals, %(best)s scores better than %(taken)s in "
                   "%(better)s and worse in %(worse)s (on average %(mean_b)s against %(mean_t)s "
                   "%(unit)s).", n=p["n"], best=names["best"], taken=names["taken"],
                   better=p["better"], worse=p["worse"],
                   mean_b=_number(f["best"]["mean"], lang, signed=game != "doppio"),
                   mean_t=_number(f["taken"]["mean"], lang, signed=game != "doppio"), unit=unit)


WRITERS = {"announce": _announce, "bid": _bid, "trick": _trick, "win": _win, "hand": _hand,
           "points": _points, "paired": _paired}
