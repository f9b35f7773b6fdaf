"""What a tournament is made of (:class:`TournamentSpec`), and the refusal of every bad one.

A spec is checked twice: its fields' ranges by pydantic (a number of players of 10^30 never
gets further), then what depends on the game and the clock by :func:`check_spec` (the rules
preset and options through the game's own ``make_rules``, the table size, the deals of a
round, a start in the future). Every refusal is a :class:`TournamentError` naming the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError

from app.games.base import RulesError
from app.games.registry import UnknownGame, available_games, get_game
from app.i18n import N_
from app.lobby.service import LobbyError, OptionValue, rules_refusal
from app.rooms.match import MAX_DEALS, end_condition

FORMATS = ("series", "duplicate", "arena")
#: ``game``: the game's own score; ``won_bonus`` (Doppelkopf): game points plus 50 per deal won
SCORINGS = ("game", "won_bonus")
VISIBILITIES = ("public", "friends", "invited")
LEVELS = ("beginner", "intermediate", "expert")
#: the most people one tournament takes (a site's biggest evening, not a bound of the code)
MAX_PLAYERS = 1024
#: the most rounds of a series
MAX_ROUNDS = 12
#: the bonus of a deal won under ``won_bonus`` scoring
WON_BONUS = 50
#: how far ahead a tournament may be scheduled
MAX_AHEAD = timedelta(days=90)


class TournamentError(LobbyError):
    """A tournament request refused: ``status`` the HTTP status that fits (400, 403, 404,
    409), ``field`` the field it is about or None; the message is a catalogue msgid. A
    LobbyError, so the site's pages and JSON answer it as they answer the lobby's."""


class TournamentSpec(BaseModel):
    """A new tournament. Strict: the JSON API's values are taken as sent (the CLI and the
    site's form convert their strings first)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=80)
    game: str = Field(default="doppelkopf", max_length=32)
    preset: str | None = Field(default=None, max_length=32)
    options: dict[Annotated[str, Field(max_length=64)], OptionValue] = Field(
        default_factory=dict, max_length=32)
    format: Literal["series", "duplicate", "arena"] = "series"
    #: people and computer players at a table (None: the game's largest)
    table_size: int | None = Field(default=None, ge=2, le=4)
    #: rounds of a series (an arena has none)
    rounds: int = Field(default=3, ge=1, le=MAX_ROUNDS)
    #: deals of a round (a series) or a match (an arena): Doppelkopf a multiple of the table
    #: size; the other games end by their own rule, and a number above 0 caps it
    deals: int = Field(default=8, ge=0, le=MAX_DEALS)
    max_players: int = Field(default=64, ge=1, le=MAX_PLAYERS)
    min_players: int = Field(default=2, ge=1, le=MAX_PLAYERS)
    starts_at: AwareDatetime
    #: an arena's window in minutes
    duration: int = Field(default=0, ge=0, le=24 * 60)
    #: seconds between two rounds of a series
    pause: int = Field(default=60, ge=0, le=3600)
    #: an arena's seconds of waiting before computer players fill a table
    fill_wait: int = Field(default=30, ge=0, le=600)
    bot_level: Literal["beginner", "intermediate", "expert"] = "intermediate"
    turn_seconds: int | None = Field(default=30, ge=5, le=600)
    scoring: Literal["game", "won_bonus"] = "game"
    visibility: Literal["public", "friends", "invited"] = "public"
    invite: list[Annotated[str, Field(max_length=64)]] = Field(default_factory=list,
                                                                max_length=32)


@dataclass(frozen=True)
class CheckedSpec:
    """A spec that passed :func:`check_spec`, with what it resolved: the table size, the
    preset, the rules JSON and the deals every table stores."""

    spec: TournamentSpec
    table_size: int
    preset: str | None
    rules: dict[str, Any]
    table_deals: int


def parse_spec(data: Any) -> TournamentSpec:
    """``data`` (a dict) as a spec. Raises TournamentError naming the first wrong field, in
    one short line that never echoes the input."""
    if not isinstance(data, dict):
        raise TournamentError(N_("a tournament is a JSON object of its fields"))
    try:
        if isinstance(data, dict):  # JSON's own types: dates as ISO text, no "4" for 4
            return TournamentSpec.model_validate_json(json.dumps(data, default=str))
        return TournamentSpec.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        field = ".".join(str(p) for p in first.get("loc", ())) or None
        return _refuse_field(field, first)


