"""Play from here: a private table that starts at a moment of a finished match.

    practice = Practice(sessions, clock, lobby)
    table_id = await practice.start(viewer, source_table_id, round_index=2, index=17, seat=1,
                                    level="expert")
    await practice.info(table_id)   # where it came from, and both results of the deal

The new table is created with a prefix of the finished match's event log — every earlier
round, and the chosen round's deal and its first ``index`` actions — so its room rebuilds the
exact state of that moment as after a restart (app/rooms/actor.py: ``load`` replays the log)
and goes on from there; this works for every game, with nothing game-specific. The room starts
when the player opens the table: their connection is the first command after the load, so
the moment waits for them as for anyone present (a Doppio catch window open at that moment is
theirs to answer, not passed for an absent player). The viewer
takes ``seat`` (the seat's own cards are their hand), computer players of ``level`` the other
seats, and the match ends with the chosen round (its ``deals`` count the rounds played up to
it), so its result is that deal's, to compare with what happened. The table is private
(``invited``, nobody invited), has no move clock, and is never rated (one person).

Who may: anyone who may open the match's replay (a finished match; a private one only its
players). Bad input creates nothing: 404 no such table or not visible, 409 not finished, 404
a moment the match does not have, 409 a moment with nothing left to play in its deal, 400 a
level or seat that does not exist, SeatTaken while the viewer plays elsewhere.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import select

from app.clock import Clock
from app.db.models import ActionRow, GameTable, Match, PracticeRow, Round, Seat
from app.games.base import RoundOutcome
from app.i18n import N_
from app.lobby.service import Lobby, LobbyError, Viewer
from app.rooms.match import outcome_json
from app.scenario import Scenario, ScenarioError, load_scenario, play_round

LEVELS = ("beginner", "intermediate", "expert")


class Practice:
    """Tables that start at a moment of a finished match (see the module docstring)."""

    def __init__(self, sessions: Any, clock: Clock, lobby: Lobby) -> None:
        self._db, self._clock, self._lobby = sessions, clock, lobby

    async def start(self, viewer: Viewer, table_id: int, *, round_index: int, index: int,
                    seat: int, level: str) -> int:
        """Open and start the practice table of the moment after ``index`` actions of round
        ``round_index`` (both 0-based, as the replay counts its rounds and frames) of table ``table_id``'s finished
        match, the viewer at ``seat``; returns the new table's id. Raises LobbyError (see the
        module docstring) or SeatTaken; nothing is created then."""
        if level not in LEVELS:
            raise LobbyError(N_("choose one of the offered values"), field="level")
        document = await self._lobby.scenario(table_id, viewer)
        scenario = load_scenario(document)
        if not 0 <= seat < scenario.players:
            raise LobbyError(N_("no such seat"), field="seat")
        rounds = scenario.rounds
        if not 0 <= round_index < len(rounds) or not 0 <= index <= len(rounds[round_index].actions):
            raise LobbyError(N_("this match has no such moment"), 404)
        try:
            state, _ = play_round(scenario, round_index, limit=index)
        except ScenarioError:
            raise LobbyError(N_("this match has no such moment"), 404) from None
        if scenario.game.is_over(state):
            raise LobbyError(N_("nothing is left to play at this moment; choose an earlier one"), 409)
        await self._lobby._check_busy(viewer.id)
        await self._lobby.check_live_seat(viewer.id)
        return await self._create(viewer, table_id, document,
                                  _earlier_outcomes(scenario, round_index),
                                  index=index, seat=seat, level=level)

    async def _create(self, viewer: Viewer, source_id: int, document: dict[str, Any],
                      earlier: list[RoundOutcome], *, index: int, seat: int, level: str) -> int:
        """The table, its seats, its match and the log's prefix, in one transaction: the
        rounds before (with their ``earlier`` outcomes) and round ``len(earlier)`` up to
        ``index`` actions."""
        round_index = len(earlier)
        deal = 1 + sum(1 for outcome in earlier if not outcome.redeal)
        now = self._clock.now()
        async with self._db() as db:
            source = await db.get(GameTable, source_id)
            assert source is not None  # the scenario was found
            table = GameTable(game=source.game, preset=source.preset, rules=source.rules,
                              players=source.players, deals=deal, opponents="invited",
                              skill=level, secret=secrets.token_urlsafe(16), owner_id=viewer.id,
                              turn_seconds=None, status="playing", created_at=now,
                              seated=source.players)
            db.add(table)
            await db.flush()
            for place in range(source.players):
                db.add(Seat(table_id=table.id, seat=place,
                            user_id=viewer.id if place == seat else None,
                            bot_level=None if place == seat else level))
            match = Match(table_id=table.id, game=source.game, rules=source.rules,
                          players=source.players, deals=deal, started_at=now)
            db.add(match)
            await db.flush()
            for number, stored in enumerate(document["rounds"][:round_index + 1]):
                over = number < round_index
                row = Round(match_id=match.id, number=number, dealer=stored["dealer"],
                            deal=stored["deal"], deck=stored["deck"], dealt_at=now,
                            outcome=outcome_json(earlier[number]) if over else None)
                db.add(row)
                await db.flush()
                actions = stored["actions"] if over else stored["actions"][:index]
                db.add_all(ActionRow(round_id=row.id, idx=idx, action=action, created_at=now)
                           for idx, action in enumerate(actions))
            db.add(PracticeRow(table_id=table.id, source_table_id=source_id, round=round_index,
                               index=index, deal=deal, seat=seat, user_id=viewer.id,
                               level=level, created_at=now))
            await db.commit()
            return table.id

    async def info(self, table_id: int) -> dict[str, Any] | None:
        """Where practice table ``table_id`` came from and the results of its deal, or None for
        another table: ``{"table", "source", "round", "index", "deal": the deal's counted
        number, "seat", "level", "happened": the seat's score of that deal in the source
        match, "played": its score here once the deal is over (else None)}``."""
        async with self._db() as db:
            row = (await db.execute(select(PracticeRow).where(
                PracticeRow.table_id == table_id))).scalar_one_or_none()
            if row is None:
                return None
            return {"table": table_id, "source": row.source_table_id, "round": row.round,
                    "index": row.index, "deal": row.deal, "seat": row.seat, "level": row.level,
                    "happened": await _round_score(db, row.source_table_id, row.round, row.seat),
                    "played": await _round_score(db, table_id, row.round, row.seat)}


def _earlier_outcomes(scenario: Scenario, round_index: int) -> list[RoundOutcome]:
    """The outcomes of the rounds before ``round_index`` (finished rounds of the match)."""
    return [scenario.game.outcome(play_round(scenario, number)[0]) for number in range(round_index)]


async def _round_score(db: Any, table_id: int, round_index: int, seat: int) -> int | None:
    """The score of ``seat`` in round ``round_index`` of table ``table_id``'s match (None:
    not over)."""
    outcome = (await db.execute(
        select(Round.outcome).join(Match, Match.id == Round.match_id)
        .where(Match.table_id == table_id, Round.number == round_index))).scalar_one_or_none()
    if not outcome or not outcome.get("finished", True):
        return None
    return int(outcome["scores"][seat])
