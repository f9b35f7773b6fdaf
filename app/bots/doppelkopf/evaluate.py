"""The expert's estimate of every legal action of a decision (for post-game analysis).

    from app.bots.doppelkopf.evaluate import evaluate, action_key
    values = evaluate(view, rules, budget_ms=500)   # {"play:QC": -0.4, "play:9H": 1.2, ...}
    best = max(values, key=values.get)

``evaluate`` reads only ``view`` (the seat to move, at its own turn) and the table's rules,
exactly like the expert, and runs the expert's own search over the same sampled worlds for
every action (not only the few the expert would search), so the values of different actions
are comparable (common random numbers). Values are the expected score of the deciding seat
at the end of the deal in the game's unit: Doppelkopf game points as the engine scores that
seat (a soloist's three-fold included); Doublehead Kids golden coins of the own team minus the
other team's (the quantity the expert plays for). Keys are :func:`action_key` strings.

What is searched: cards (all playable ones; the last ``search.SOLVE_TRICKS`` tricks exactly),
announcements (the best card's value plus what the announcement adds on the same playouts),
declarations (healthy, wedding, every solo; played out over random deals of the other hands),
the partner a wedding names (Doublehead Kids; the same way). Poverty (declaring, answering,
exchanging) and throw-in are not simulated by the expert and are left out of the result.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from app.bots.doppelkopf.search import CardSearch, Clock, declaration_values, partner_values
from app.bots.doppelkopf.table import Table, rules_for
from app.games.doppelkopf.rules import Rules

DEFAULT_BUDGET_MS = 500
DEFAULT_WORLDS = 64
NOT_SIMULATED = ("poverty", "throw_in")


def action_key(action: Mapping[str, Any]) -> str:
    """A stable name of an action: ``play:QC``, ``announce:re``, ``declare:solo_queens``,
    ``poverty_answer:accept``, ``wedding_partner:2``, ``poverty_give:AD,QS,9C``."""
    kind = action["type"]
    for field in ("card", "value", "partner"):
        if field in action:
            return f"{kind}:{action[field]}"
    return f"{kind}:{','.join(sorted(action.get('cards', [])))}"


def _rules(view: Mapping[str, Any], rules: Mapping[str, Any] | Rules | None) -> Rules:
    if isinstance(rules, Rules):
        return rules
    if view.get("game") == "doublehead_kids":
        from app.games.doublehead_kids.rules import make_rules

        return make_rules(dict(rules or {}))
    return rules_for(view, rules)


def evaluate(view: Mapping[str, Any], rules: Mapping[str, Any] | Rules | None = None,
             budget_ms: float = DEFAULT_BUDGET_MS, *, worlds: int = DEFAULT_WORLDS,
             rng: random.Random | None = None,
             facts: dict[str, list[dict[str, Any]]] | None = None) -> dict[str, float]:
    """``{action_key: expected score}`` for the legal actions of the seat to move.

    view: the deciding seat's view (Doppelkopf or Doublehead Kids) at its own turn. rules:
    the table's rules (a Rules/KidsRules object or its JSON; default: the game's default
    preset). budget_ms / worlds: the search stops at whichever comes first (at least a few
    worlds). rng: the sampling's randomness (default: seeded from nothing, i.e. fixed).
    facts: when given, filled with each valued action's sampled deals, ``{action_key:
    [search.fact(...) per deal]}`` (an announcement: the deals of the best card, its gain
    added to the score): what the post-game analysis words its reasons from.
    Returns {} when it is not the seat's turn. Raises KeyError for a malformed view.
    """
    if view["to_move"] != view["seat"] or not view["legal"]:
        return {}
    rng = rng or random.Random(0)
    parsed = _rules(view, rules)
    clock = Clock(budget_ms, worlds)
    phase = view["phase"]
    legal = view["legal"]
    if phase == "declare":
        values = [a["value"] for a in legal if a["value"] not in NOT_SIMULATED]
        deals: dict[str, list[dict[str, Any]]] = {}
        found = declaration_values(view, parsed, rng, clock, values, deals)
        _keep(facts, {action_key(a): deals[a["value"]] for a in legal if a["value"] in found})
        return {action_key(a): found[a["value"]] for a in legal if a["value"] in found}
    if phase == "wedding_partner":
        by_partner: dict[int, list[dict[str, Any]]] = {}
        partners = partner_values(view, parsed, rng, clock, by_partner)
        _keep(facts, {action_key(a): by_partner[a["partner"]] for a in legal})
        return {action_key(a): partners[a["partner"]] for a in legal}
    if phase != "play":
        return {}
    table = Table.from_view(view, parsed)
    plays = [a for a in legal if a["type"] == "play"]
    announces = [a for a in legal if a["type"] == "announce"] if table.party[table.me] is not None else []
    search = CardSearch(view, table, [a["card"] for a in plays], announces,
                        facts={} if facts is not None else None)
    search.run(rng, clock)
    expected = search.expected()
    out = {action_key(a): expected[a["card"]] for a in plays}
    found = search.facts or {}
    _keep(facts, {action_key(a): found.get(a["card"], []) for a in plays})
    if announces and plays:
        best = max(expected, key=lambda card: expected[card])
        for index, announce in enumerate(announces):
            out[action_key(announce)] = expected[best] + search.announce_gain(best, index)
            if facts is not None:
                facts[action_key(announce)] = _announced(found.get(best, []),
                                                         search.gain_draws[best, index])
    return out


def _keep(facts: dict[str, list[dict[str, Any]]] | None,
          found: Mapping[str, list[dict[str, Any]]]) -> None:
    if facts is not None:
        facts.update(found)


def _announced(deals: list[dict[str, Any]], gains: list[float]) -> list[dict[str, Any]]:
    """The best card's sampled deals with an announcement's gain in each added to the score
    (``gain``: that gain itself)."""
    out = []
    for deal, gain in zip(deals, gains, strict=True):
        score = deal["score"] + gain
        out.append({**deal, "score": score, "won": score > 0, "gain": gain})
    return out
