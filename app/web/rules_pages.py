"""The rules pages: ``/rules`` (the games) and ``/rules/{game}`` (one game's rules for a
newcomer, with worked examples), in the reader's language.

A page's chrome goes through the catalogue; its prose is one template per language,
``templates/rules/<game>.<lang>.html``. The example tricks, hands and scores come from
app/web/rules_examples.py, where the rules cores compute what the pictures show.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from jinja2 import pass_context

from app.api.deps import MaybeUser
from app.games.doppelkopf.cards import CARD_POINTS
from app.games.doppio.cards import face_value
from app.games.doublehead_kids.names import CARD_NAMES, family_of
from app.i18n.cards import card_name
from app.web import rules_examples
from app.web.pages import RULES_PROSE, _page, rules_games, templates

router = APIRouter()

CRESTS = {"royal": "♛", "cross": "♣", "spade": "♠", "heart": "♥"}
#: the picture of each Kids card, as the Kids table draws it (static/js/games/kids.js GLYPH)
KID_PICTURES = {
    "King Friedrich": "♔", "Prince / Princess": "♚", "Queen Elisabeth": "♕",
    "Court lady Antoinette": "♛", "Court lady Wilhelmine": "♛", "Karlchen": "☺", "Knight": "♘",
    "Foxy": "✦", "August the Strong": "⚔", "Bishop Marc-Antoine": "♗", "Jester Kunz": "♫",
    "Castle": "♖", "Earl Ernst August": "♜", "Earl Georg": "♞", "Soldier": "♙",
}


def card_face(game: str, code: str) -> dict[str, object]:
    """How templates/rules/_macros.html draws a card before (or instead of) its picture:
    ``classes`` (CSS), ``big`` (a large face: Doppio's number), ``picture`` (a Kids card's
    picture), ``corner`` (a small mark: a Kids family crest, Doppio's bonus value) and ``coin``
    (a Kids card's silver coins)."""
    if game == "doublehead_kids":
        family = family_of(code)
        return {"classes": f"kids {family}", "corner": CRESTS[family], "coin": CARD_POINTS[code],
                "picture": KID_PICTURES[CARD_NAMES[code]]}
    if game == "doppio":
        if code == "B":
            return {"classes": "doppio bonus", "big": "★", "corner": str(face_value(code))}
        tone = "low" if int(code) <= 5 else "mid" if int(code) <= 9 else "high"
        return {"classes": f"doppio {tone}", "big": code}
    if game == "doppelganger_tricks":
        return {"classes": f"colour {code[:1]}"}
    return {"classes": "red" if code[-1:] in "HD" else ""}


# pass_context: evaluated at every render, in the request's language (never folded by Jinja)
templates.env.globals["card_name"] = pass_context(lambda _ctx, game, code: card_name(game, code))
templates.env.globals["card_face"] = pass_context(lambda _ctx, game, code: card_face(game, code))


@router.get("/rules", response_class=HTMLResponse)
async def rules_index(request: Request, user: MaybeUser):
    """Every game's rules page, with a line about each game."""
    return _page(request, "rules/index.html", user, games=rules_games())


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules_page(game: str, request: Request, user: MaybeUser):
    """The rules of ``game`` (a registry key) in the reader's language (English where its
    language has no prose yet); 404 for a name without a rules page."""
    games = rules_games()
    if game not in games:
        raise HTTPException(404)
    lang = request.state.lang if (RULES_PROSE / f"{game}.{request.state.lang}.html").exists() else "en"
    return _page(request, "rules/page.html", user, game=game, games=games,
                 prose=f"rules/{game}.{lang}.html", examples=rules_examples.for_game(game))
