"""Puzzles cut from a player's own games: the costliest decisions where one action is clearly
best, to solve from the player's own view.

    puzzles = Puzzles(sessions, clock, table_of=lobby.table)
    analyses.on_done = puzzles.make              # after each finished analysis
    await puzzles.mine(user_id)                  # the player's puzzles
    await puzzles.daily(viewer_id)               # today's shared puzzle (public matches)
    await puzzles.answer(user_id, puzzle_id, "play:KC", lang="de")

A decision becomes a puzzle (:func:`candidates`, :func:`stable`) when

- it cost at least ``PUZZLE_COST`` tolerances (the estimator's sampling noise) and has a reason;
- valued again with ``STABLE_SEEDS`` other seeds (other sampled deals), the analysis' best
  action is a good answer in every valuation (:func:`good_answers`: the best action and any
  within the tolerance of it, e.g. two cards that both take the last tricks), the action taken
  costs at least ``STABLE_COST`` tolerances in each, and the good answers of all valuations
  together are at most half of the actions (one clear answer, not a lottery).

An answer is correct when it is a good answer of any of the valuations (what the sampling
cannot tell apart from the best counts as best).

At most ``MAX_PER_MATCH`` of a match's costliest decisions are tried, on the bots' pool like
the analysis itself. A puzzle is its player's: only they see and answer it, except the daily
puzzle, chosen each day (UTC) from the puzzles of finished public matches (``opponents``
"any") made before that day, which anyone may see and anyone logged in may answer. An answer
must be one of the position's legal actions; a player's first answer to a puzzle is kept.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, date, datetime, time
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.analysis import jobs
from app.analysis.estimators import action_key
from app.analysis.reasons import words
from app.bots import legal_of, runner
from app.clock import Clock
from app.db.models import Analysis, GameTable, Match, Puzzle, PuzzleAnswer, Round
from app.history.service import HistoryError
from app.i18n import N_
from app.i18n.actions import acted_card
from app.rooms.match import table_end

log = logging.getLogger(__name__)

PUZZLE_COST = 4.0  # tolerances a decision must cost to be tried as a puzzle
STABLE_SEEDS = 2  # other valuations that must find the same good answers
STABLE_COST = 2.0  # tolerances the action taken must cost in every valuation
MAX_PER_MATCH = 3  # a match's costliest decisions tried as puzzles
SEED_STEP = 7919  # the other valuations' seeds: the analysis' seed plus multiples of this


class PuzzleError(HistoryError):
    """A puzzle that cannot be shown or answered (``status`` for HTTP)."""


def candidates(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The decisions of an analysis document that may become puzzles, costliest first: valued,
    with a reason, costing at least PUZZLE_COST tolerances (at most MAX_PER_MATCH)."""
    floor = PUZZLE_COST * doc["tolerance"]
    found = [e for e in doc["decisions"] if e.get("analysed") and e.get("why") and e["cost"] >= floor]
    found.sort(key=lambda e: (-e["cost"], e["round"], e["index"]))
    return found[:MAX_PER_MATCH]


def good_answers(values: Mapping[str, float], tolerance: float, lower_is_better: bool) -> set[str]:
    """The best action and every action within ``tolerance`` of it (as good as the best)."""
    best = (min if lower_is_better else max)(values.values())
    return {key for key, value in values.items() if abs(value - best) <= tolerance}


def answers(entry: Mapping[str, Any], revalued: Sequence[Mapping[str, Any]], tolerance: float,
            lower_is_better: bool) -> set[str]:
    """The good answers of all valuations of a decision together (its own and ``revalued``)."""
    found: set[str] = set()
    for valued in [entry, *revalued]:
        found |= good_answers(valued["values"], tolerance, lower_is_better)
    return found


