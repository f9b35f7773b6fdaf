"""The HTML pages: lobby, table, login/register, score sheet; and their form posts.

Thin like the API: each form post calls one service and redirects (303) or shows the page
again with the error. Every form carries the CSRF token (hidden field ``csrf``).
"""

from __future__ import annotations

from http import HTTPStatus
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context

from app import i18n
from app.accounts.cookies import SESSION_COOKIE
from app.accounts.service import AccountError
from app.api.deps import (
    Csrf,
    MaybeUser,
    ServicesDep,
    check_signup,
    check_table_creation,
    login_decision,
    login_succeeded,
    retry_after,
    start_session,
    too_many_words,
    viewer,
)
from app.bots import LEVELS
from app.games.registry import available_games
from app.guard.fields import INVITE_KEY_PATTERN, DbId, InviteKey, TableIdPath
from app.guard.ratelimit import Policy
from app.i18n import N_, _, names
from app.i18n.errors import localized
from app.lobby.friends import FriendError
from app.lobby.service import LobbyError, SeatTaken
from app.rooms.match import MAX_DEALS
from app.web import new_game

ROOT = Path(__file__).resolve().parent.parent.parent
templates = Jinja2Templates(directory=ROOT / "templates")
templates.env.add_extension("jinja2.ext.i18n")
# (Jinja's newstyle ngettext fills the placeholders itself, %(num)s and the call's own: the
# callable only picks the form)
templates.env.install_gettext_callables(
    gettext=i18n.gettext, newstyle=True,
    ngettext=lambda singular, plural, n: i18n.translations(i18n.current_language()).ngettext(
        singular, plural, n))
# pass_context keeps Jinja from folding `{{ "any" | opponents_name }}` into the words of the
# language the template was first compiled in: the name filters must run at every render
templates.env.filters.update({name: pass_context(lambda _ctx, *args, _f=func: _f(*args))
                              for name, func in names.FILTERS.items()})
templates.env.globals["MAX_DEALS"] = MAX_DEALS  # New Game's Deals field (app.rooms.match)
router = APIRouter()
RULES_PROSE = ROOT / "templates" / "rules"


def rules_games() -> list[str]:
    """The installed games that have a rules page: an English prose template
    ``templates/rules/<game>.en.html`` (a game added without one has no page and no link)."""
    return [name for name in available_games() if (RULES_PROSE / f"{name}.en.html").exists()]


def _page(request: Request, template: str, user, status: int = 200, **context: Any) -> HTMLResponse:
    lang = getattr(request.state, "lang", i18n.DEFAULT)
    i18n.set_language(lang)
    return templates.TemplateResponse(request, template, {
        "user": user, "csrf": request.state.csrf, "lang": lang,
        "i18n_data": {"lang": lang, "messages": i18n.browser_catalogue(lang)},
        **context}, status_code=status)


#: the words of an HTTP refusal that carries none of its own (Starlette's "Not Found" …)
STATUS_WORDS = {404: N_("There is no such page."), 405: N_("That is not possible here."),
                422: N_("The form was not filled in as expected.")}


async def error_page(request: Request, status: int, detail: Any,
                     headers: dict[str, str] | None = None) -> HTMLResponse:
    """The error page for an HTTP refusal (app.main's handler); ``detail`` is already in the
    request's language, or Starlette's English phrase ("Not Found"), replaced by
    STATUS_WORDS."""
    from app.api.deps import user_of

    if not isinstance(detail, str) or (status in STATUS_WORDS and detail == HTTPStatus(status).phrase):
        detail = _(STATUS_WORDS.get(status, N_("That did not work")))
    try:
        user = await user_of(request)
    except Exception:  # noqa: BLE001 - an error page must render even if the session does not
        user = None
    page = _page(request, "error.html", user, status, error=detail)
    page.headers.update(headers or {})
    return page


