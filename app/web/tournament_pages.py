"""The tournament pages: ``/tournaments`` (upcoming, running, finished; a private tournament
for friends from the site) and ``/tournaments/{id}`` (rules and format in words, the rounds,
the live standings, each round's tables to watch, the duplicate deals). Form posts call the
service and go back to the page (303), or show it again with the refusal."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.api.deps import Csrf, MaybeUser, ServicesDep, viewer
from app.bots import LEVELS
from app.games.registry import available_games, get_game
from app.guard.fields import InviteKey, TableIdPath
from app.i18n import N_
from app.i18n.errors import localized
from app.lobby.service import LobbyError
from app.tournaments import words
from app.tournaments.spec import TournamentError, parse_spec
from app.web.pages import _page, templates

router = APIRouter()
templates.env.filters.update(words.FILTERS)
#: the fields of the site's form that are whole numbers
NUMBER_FIELDS = ("rounds", "deals", "duration", "max_players", "table_size")


def _games() -> list[dict[str, Any]]:
    return [{"name": n, "players": list(get_game(n).player_counts)} for n in available_games()]


async def _list_page(request: Request, services, user, status: int = 200,
                     error: str | None = None, form: dict[str, str] | None = None,
                     error_field: str | None = None) -> HTMLResponse:
    listing = await services.tournaments.list(viewer(user))
    return _page(request, "tournaments.html", user, status, listing=listing, games=_games(),
                 levels=LEVELS, error=error, form=form or {}, error_field=error_field)


@router.get("/tournaments", response_class=HTMLResponse)
async def tournaments_page(request: Request, services: ServicesDep, user: MaybeUser):
    return await _list_page(request, services, user)


def read_form(sent: dict[str, str], now) -> dict[str, Any]:
    """The site's form as a spec's fields (numbers read, the start from "starts in N
    minutes"). Raises TournamentError naming the field."""
    data: dict[str, Any] = {k: sent[k] for k in ("name", "game", "format", "visibility",
                                                 "bot_level") if sent.get(k)}
    for name in NUMBER_FIELDS:
        value = sent.get(name, "").strip()
        if value:
            if not value.isdecimal() or len(value) > 6:
                raise TournamentError(N_("%(name)s: a whole number"), field=name, name=name)
            data[name] = int(value)
    minutes = sent.get("starts_in", "").strip() or "10"
    if not minutes.isdecimal() or not 1 <= int(minutes) <= 60 * 24 * 30:
        raise TournamentError(N_("%(name)s: a whole number"), field="starts_in",
                              name="starts_in")
    data["starts_at"] = (now + timedelta(minutes=int(minutes))).isoformat()
    data["invite"] = [n.strip() for n in sent.get("invite", "").split(",") if n.strip()]
    if data.get("format") != "arena":
        data.pop("duration", None)
    return data


@router.post("/tournaments", dependencies=[Csrf])
async def create_form(request: Request, services: ServicesDep, user: MaybeUser) -> Response:
    """A private tournament from the site's form; then its page (with the invitation key)."""
    if user is None:
        return RedirectResponse("/login", status_code=303)
    sent = {k: str(v) for k, v in (await request.form()).items() if k != "csrf"}
    try:
        spec = parse_spec(read_form(sent, services.clock.now()))
        made = await services.tournaments.create(spec, viewer(user))
    except LobbyError as err:
        return await _list_page(request, services, user, 400, localized(err), sent, err.field)
    return RedirectResponse(f"/tournaments/{made['id']}?key={made['secret']}", status_code=303)


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
async def tournament_page(tournament_id: TableIdPath, request: Request, services: ServicesDep,
                          user: MaybeUser, key: InviteKey | None = None):
    try:
        data = await services.tournaments.show(viewer(user), tournament_id, key)
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    return _page(request, "tournament.html", user, tour=data, key=key,
                 description=words.description(data), my_table=_my_table(data, user),
                 invite_url=(str(request.url_for("tournament_page", tournament_id=tournament_id)
                                 .include_query_params(key=data["secret"]))
                             if data.get("secret") else None))


def _my_table(data: dict[str, Any], user) -> int | None:
    """The table the viewer plays at now in this tournament (the page's "Go to my table")."""
    if user is None:
        return None
    tables = [*(tour for r in data["schedule"] for tour in r["tables"]), *data["tables"]]
    for table in reversed(tables):
        if not table["finished"] and any(s["user_id"] == user.id for s in table["seats"]):
            return table["id"]
    return None


@router.post("/tournaments/{tournament_id}/{verb}", dependencies=[Csrf])
async def tournament_form(tournament_id: TableIdPath, verb: str, request: Request,
                          services: ServicesDep, user: MaybeUser,
                          key: InviteKey | None = None) -> Response:
    """Register, unregister (or leave), rejoin or cancel from the page's buttons."""
    if user is None:
        return RedirectResponse("/login", status_code=303)
    service = services.tournaments
    actions = {"register": lambda: service.register(viewer(user), tournament_id, key),
               "unregister": lambda: service.unregister(viewer(user), tournament_id),
               "resume": lambda: service.resume(viewer(user), tournament_id),
               "cancel": lambda: service.cancel(tournament_id, viewer(user))}
    if verb not in actions:
        return _page(request, "error.html", user, 404, error=localized(
            TournamentError(N_("There is no such page."), 404)))
    try:
        await actions[verb]()
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    back = f"/tournaments/{tournament_id}" + (f"?key={key}" if key else "")
    return RedirectResponse(back, status_code=303)
