"""Pages of puzzles (app.analysis.puzzles): a player's own, the daily puzzle, one puzzle."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from app.analysis.puzzles import PuzzleError
from app.api.deps import MaybeUser, ServicesDep
from app.api.puzzle_routes import PuzzleId
from app.i18n.errors import localized
from app.web.pages import _page

router = APIRouter()


@router.get("/puzzles", response_class=HTMLResponse)
async def puzzles_page(request: Request, services: ServicesDep, user: MaybeUser):
    """The player's puzzles (from the analyses of their matches) and the daily puzzle."""
    mine = await services.puzzles.mine(user.id) if user is not None else []
    return _page(request, "puzzles.html", user, puzzles=mine,
                 daily=await services.puzzles.daily_id())


@router.get("/puzzles/daily")
async def daily_page(request: Request, services: ServicesDep, user: MaybeUser):
    """Today's puzzle, or the puzzles page saying there is none yet."""
    daily = await services.puzzles.daily_id()
    if daily is None:
        return await puzzles_page(request, services, user)
    return RedirectResponse(f"/puzzles/{daily}", status_code=303)


@router.get("/puzzles/{puzzle_id}", response_class=HTMLResponse)
async def puzzle_page(puzzle_id: PuzzleId, request: Request, services: ServicesDep, user: MaybeUser):
    """One puzzle, drawn by the table component (static/js/puzzle.js); 404 no such puzzle,
    403 another player's (the daily puzzle is everyone's)."""
    try:
        puzzle = await services.puzzles.puzzle(user.id if user else None, puzzle_id,
                                               request.state.lang)
    except PuzzleError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    return _page(request, "puzzle.html", user, puzzle=puzzle)
