"""The statistics' work that runs in the bots' process pool (app.bots.runner.run_job), as the
analysis' does (app/analysis/jobs.py): module-level functions of plain, picklable values.

Replaying a match through its rules core is the costly part of counting it (about half a
millisecond per Doppelkopf deal), so neither a table's actor nor a request does it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from app.scenario import ScenarioError
from app.stats.facts import MatchFacts, match_facts

log = logging.getLogger(__name__)


def facts(document: Mapping[str, Any]) -> MatchFacts:
    """The counters of one finished match (app/stats/facts.py). Raises ScenarioError."""
    return match_facts(document)


def facts_of(documents: Sequence[Mapping[str, Any]]) -> list[MatchFacts | str]:
    """The counters of several matches (a rebuild's batch); a match that does not replay gives
    the reason instead (ScenarioError's line), so one bad match does not stop a rebuild."""
    out: list[MatchFacts | str] = []
    for document in documents:
        try:
            out.append(match_facts(document))
        except ScenarioError as err:
            out.append(str(err))
    return out
