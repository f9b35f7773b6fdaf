"""Doublehead Kids bots: the Doppelkopf bots (the same engine and view), with the Kids rules
(wedding by naming a partner, no solos, no poverty) and golden coins as the expert's score."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.bots.doppelkopf import DoppelkopfBot
from app.games.doublehead_kids.rules import make_rules


def make_bot(level: str, *, rules: Mapping[str, Any] | None = None, budget_ms: int | None = None,
             worlds: int | None = None) -> DoppelkopfBot:
    """The Doublehead Kids bot of ``level`` (rules: the table's Kids rules, default ``basic``)."""
    return DoppelkopfBot(level, game="doublehead_kids", rules=make_rules(dict(rules or {})),
                         budget_ms=budget_ms, worlds=worlds)
