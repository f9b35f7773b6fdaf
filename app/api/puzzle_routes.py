"""JSON API of puzzles (app.analysis.puzzles): a player's own, and the daily puzzle."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import Csrf, CurrentUser, MaybeUser, ServicesDep
from app.guard.fields import MAX_DB_ID

router = APIRouter(prefix="/api")

PuzzleId = Annotated[int, Path(ge=1, le=MAX_DB_ID)]
#: a field of an action as the tables send it: a card, a suit, a value, a partner, a position
ActionField = (Annotated[str, Field(max_length=32)] | Annotated[int, Field(ge=-1000, le=1000)]
               | Annotated[list[Annotated[str, Field(max_length=8)]], Field(max_length=12)])


class Answer(BaseModel):
    """An answer: one action of the position (``{"type": "play", "card": "KC"}``)."""

    model_config = ConfigDict(extra="forbid")
    action: dict[Annotated[str, Field(max_length=16)], ActionField] = Field(max_length=6)


@router.get("/puzzles")
async def my_puzzles(services: ServicesDep, user: CurrentUser) -> dict[str, Any]:
    """The asking player's puzzles (newest first) and today's daily puzzle's id (or null)."""
    return {"puzzles": await services.puzzles.mine(user.id),
            "daily": await services.puzzles.daily_id()}


@router.get("/puzzles/{puzzle_id}")
async def puzzle(puzzle_id: PuzzleId, request: Request, services: ServicesDep,
                 user: MaybeUser) -> dict[str, Any]:
    """The position to solve (the player's own puzzle, or today's daily puzzle for anyone);
    404 no such puzzle, 403 another player's."""
    return await services.puzzles.puzzle(user.id if user else None, puzzle_id, request.state.lang)


@router.post("/puzzles/{puzzle_id}/answer", dependencies=[Csrf])
async def answer(puzzle_id: PuzzleId, body: Answer, request: Request, services: ServicesDep,
                 user: CurrentUser) -> dict[str, Any]:
    """Answer with one action of the position: the solution (best action, values, why, the
    game it came from). 404 no such puzzle, 403 another player's, 400 not an action of the
    position; nothing is stored then."""
    return await services.puzzles.answer(user.id, puzzle_id, body.action, request.state.lang)
