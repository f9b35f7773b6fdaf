"""JSON API of post-game analyses (app.analysis.service): a player's own seat only."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.api.deps import Csrf, CurrentUser, ServicesDep
from app.guard.fields import TableIdPath

router = APIRouter(prefix="/api")


@router.get("/tables/{table_id}/analysis")
async def analysis(table_id: TableIdPath, request: Request, services: ServicesDep,
                   user: CurrentUser) -> dict[str, Any]:
    """The analysis of the asking player's seat: ``{"status": "none"|"running"|"done"|
    "failed", "seat", "done", "total", "result"}`` (result: while running, the first deal's
    once valued), its reasons in the page's language; 403 for someone who did not play."""
    return await services.analyses.status(user.id, table_id, request.state.lang)


@router.post("/tables/{table_id}/analysis", status_code=202, dependencies=[Csrf])
async def request_analysis(table_id: TableIdPath, request: Request, services: ServicesDep,
                           user: CurrentUser) -> dict[str, Any]:
    """Start the analysis of the asking player's own seat (once per match and seat); returns
    at once with its status. 404 no match, 409 not over, 403 did not play."""
    return await services.analyses.request(user.id, table_id, request.state.lang)