def stable(entry: Mapping[str, Any], revalued: Sequence[Mapping[str, Any]], tolerance: float,
           lower_is_better: bool) -> bool:
    """Whether ``entry`` (an analysed decision) makes a puzzle with one clear answer (see the
    module docstring); ``revalued``: the same decision valued with other seeds
    (value_decision entries)."""
    for valued in [entry, *revalued]:
        if not valued.get("analysed") or valued["taken"] != entry["taken"]:
            return False
        values = valued["values"]
        if entry["best"] not in good_answers(values, tolerance, lower_is_better):
            return False
        best = (min if lower_is_better else max)(values.values())
        if abs(best - values[entry["taken"]]) < STABLE_COST * tolerance:
            return False
    good = answers(entry, revalued, tolerance, lower_is_better)
    return entry["taken"] not in good and len(good) <= max(1, len(entry["values"]) // 2)


def daily_pick(day: date, ids: Sequence[int]) -> int | None:
    """The puzzle of ``day`` among ``ids`` (the same for everyone all day), or None."""
    if not ids:
        return None
    digest = hashlib.sha256(day.isoformat().encode()).digest()
    return sorted(ids)[int.from_bytes(digest[:8], "big") % len(ids)]


class Puzzles:
    """The site's puzzles (see the module docstring)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock,
                 table_of: Callable[[Any, int], Awaitable[dict[str, Any]]]) -> None:
        self._db = sessions
        self._clock = clock
        self._table_of = table_of

    # --- making ----------------------------------------------------------------------------

    async def make(self, analysis_id: int, scenario: dict[str, Any], doc: dict[str, Any]) -> list[int]:
        """Make the puzzles of a finished analysis (its candidates that prove stable); returns
        their ids. Runs the other valuations on the bots' pool."""
        found = candidates(doc)
        if not found:
            return []
        async with self._db() as db:
            row = await db.get(Analysis, analysis_id)
            match = await db.get(Match, row.match_id) if row is not None else None
        if row is None or match is None:
            return []
        decisions, _choices = await runner.run_job(jobs.plan_match, scenario, doc["seat"])
        by_moment = {(d.round, d.index): d for d in decisions}
        rules_raw = json.dumps(scenario["rules"], sort_keys=True)
        table = await self._table_of(None, match.table_id)
        made = []
        for entry in found:
            decision = by_moment[entry["round"], entry["index"]]
            revalued = await asyncio.gather(*(
                runner.run_job(jobs.value, doc["game"], rules_raw, decision,
                               doc["seed"] + SEED_STEP * k, doc["budget_ms"], doc["worlds"])
                for k in range(1, STABLE_SEEDS + 1)))
            if not stable(entry, revalued, doc["tolerance"], doc["lower_is_better"]):
                continue
            good = answers(entry, revalued, doc["tolerance"], doc["lower_is_better"])
            made_id = await self._store(row, match, table, doc, entry, decision.view, good)
            if made_id is not None:
                made.append(made_id)
        return made

    async def _store(self, row: Analysis, match: Match, table: dict[str, Any], doc: dict[str, Any],
                     entry: dict[str, Any], view: dict[str, Any], good: set[str]) -> int | None:
        puzzle = Puzzle(user_id=row.user_id, match_id=match.id, table_id=match.table_id,
                        round=entry["round"], index=entry["index"], seat=row.seat, game=doc["game"],
                        view=view, taken=entry["action"], best=entry["best"],
                        best_action=entry["best_action"], action_values=entry["values"],
                        good=sorted(good),
                        cost=entry["cost"], unit=doc["unit"], why=entry["why"],
                        seats=table["seats"], public=table["opponents"] == "any",
                        created_at=self._clock.now())
        async with self._db() as db:
            db.add(puzzle)
            try:
                await db.commit()
            except IntegrityError:  # made before (the analysis ran again)
                await db.rollback()
                return None
            return puzzle.id

    # --- reading ---------------------------------------------------------------------------

    async def mine(self, user_id: int) -> list[dict[str, Any]]:
        """The player's puzzles, newest first: ``[{"id", "game", "table", "round", "index",
        "cost", "unit", "answered": null|{"correct"}}]``."""
        async with self._db() as db:
            rows = (await db.execute(
                select(Puzzle, PuzzleAnswer.correct)
                .outerjoin(PuzzleAnswer, (PuzzleAnswer.puzzle_id == Puzzle.id)
                           & (PuzzleAnswer.user_id == user_id))
                .where(Puzzle.user_id == user_id).order_by(Puzzle.id.desc()).limit(200))).all()
        return [{"id": p.id, "game": p.game, "table": p.table_id, "round": p.round,
                 "index": p.index, "cost": p.cost, "unit": p.unit,
                 "answered": None if correct is None else {"correct": correct}}
                for p, correct in rows]

    async def daily_id(self) -> int | None:
        """Today's shared puzzle (UTC): :func:`daily_pick` among the public puzzles made
        before today; None when there is none."""
        today = self._clock.now().astimezone(UTC).date()
        start = datetime.combine(today, time(0), tzinfo=UTC)
        async with self._db() as db:
            ids = (await db.execute(select(Puzzle.id).where(
                Puzzle.public.is_(True), Puzzle.created_at < start))).scalars().all()
        return daily_pick(today, list(ids))

    async def _visible(self, db: AsyncSession, user_id: int | None, puzzle_id: int) -> Puzzle:
        """The puzzle if ``user_id`` may see it (theirs, or today's daily). Raises PuzzleError
        404 (no such puzzle), 403 (another player's)."""
        puzzle = await db.get(Puzzle, puzzle_id)
        if puzzle is None:
            raise PuzzleError(N_("no such puzzle"), 404)
        if user_id != puzzle.user_id and puzzle_id != await self.daily_id():
            raise PuzzleError(N_("this puzzle belongs to another player"), 403)
        return puzzle

    async def puzzle(self, user_id: int | None, puzzle_id: int, lang: str) -> dict[str, Any]:
        """The position to solve: ``{"id", "game", "seat", "view", "seats", "unit", "deal" (its
        counted number), "end" (how the match ended: app.rooms.match.table_end), "daily",
        "mine", "answered": null | the solution (:meth:`answer`'s) once answered}``. Raises
        PuzzleError 404/403 (:meth:`_visible`)."""
        async with self._db() as db:
            puzzle = await self._visible(db, user_id, puzzle_id)
            answer = None
            if user_id is not None:
                answer = (await db.execute(select(PuzzleAnswer).where(
                    PuzzleAnswer.puzzle_id == puzzle_id,
                    PuzzleAnswer.user_id == user_id))).scalar_one_or_none()
            table = await db.get(GameTable, puzzle.table_id)
            earlier = (await db.execute(select(Round.outcome).where(
                Round.match_id == puzzle.match_id, Round.number < puzzle.round))).scalars().all()
        deal = 1 + sum(1 for outcome in earlier if outcome and not outcome.get("redeal"))
        return {"id": puzzle.id, "game": puzzle.game, "seat": puzzle.seat, "view": puzzle.view,
                "seats": puzzle.seats, "unit": puzzle.unit, "deal": deal,
                "end": table_end(table.game, table.rules, table.players, table.deals),
                "daily": puzzle.id == await self.daily_id(),
                "mine": puzzle.user_id == user_id,
                "answered": None if answer is None else _solution(_shown(puzzle), answer, lang)}

    async def answer(self, user_id: int, puzzle_id: int, action: Mapping[str, Any],
                     lang: str) -> dict[str, Any]:
        """Answer a puzzle with ``action`` (one of the position's legal actions); the first
        answer of a player is kept. Returns the solution: ``{"answer": the first answer's key,
        "chosen": this one's, "correct", "best", "good": the good answers' keys,
        "best_action", "taken", "values", "cost", "unit", "why": text, "source": {"table",
        "round", "index"}}``. Raises PuzzleError 404/403 (:meth:`_visible`), 400 an action
        the position does not offer; nothing is stored then."""
        async with self._db() as db:
            puzzle = await self._visible(db, user_id, puzzle_id)
            legal = {action_key(a) for a in legal_of(puzzle.view)}
            try:
                key = action_key(action)
            except (KeyError, TypeError):
                key = None
            if key not in legal:
                raise PuzzleError(N_("that is not one of the actions of this position"), 400)
            shown = _shown(puzzle)  # read before a rollback expires the row
            db.add(PuzzleAnswer(puzzle_id=puzzle_id, user_id=user_id, answer=key,
                                correct=key in shown["good"], created_at=self._clock.now()))
            try:
                await db.commit()
            except IntegrityError:  # answered before: the first answer stays
                await db.rollback()
            first = (await db.execute(select(PuzzleAnswer).where(
                PuzzleAnswer.puzzle_id == puzzle_id, PuzzleAnswer.user_id == user_id))).scalar_one()
            return {**_solution(shown, first, lang), "chosen": key}


def _shown(puzzle: Puzzle) -> dict[str, Any]:
    """What a solution shows of a puzzle, as plain values (its good answers included)."""
    return {"game": puzzle.game, "unit": puzzle.unit, "why": puzzle.why, "taken": puzzle.taken,
            "best": puzzle.best, "best_action": puzzle.best_action, "values": puzzle.action_values,
            "cost": puzzle.cost, "good": set(puzzle.good),
            "taken_card": acted_card(puzzle.view, puzzle.taken),
            "best_card": acted_card(puzzle.view, puzzle.best_action),
            "source": {"table": puzzle.table_id, "round": puzzle.round, "index": puzzle.index}}


def _solution(shown: dict[str, Any], answer: PuzzleAnswer, lang: str) -> dict[str, Any]:
    """The solution of a puzzle (:func:`_shown`) for a player's first ``answer``; the reason
    in ``lang``."""
    why = None
    if shown["why"]:
        why = words(shown["why"], game=shown["game"], unit=shown["unit"], lang=lang,
                    taken=shown["taken"], best=shown["best_action"],
                    taken_card=shown["taken_card"], best_card=shown["best_card"])
    return {"answer": answer.answer, "correct": answer.correct, "best": shown["best"],
            "good": sorted(shown["good"]), "best_action": shown["best_action"],
            "taken": shown["taken"], "values": shown["values"], "cost": shown["cost"],
            "unit": shown["unit"], "why": why, "source": shown["source"]}