def _refused(page: HTMLResponse, decision) -> HTMLResponse:
    """A page answering a refused rate limit: 429 with Retry-After."""
    page.headers.update(retry_after(decision))
    return page


def _local(path: str) -> str:
    """``path`` if it is a path on this site, else the lobby."""
    return path if path.startswith("/") and not path.startswith("//") and "\\" not in path else "/"


def _back(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


async def _lobby_page(request: Request, services, user, status: int = 200,
                      error: str | None = None, form: dict[str, str] | None = None,
                      error_field: str | None = None,
                      seat_taken: int | None = None) -> HTMLResponse:
    """The lobby; after a refused New Game, ``form`` holds what was sent (shown again) and
    ``error_field`` the field that was wrong; ``seat_taken``: the table a second live seat was
    refused for (the refusal offers Return / Leave it). ``playing_at``: the running table the
    user plays at ("You are playing at table N — return")."""
    tables = await services.lobby.open_tables(viewer(user))
    playing_at = await services.lobby.playing_at(user.id) if user else None
    friends = (await services.friends.listing(user.id, await services.presence.online())
               if user else None)
    with_rules = set(rules_games())
    games = [{**game, "rules": game["name"] in with_rules}
             for game in names.games_for_form(services.lobby.games())]
    tournaments = await services.tournaments.list(viewer(user))  # the lobby's box
    waiting = await services.play_now.waiting_counts() if user else {}
    return _page(request, "lobby.html", user, status, tables=tables, friends=friends,
                 waiting=waiting,
                 tournaments=[*tournaments["running"], *tournaments["upcoming"]][:3],
                 games=games, levels=LEVELS, error=error,
                 form=form or {}, error_field=error_field, seat_taken=seat_taken,
                 playing_at=playing_at)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, services: ServicesDep, user: MaybeUser, game: str = "",
                challenge: str = ""):
    """The lobby: open tables (live), New Game, friends. ``?game=<name>`` chooses that game in
    the New Game form (the rules pages' "Play" links); an unknown name is ignored.
    ``?challenge=<name>`` (Challenge in the friends list and on a profile) fills New Game with
    that person invited to a table of invited players."""
    chosen = {"game": game} if game in {g["name"] for g in services.lobby.games()} else {}
    challenge = challenge.strip()[:64]
    if challenge and user is not None and challenge != user.name:
        chosen.update(opponents="invited", invite=challenge, challenge=challenge)
    return await _lobby_page(request, services, user, form=chosen or None)


@router.post("/invite-friend", dependencies=[Csrf])
async def invite_friend_form(request: Request, services: ServicesDep, user: MaybeUser,
                             name: str = Form(max_length=64),
                             table: Annotated[DbId, Form()] = ...) -> Response:
    """Invite a friend to one of one's own tables from the lobby's friends list."""
    from app.api.friends_routes import invite_friend

    if user is None:
        return _back("/login")
    try:
        await invite_friend(services, user, name, table)
    except (FriendError, LobbyError) as err:
        return await _lobby_page(request, services, user, 400, localized(err))
    return _back("/")


@router.get("/lang/{lang}")
async def choose_language(lang: str, next: str = "/") -> Response:
    """Switch the site's language (DE | EN in the header) and remember it for a long time
    (cookie ``dr_lang``, also for guests); back to ``next`` (a path on this site only)."""
    response = _back(_local(next))
    if lang in i18n.LANGUAGES:
        response.set_cookie(i18n.LANG_COOKIE, lang, max_age=i18n.LANG_COOKIE_AGE,
                            samesite="lax", httponly=True)
    return response


@router.get("/login", response_class=HTMLResponse)
async def login_page(request: Request, user: MaybeUser):
    return _page(request, "login.html", user, mode="login")


@router.get("/register", response_class=HTMLResponse)
async def register_page(request: Request, user: MaybeUser):
    return _page(request, "login.html", user, mode="register")


