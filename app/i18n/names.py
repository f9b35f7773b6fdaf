"""The words people read for the site's internal names: games, rules presets, rule options,
opponents, skill levels. Internal names (``ddv``, ``solo_fleshless``) never reach a page.

Each table maps an internal name to a msgid (marked with ``N_``, translated when shown).
A name missing from a table (a game added later) is shown with underscores as spaces, so a
page never breaks; tests/test_i18n.py checks that every installed game, preset and option has
its words here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.games.registry import UnknownGame, get_game
from app.i18n import N_, gettext, ngettext

GAMES = {
    "doppelkopf": N_("Doppelkopf"),
    "doublehead_kids": N_("Doppelkopf for kids"),
    "doppelganger_tricks": N_("Doppelganger Tricks"),
    "doppio": N_("Doppio"),
}
#: one line about each game, for someone choosing (the rules pages, the New Game form)
GAME_PITCHES = {
    "doppelkopf": N_("The classic for four: Re against Kontra, partners found in play, 240 card points to share."),
    "doublehead_kids": N_("Picture cards, duels for silver coins and golden coins to win: Doppelkopf made simple."),
    "doppelganger_tricks": N_("For 3 or 4: bid the tricks you will win; navy doppelgangers annihilate cards."),
    "doppio": N_("For 2 to 4: pair your six cards around the divider, catch discards, call Doppio!"),
}
PRESETS = {
    "ddv": N_("Tournament rules (DDV)"),
    "gametwist": N_("GameTwist"),
    "gametwist_pub": N_("GameTwist pub rules"),
    "basic": N_("Basic"),
    "advanced": N_("Advanced"),
    "standard": N_("Standard"),
}
OPTIONS = {
    "nines": N_("Play with the nines (48 cards)"),
    "heart_ten_second_beats_first": N_("Second ten of hearts beats the first"),
    "heart_ten_first_wins_last_trick": N_("…but in the last trick the first ten of hearts wins"),
    "swines": N_("Swines (both aces of diamonds)"),
    "poverty": N_("Poverty"),
    "re_kontra_doubles": N_("Re and Kontra double the game value"),
    "no_back_door": N_("No back door (special points never turn a won deal into a loss)"),
    "charlie_caught": N_("Charlie caught scores"),
    "throw_in": N_("Throwing in (redeal on request)"),
    "solo_requires_no90": N_("A solo must announce no 90"),
    "announcements": N_("Announcements (Re, Kontra, no 90 …)"),
    "wedding": N_("Wedding"),
    "play_on_until_leader": N_("Play on until one player leads"),
    "target_coins": N_("Coins to win"),
    "catch_window_seconds": N_("Seconds to catch a discard"),
    "doppio_max_value": N_("Highest Doppio value"),
    "failure_penalty": N_("Penalty for a failed Doppio"),
    "game_end_total": N_("Points that end the game"),
    # named options (choices), as the New Game form labels them (static/js/lobby.js)
    "table_mode": N_("Table mode"),
    "solo_leads": N_("Who leads a solo"),
    "wedding_clarification": N_("Wedding: partner found by"),
}
#: GameTwist table modes other than the standard one, as a table's title names them
MODES = {
    "duel": N_("duel mode"),
    "tournament": N_("tournament mode"),
}
OPPONENTS = {
    "any": N_("Anyone"),
    "friend": N_("Friends"),
    "invited": N_("Invited players"),
}
LEVELS = {
    "beginner": N_("Beginner"),
    "intermediate": N_("Intermediate"),
    "expert": N_("Expert"),
}

LEADERBOARD_REASONS = {
    "unrated": N_("you have no rating in this game yet"),
    "provisional": N_("your rating is still provisional"),
    "inactive": N_("you played no rated match in the last 30 days"),
}


#: how a match ends, the same words everywhere (app.rooms.match.EndCondition; the browser's
#: twin is endText in static/js/words.js): kind → its words for a count, in the right number
END_TEXTS: dict[str, Callable[[int], str]] = {
    "deals": lambda n: ngettext("%(num)s deal", "%(num)s deals", n),
    "coins": lambda n: ngettext("first to %(num)s golden coin", "first to %(num)s golden coins", n),
    "rounds": lambda n: ngettext("%(num)s round, one per player", "%(num)s rounds, one per player", n),
    "penalty": lambda n: ngettext("up to %(num)s point", "up to %(num)s points", n),
}


def end_text(end: Mapping[str, Any] | None) -> str:
    """A match's end condition in words: "8 deals", "first to 5 golden coins", "3 rounds, one
    per player", "up to 100 points"; a cap is stated too ("first to 5 golden coins, at most 2
    deals"). ``end``: ``{"kind", "target", "cap"}``; empty for None."""
    if not end or end.get("kind") not in END_TEXTS:
        return ""
    text = END_TEXTS[end["kind"]](end.get("target"))
    if end.get("cap"):
        return ngettext("%(end)s, at most %(num)s deal", "%(end)s, at most %(num)s deals",
                        end["cap"], end=text)
    return text