def _refuse_field(field: str | None, error: dict[str, Any]) -> TournamentSpec:
    context = error.get("ctx") or {}
    kind = error.get("type", "")
    name = field or "?"
    if kind in ("greater_than_equal", "too_short"):
        raise TournamentError(N_("%(name)s: at least %(limit)s"), field=field, name=name,
                              limit=context.get("ge", context.get("min_length")))
    if kind in ("less_than_equal", "too_long", "string_too_long"):
        raise TournamentError(N_("%(name)s: at most %(limit)s"), field=field, name=name,
                              limit=context.get("le", context.get("max_length")))
    if kind == "string_too_short":
        raise TournamentError(N_("%(name)s: missing"), field=field, name=name)
    if kind == "missing":
        raise TournamentError(N_("%(name)s: missing"), field=field, name=name)
    if kind == "extra_forbidden":
        raise TournamentError(N_("%(name)s: no such field"), field=field, name=name)
    if kind.startswith(("timezone", "datetime")):
        raise TournamentError(N_("%(name)s: a date and time with its time zone, e.g. "
                                 "2026-12-24T20:00+01:00"), field=field, name=name)
    raise TournamentError(N_("%(name)s: not a valid value"), field=field, name=name)


def check_spec(spec: TournamentSpec, now: datetime) -> CheckedSpec:
    """Check what the field ranges cannot: the game and its rules, the table size, the deals,
    the format's own fields and the start. Returns the resolved spec.

    Raises TournamentError (``field`` set): an unknown game, preset or option; a table size
    the game is not played by; Doppelkopf deals that are not a positive multiple of the
    table size; Doppelganger Tricks deals over the table size; an arena without a window or
    a series with one; more minimum than maximum players; a start in the past or more than
    90 days ahead; the +50 scoring for a game other than Doppelkopf or for a duplicate
    series or an arena.
    """
    try:
        game = get_game(spec.game)
    except UnknownGame:
        raise TournamentError(N_("unknown game '%(game)s'; one of %(games)s"), field="game",
                              game=spec.game, games=", ".join(available_games())) from None
    size = spec.table_size or game.player_counts[-1]
    if size not in game.player_counts:
        raise TournamentError(N_("%(game)s is not played at tables of %(size)s"),
                              field="table_size", game=spec.game, size=size)
    preset = spec.preset or next(iter(game.presets), None)
    try:
        made = game.make_rules({**({"preset": preset} if preset else {}), **spec.options})
        rules = game.rules_json(made)
    except RulesError as err:
        lobby = rules_refusal(err)
        raise TournamentError(lobby.msgid, field=lobby.field or "options",
                              translated=lobby.translated, **lobby.params) from None
    deals = _table_deals(game, made, size, spec.deals)
    if spec.format == "arena" and not 5 <= spec.duration <= 24 * 60:
        raise TournamentError(N_("an arena lasts 5 to 1440 minutes"), field="duration")
    if spec.format != "arena" and spec.duration:
        raise TournamentError(N_("only an arena has a duration; a series has rounds"),
                              field="duration")
    if spec.min_players > spec.max_players:
        raise TournamentError(N_("the minimum of players is above the maximum"),
                              field="min_players")
    if spec.scoring == "won_bonus" and (spec.game != "doppelkopf" or spec.format != "series"):
        raise TournamentError(N_("the +50 per deal won is a scoring of a Doppelkopf series"),
                              field="scoring")
    if spec.starts_at <= now:
        raise TournamentError(N_("the start is in the past"), field="starts_at")
    if spec.starts_at > now + MAX_AHEAD:
        raise TournamentError(N_("the start is more than 90 days ahead"), field="starts_at")
    return CheckedSpec(spec=spec, table_size=size, preset=preset, rules=rules,
                       table_deals=deals)


def _table_deals(game: Any, rules: Any, size: int, deals: int) -> int:
    """The deals every table of the tournament stores (app.rooms.match): Doppelkopf's
    number of deals; the others' cap (0: the game's own end)."""
    end = end_condition(game, rules, size, deals)
    if end.kind == "deals":
        if deals == 0 or deals % size:
            raise TournamentError(N_("deals: a multiple of %(count)s, so that everyone deals "
                                     "equally often"), field="deals", count=size)
        return deals
    if end.kind == "rounds" and deals > size:
        raise TournamentError(N_("deals: at most %(count)s (one round per player)"),
                              field="deals", count=size)
    return deals
