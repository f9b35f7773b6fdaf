"""Doppelkopf bots (also the engine behind Doublehead Kids): beginner, intermediate, expert.

``make_bot(level, rules=..., budget_ms=..., worlds=...)`` returns a :class:`DoppelkopfBot`;
``choose(view, rng)`` reads only the view. Modules: ``table`` (what a seat knows, and the
playout simulator), ``policy`` (the intermediate's rules of thumb), ``sampling`` (hidden hands
that fit the view) and ``search`` (the expert's Monte Carlo search).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from app.bots.doppelkopf import policy, search
from app.bots.doppelkopf.table import Table, rules_for
from app.games.doppelkopf.rules import Rules

DEFAULT_BUDGET_MS = 300  # the room's default (app.config.Settings.bot_budget_ms)
DEFAULT_WORLDS = 400


class DoppelkopfBot:
    """A Doppelkopf player of one level (see app.bots for the levels)."""

    def __init__(self, level: str, *, game: str = "doppelkopf",
                 rules: Mapping[str, Any] | Rules | None = None, budget_ms: int | None = None,
                 worlds: int | None = None) -> None:
        self.game = game
        self.level = level
        self.rules = rules
        self.budget_ms = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
        self.worlds = DEFAULT_WORLDS if worlds is None else worlds

    def choose(self, view: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
        legal = view["legal"]
        if not legal or view["to_move"] != view["seat"]:
            return None  # announcements are weighed at the own turn, not out of turn
        rules = rules_for(view, self.rules)
        if self.level == "beginner":
            return _beginner(view, rng, rules)
        phase = view["phase"]
        if phase == "declare":
            if self.level == "expert":
                return search.search_declaration(view, rules, rng, self.budget_ms, self.worlds)
            value = policy.choose_declaration(view, rules)
            return next(a for a in legal if a["value"] == value)
        if phase == "play":
            table = Table.from_view(view, rules)
            if self.level == "expert":
                return search.search_play(view, table, rng, self.budget_ms, self.worlds)
            announce = policy.choose_announcement(view, table, rules)
            if announce is not None:
                return announce
            card = policy.choose_card(table, view["seat"])
            return next(a for a in legal if a["type"] == "play" and a["card"] == card)
        if phase == "poverty_give":
            return policy.choose_poverty_give(view, rules)
        if phase == "poverty_answer":
            value = policy.choose_poverty_answer(view, rules)
            return next(a for a in legal if a["value"] == value)
        if phase == "poverty_return":
            return policy.choose_poverty_return(view, rules)
        if phase == "wedding_partner":
            partner = policy.wedding_partner(view["seat"])
            return next((a for a in legal if a["partner"] == partner), legal[0])
        return legal[0]  # pragma: no cover - every phase with actions is handled above


def _beginner(view: Mapping[str, Any], rng: random.Random, rules: Rules) -> dict[str, Any]:
    """A random legal move; healthy (with both queens of clubs: the wedding, or deliberately
    the silent solo), never an announcement, never taking a poverty."""
    legal = view["legal"]
    phase = view["phase"]
    if phase == "declare":
        value = "healthy"
        if view["hand"].count("QC") == 2:
            value = policy.two_queens_declaration(view["hand"], [a["value"] for a in legal], rules.nines)
        return next(a for a in legal if a["value"] == value)
    if phase == "poverty_answer":
        return next(a for a in legal if a["value"] == "decline")
    plays = [a for a in legal if a["type"] != "announce"]
    return rng.choice(plays)


def make_bot(level: str, *, rules: Mapping[str, Any] | Rules | None = None,
             budget_ms: int | None = None, worlds: int | None = None,
             game: str = "doppelkopf") -> DoppelkopfBot:
    """The Doppelkopf bot of ``level`` (``beginner``, ``intermediate`` or ``expert``)."""
    return DoppelkopfBot(level, game=game, rules=rules, budget_ms=budget_ms, worlds=worlds)
