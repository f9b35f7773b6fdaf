"""A tournament in words, in the reader's language: its format, scoring unit and the plain
description of how it is played and counted (the tournament page, the list, the lobby box).
The msgids are in the catalogue (docs/i18n.md); the templates use the filters of FILTERS."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.i18n import N_, gettext, ngettext
from app.i18n.names import end_text, game_name, level_name

FORMATS = {"series": N_("Series"), "duplicate": N_("Duplicate series"), "arena": N_("Arena")}
STATUSES = {"scheduled": N_("Upcoming"), "running": N_("Running"), "finished": N_("Finished"),
            "cancelled": N_("Cancelled")}
VISIBILITIES = {"public": N_("Public"), "friends": N_("Friends"), "invited": N_("Invited")}
#: the unit of the game's own score
UNITS = {"doppelkopf": N_("game points"), "doublehead_kids": N_("golden coins"),
         "doppelganger_tricks": N_("points"), "doppio": N_("penalty points")}
NOTES = {"too_few_players": N_("Cancelled at the start: too few players registered.")}


def _word(table: Mapping[str, str], name: str | None) -> str:
    msgid = table.get(name or "")
    return gettext(msgid) if msgid else (name or "")


def format_name(name: str | None) -> str:
    return _word(FORMATS, name)


def status_name(name: str | None) -> str:
    return _word(STATUSES, name)


def visibility_name(name: str | None) -> str:
    return _word(VISIBILITIES, name)


def unit_name(game: str | None) -> str:
    return _word(UNITS, game)


def note_text(note: str | None) -> str:
    return _word(NOTES, note) if note in NOTES else (note or "")


def description(tour: Mapping[str, Any]) -> list[str]:
    """How tournament ``t`` (Tournaments.summary) is played and counted, paragraph by
    paragraph (docs/tournaments.md says the same at length)."""
    end = end_text(tour.get("end"))
    size = tour["table_size"]
    out = []
    if tour["format"] == "arena":
        out.append(gettext(
            "A window of %(minutes)s minutes. Whoever is free is seated at once with others "
            "who are free, plays one match (%(end)s) at a table of %(size)s and is paired "
            "again. Computer players fill a table after %(wait)s seconds of waiting. Join late, "
            "pause or leave at any time; when the window closes, running matches finish.",
            minutes=tour["duration"], end=end, size=size, wait=tour["fill_wait"]))
        out.append(gettext(
            "Each match scores by placing: 2 points for every player you finish ahead of, "
            "1 for every player you tie with. Ties in the standings: matches won, then %(unit)s.",
            unit=unit_name(tour["game"])))
    else:
        if tour["rounds"] == 1:
            out.append(gettext("One round: the players are drawn at random to tables of %(size)s and "
                               "play %(end)s.", size=size, end=end))
        else:
            count = ngettext("%(num)s round", "%(num)s rounds", tour["rounds"])
            out.append(gettext("%(rounds)s: in each round the players are drawn to tables of "
                               "%(size)s and play %(end)s.", rounds=count, size=size, end=end))
            out.append(gettext(
                "Round 1 is a random draw; later rounds seat players by their standing (the "
                "leaders meet), avoiding players who shared a table before where the numbers "
                "allow. A pause of %(pause)s seconds comes between rounds.", pause=tour["pause"]))
        if tour["format"] == "duplicate":
            out.append(gettext(
                "Duplicate deals: every table of a round plays the same cards — the player in "
                "seat N holds the same hand at every table. Each deal counts as the difference "
                "between your score and the average score of the same seat at the other "
                "tables, so the standings measure play, not the cards. A deal no other table "
                "played (a single table, a redeal) compares with nothing and counts 0. Ties: "
                "%(unit)s, then tables won.", unit=unit_name(tour["game"])))
        elif tour["scoring"] == "won_bonus":
            out.append(gettext(
                "Standing: game points plus 50 for every deal won, summed over all rounds. "
                "Ties: tables won, then the best single table."))
        else:
            if tour.get("lower_wins"):
                out.append(gettext(
                    "Standing: the sum of your %(unit)s over all rounds (fewer is better). "
                    "Ties: tables won, then the best single table.", unit=unit_name(tour["game"])))
            else:
                out.append(gettext(
                    "Standing: the sum of your %(unit)s over all rounds. Ties: tables won, "
                    "then the best single table.", unit=unit_name(tour["game"])))
    out.append(gettext(
        "Empty seats are filled by computer players (%(level)s): they are marked and never "
        "ranked. Whoever has no page of the site open when their table is seated is marked "
        "absent: a computer player plays the seat until they come, and they score what it "
        "does. Absent at the start of two rounds in a row, a player is not seated again until "
        "they press Rejoin.", level=level_name(tour["bot_level"])))
    if tour.get("turn_seconds"):
        out.append(gettext("Time per move: %(seconds)s s; then a computer player moves for "
                           "you.", seconds=tour["turn_seconds"]))
    return out


def game_label(name: str | None) -> str:
    return game_name(name)


FILTERS = {"format_name": format_name, "status_name": status_name,
           "visibility_name": visibility_name, "unit_name": unit_name, "note_text": note_text}