@router.post("/login", dependencies=[Csrf])
async def login_form(request: Request, services: ServicesDep, name: str = Form(max_length=64),
                     password: str = Form(max_length=256)) -> Response:
    decision = login_decision(request, services, name)
    if not decision.allowed:
        page = _page(request, "login.html", None, 429, mode="login", name=name,
                     error=too_many_words(decision, "login attempts"))
        page.headers.update(retry_after(decision))
        return page
    try:
        user = await services.accounts.authenticate(name, password)
    except AccountError as err:
        return _page(request, "login.html", None, 400, mode="login", error=localized(err), name=name)
    login_succeeded(services, name)
    response = _back("/")
    await start_session(response, request, services, user)
    return response


@router.post("/register", dependencies=[Csrf])
async def register_form(request: Request, services: ServicesDep, user: MaybeUser,
                        # a long name (past the field's maxlength) gets the name rule from
                        # accounts, not "the form was not filled in as expected"
                        name: str = Form(max_length=2000),
                        password: str = Form(max_length=256)) -> Response:
    decision = check_signup(request, services, Policy.REGISTER_ADDRESS)
    if not decision.allowed:
        return _refused(_page(request, "login.html", user, 429, mode="register", name=name,
                              error=too_many_words(decision, "new accounts")), decision)
    guest_id = user.id if user is not None and user.is_guest else None
    try:
        created = await services.accounts.register(name, password, guest_id=guest_id)
    except AccountError as err:
        return _page(request, "login.html", user, 400, mode="register", error=localized(err), name=name)
    response = _back("/")
    await start_session(response, request, services, created)
    return response


@router.post("/guest", dependencies=[Csrf])
async def guest_form(request: Request, services: ServicesDep) -> Response:
    decision = check_signup(request, services, Policy.GUEST_ADDRESS)
    if not decision.allowed:
        return _refused(_page(request, "login.html", None, 429, mode="login",
                              error=too_many_words(decision, "new guests")), decision)
    user = await services.accounts.create_guest()
    response = _back("/")
    await start_session(response, request, services, user)
    return response


@router.post("/logout", dependencies=[Csrf])
async def logout_form(request: Request, services: ServicesDep) -> Response:
    sid = services.signer.unsign(request.cookies.get(SESSION_COOKIE))
    if sid is not None:
        await services.accounts.close_session(sid)
    response = _back("/")
    response.delete_cookie(SESSION_COOKIE)
    return response


@router.post("/tables", dependencies=[Csrf])
async def new_game_form(request: Request, services: ServicesDep, user: MaybeUser) -> Response:
    """New Game from the lobby form (fields: app/web/new_game.py); on success go to the table,
    else the lobby again with the form as it was sent and the wrong field named."""
    if user is None:
        return _back("/login")
    form = await request.form()
    sent = {key: str(value) for key, value in form.items() if key != "csrf"}
    try:
        spec = new_game.read_form(form)  # a form refused as it stands costs no table quota
    except LobbyError as err:
        return await _lobby_page(request, services, user, 400, new_game.describe(err),
                                 form=sent, error_field=err.field)
    decision = check_table_creation(services, user, request)
    if not decision.allowed:
        return await _lobby_page(request, services, user, 429,
                                 too_many_words(decision, "new tables"))
    try:
        table = await services.lobby.create_table(viewer(user), spec)
    except SeatTaken as err:
        return await _lobby_page(request, services, user, err.status, localized(err),
                                 form=sent, seat_taken=err.table)
    except LobbyError as err:
        return await _lobby_page(request, services, user, 400, new_game.describe(err),
                                 form=sent, error_field=err.field)
    return _back(f"/tables/{table['id']}")


