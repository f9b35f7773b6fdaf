"""Pages of match history, profiles, leaderboards and the replay viewer."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from app.api.deps import MaybeUser, ServicesDep, viewer
from app.games.registry import available_games
from app.guard.fields import TableIdPath
from app.history.service import HistoryError
from app.i18n import _
from app.i18n.errors import localized
from app.lobby.service import LobbyError
from app.stats.boards import BOARDS
from app.web.pages import _page

router = APIRouter()


@router.get("/players/{name}", response_class=HTMLResponse)
async def profile_page(name: str, request: Request, services: ServicesDep, user: MaybeUser,
                       game: str | None = Query(None, max_length=32)):
    """The profile: the games played, the statistics of one game (``game``, else the most
    played: app/stats/profile.py), the recent matches."""
    viewer_id = user.id if user else None
    try:
        profile = await services.history.profile(name, viewer_id=viewer_id)
        stats = await services.stats.player(name, viewer_id=viewer_id, game=game, first=True)
    except HistoryError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    tournaments = await services.tournaments.for_player(  # with their placing
        profile["player"], viewer(user))
    return _page(request, "profile.html", user, profile=profile, stats=stats,
                 tournaments=tournaments)


@router.get("/players/{name}/matches", response_class=HTMLResponse)
async def history_page(name: str, request: Request, services: ServicesDep, user: MaybeUser,
                       page: int = Query(1, ge=1, le=5_000)):
    page = max(page, 1)
    try:
        data = await services.history.matches(name, limit=20, offset=(page - 1) * 20,
                                              viewer_id=user.id if user else None)
    except HistoryError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    return _page(request, "history.html", user, data=data, page=page,
                 pages=max(1, -(-data["total"] // 20)))


@router.get("/leaderboards")
async def leaderboards_index():
    return RedirectResponse("/leaderboards/doppelkopf", status_code=303)


@router.get("/leaderboards/{game}", response_class=HTMLResponse)
async def leaderboard_page(game: str, request: Request, services: ServicesDep, user: MaybeUser,
                           board: str = Query("rating", max_length=16)):
    """By rating (app/ratings/store.py), or by period and new players (app/stats/boards.py)."""
    viewer_id = user.id if user else None
    try:
        if board == "rating":
            rating, other = await services.history.leaderboard(game, viewer_id), None
        else:
            rating, other = None, await services.stats.board(game, board, viewer_id=viewer_id)
    except HistoryError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    return _page(request, "leaderboard.html", user, game=game, board=rating, other=other,
                 tab=board, tabs=BOARDS, games=available_games())


@router.get("/tables/{table_id}/replay", response_class=HTMLResponse)
async def replay_page(table_id: TableIdPath, request: Request, services: ServicesDep, user: MaybeUser):
    """The replay viewer (static/js/replay.js); only for a finished match, and a private
    match's only for its players (404 for anyone else)."""
    try:
        table = await services.lobby.visible_table(viewer(user), table_id)
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    if table["status"] != "finished":
        return _page(request, "error.html", user, 409,
                     error=_("the match is not over; its replay shows every hand, so it opens then"))
    return _page(request, "replay.html", user, table=table)
