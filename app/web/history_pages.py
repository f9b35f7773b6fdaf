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
from app.web.pages import _page

router = APIRouter()


@router.get("/players/{name}", response_class=HTMLResponse)
async def profile_page(name: str, request: Request, services: ServicesDep, user: MaybeUser):
    try:
        profile = await services.history.profile(name, viewer_id=user.id if user else None)
    except HistoryError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    tournaments = await services.tournaments.for_player(  # with their placing
        profile["player"], viewer(user))
    return _page(request, "profile.html", user, profile=profile, tournaments=tournaments)


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
async def leaderboard_page(game: str, request: Request, services: ServicesDep, user: MaybeUser):
    try:
        board = await services.history.leaderboard(game, user.id if user else None)
    except HistoryError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    return _page(request, "leaderboard.html", user, board=board, games=available_games())


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