@router.get("/tables/{table_id}", response_class=HTMLResponse)
async def table_page(table_id: TableIdPath, request: Request, services: ServicesDep, user: MaybeUser,
                     key: InviteKey | None = None):
    """The table: seats before the start, then the game (rendered by static/js/table.js)."""
    try:
        table = await services.lobby.visible_table(viewer(user), table_id, key, page=True)
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    may_join = user is not None and await services.lobby.may_join(viewer(user), table_id, key)
    invite_url = (str(request.url_for("table_page", table_id=table_id).include_query_params(
        key=table["secret"])) if table.get("secret") else None)
    return _page(request, "table.html", user, table=table, key=key, may_join=may_join,
                 invite_url=invite_url, practice=await services.practice.info(table_id),
                 tournament=await services.tournaments.of_table(table_id))  # its link back


@router.post("/tables/{table_id}/join", dependencies=[Csrf])
async def join_form(table_id: TableIdPath, request: Request, services: ServicesDep, user: MaybeUser,
                    key: str = Form("", pattern=INVITE_KEY_PATTERN.replace("{1,64}", "{0,64}"))
                    ) -> Response:
    if user is None:
        return _back("/login")
    try:
        await services.lobby.join(viewer(user), table_id, key or None)
    except SeatTaken as err:
        here = f"/tables/{table_id}" + (f"?key={key}" if key else "")
        return _page(request, "error.html", user, err.status, error=localized(err),
                     seat_taken=err.table, seat_taken_next=here)
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    return _back(f"/tables/{table_id}")


@router.post("/tables/{table_id}/leave", dependencies=[Csrf])
async def leave_form(table_id: TableIdPath, request: Request, services: ServicesDep,
                     user: MaybeUser, next: str = Form("/", max_length=300)) -> Response:
    """Leave a table: an open one's seat, or a running match (a computer player takes the
    seat); then to ``next`` (a path on this site; the lobby by default)."""
    if user is None:
        return _back("/login")
    try:
        await services.lobby.leave(viewer(user), table_id)
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    return _back(_local(next))


@router.post("/tables/{table_id}/computer", dependencies=[Csrf])
async def computer_form(table_id: TableIdPath, request: Request, services: ServicesDep,
                        user: MaybeUser) -> Response:
    """The owner's "Add a computer player" on a waiting table."""
    if user is None:
        return _back("/login")
    try:
        await services.lobby.add_computer(viewer(user), table_id)
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    return _back(f"/tables/{table_id}")


@router.post("/tables/{table_id}/invite", dependencies=[Csrf])
async def invite_form(table_id: TableIdPath, request: Request, services: ServicesDep, user: MaybeUser,
                      name: str = Form(max_length=64)) -> Response:
    if user is None:
        return _back("/login")
    try:
        await services.lobby.invite(viewer(user), table_id, name)
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    return _back(f"/tables/{table_id}")


@router.post("/friends/{verb}", dependencies=[Csrf])
async def friends_form(verb: str, request: Request, services: ServicesDep, user: MaybeUser,
                       name: str = Form(max_length=64)) -> Response:
    """Add, accept, decline, remove, block or unblock a player by name."""
    if user is None:
        return _back("/login")
    actions = {"add": services.friends.add, "accept": services.friends.accept,
               "remove": services.friends.remove, "decline": services.friends.decline,
               "block": services.friends.block, "unblock": services.friends.unblock}
    if verb not in actions:
        return _page(request, "error.html", user, 404, error=_("no such page"))
    try:
        await actions[verb](user.id, name)
    except FriendError as err:
        return await _lobby_page(request, services, user, 400, localized(err))
    return _back("/")


@router.get("/tables/{table_id}/scores", response_class=HTMLResponse)
async def scores_page(table_id: TableIdPath, request: Request, services: ServicesDep, user: MaybeUser):
    """The score sheet of a table's match (replayed from the event log); a private match's
    only for its players."""
    try:
        await services.lobby.visible_table(viewer(user), table_id)
        data = await services.lobby.score_sheet(table_id)
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=localized(err))
    return _page(request, "scores.html", user, **data)