def _words(table: dict[str, str], name: str | None) -> str:
    if not name:
        return ""
    msgid = table.get(name)
    return gettext(msgid) if msgid else name.replace("_", " ")


def game_name(name: str | None) -> str:
    """``doppelkopf`` → "Doppelkopf"; ``doublehead_kids`` → "Doppelkopf für Kinder"."""
    return _words(GAMES, name)


def row_word(name: str | None) -> str:
    """The word of one row of a game's score sheet: "Round" for the games that play rounds
    (``GameTraits.round_word``), else "Deal"."""
    try:
        rounds = get_game(name or "").traits.round_word == "round"
    except UnknownGame:
        rounds = False
    return gettext("Round") if rounds else gettext("Deal")


def game_pitch(name: str | None) -> str:
    """One line about a game for someone choosing one (GAME_PITCHES); empty if unknown."""
    msgid = GAME_PITCHES.get(name or "")
    return gettext(msgid) if msgid else ""


def preset_name(name: str | None) -> str:
    """``ddv`` → "Turnierregeln (DDV)" / "Tournament rules (DDV)"."""
    return _words(PRESETS, name)


def option_name(name: str | None) -> str:
    """``swines`` → "Schweinchen (beide Karo-Asse)"."""
    return _words(OPTIONS, name)


def mode_name(name: str | None) -> str:
    """``duel`` → "Duellmodus" / "duel mode" (the GameTwist table modes)."""
    return _words(MODES, name)


def opponents_name(name: str | None) -> str:
    return _words(OPPONENTS, name)


def level_name(name: str | None) -> str:
    return _words(LEVELS, name)


def leaderboard_reason(name: str | None) -> str:
    """Why one is not on a leaderboard (app.ratings.leaderboard.Ineligible) in words."""
    return _words(LEADERBOARD_REASONS, name)


#: a computer player's level in its name, "Computer 2 (beginner)" (lower case in English)
BOT_LEVELS = {
    "beginner": N_("beginner"),
    "intermediate": N_("intermediate"),
    "expert": N_("expert"),
}


def player_name(seat: Mapping[str, Any]) -> str:
    """A seat's player in words: a person's name, or a computer player with its level in the
    current language ("Computer 2 (Anfänger)"). ``seat``: {"name", "bot": level or None,
    "seat" (optional)}."""
    level = seat.get("bot")
    if not level:
        return person_name(seat.get("name"))
    words = _words(BOT_LEVELS, level)
    if seat.get("seat") is None:
        return gettext("Computer (%(level)s)", level=words)
    return gettext("Computer %(number)s (%(level)s)", number=seat["seat"] + 1, level=words)


def games_for_form(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Lobby.games() with the words of the current language added for the New Game form:
    ``label`` and ``pitch`` per game, ``preset_labels`` {preset: words}, ``option_labels``
    {option: words} and ``option_order`` (the options in the order the rules core lists them;
    the page's JSON sorts object keys)."""
    result = []
    for game in games:
        options: dict[str, None] = {}
        for values in (*game["switches"].values(), *game["numbers"].values()):
            options.update(dict.fromkeys(values))
        result.append({**game, "label": game_name(game["name"]), "pitch": game_pitch(game["name"]),
                       "option_order": list(options),
                       "preset_labels": {p: preset_name(p) for p in game["presets"]},
                       "option_labels": {o: option_name(o) for o in options}})
    return result


def person_name(name: str | None) -> str:
    """A person's name as shown in the current language: a guest's stored name
    ``Guest-866596`` (unique and stable, app/accounts/names.py) reads "Gast-866596" in German;
    every other name as it is."""
    name = str(name or "")
    prefix = "Guest-"
    if name.startswith(prefix) and name[len(prefix):].isdigit():
        return gettext("Guest-%(number)s", number=name[len(prefix):])
    return name


def invitation_words(invitation: Mapping[str, Any]) -> dict[str, str]:
    """An invitation's table in words (Lobby.invitations): ``game``, ``rules`` (preset,
    table mode, how the match ends: "Normal rules · 8 deals") and ``seats`` ("3 of 4 seats
    free"), and ``from``, the inviter's name as shown."""
    rules = [preset_name(invitation.get("preset")), mode_name(invitation.get("mode")),
             end_text(invitation.get("end"))]
    return {"game": game_name(invitation.get("game")), "from": person_name(invitation.get("from")),
            "rules": " · ".join(part for part in rules if part),
            "seats": ngettext("%(num)s of %(players)s seat free", "%(num)s of %(players)s seats free",
                              int(invitation.get("free") or 0), players=invitation.get("players"))}


FILTERS = {"game_name": game_name, "row_word": row_word, "game_pitch": game_pitch, "preset_name": preset_name, "option_name": option_name,
           "opponents_name": opponents_name, "level_name": level_name, "mode_name": mode_name,
           "leaderboard_reason": leaderboard_reason, "player_name": player_name,
           "person_name": person_name,
           "end_text": end_text}
