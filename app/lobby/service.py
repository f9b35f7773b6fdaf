"""The lobby: New Game, the list of open tables, join, leave, invitations.

Opponents of a table (GameTwist's New Game): ``any`` — anyone may join; ``friend`` — only the
owner's friends; ``invited`` — only invited players or holders of the table's secret link.
Empty seats can be given to computer players of a skill level (beginner, intermediate, expert).

Seats are taken by INSERT alone: the unique constraints (table_id, seat) and (table_id, user_id)
decide races, never a read followed by a write. In the same transaction one conditional UPDATE
of the table row counts the seat (``seated``) while the table is still ``open`` and switches it
to ``playing`` when it is full; a leave gives up its seat the same way (``seated - 1`` only
while ``open``). The UPDATEs lock the table row, so a leave and the filling join serialize and
each sees the other's result; the database's CHECK (a ``playing`` table has ``seated =
players``) makes a started match with a free seat impossible. Only the request whose UPDATE
switched the table starts the match.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool
from sqlalchemy import case, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts.service import name_is
from app.clock import Clock
from app.cluster.claims import Claims, InProcessClaims
from app.db.models import Departure, GameTable, Invitation, Match, Seat, User
from app.games.base import RulesError
from app.games.registry import UnknownGame, available_games, get_game
from app.guard.fields import same_key
from app.i18n import N_
from app.i18n.errors import LocalizedError
from app.i18n.names import GAMES, OPTIONS
from app.lobby.friends import Friends
from app.lobby.listing import Listing, load_listing, table_mode
from app.lobby.seating import LEFT, live_table
from app.rooms.manager import Rooms
from app.rooms.match import (
    MAX_DEALS,
    MatchLengthError,
    MatchProgress,
    check_deals,
    deals_range,
    end_condition,
    end_form,
    table_deals,
    table_end,
)


class LobbyError(LocalizedError, ValueError):
    """A lobby request refused; ``status`` is the HTTP status that fits (400/403/404/409),
    ``field`` the New Game field it is about (``deals``, ``bots``, an option name …) or None.
    ``message`` is a catalogue msgid with ``%(name)s`` params (app/i18n/errors.py)."""

    def __init__(self, message: str, status: int = 400, *, field: str | None = None,
                 translated: tuple[str, ...] = (), **params: Any) -> None:
        super().__init__(message, translated=translated, **params)
        self.status = status
        self.field = field


#: the rules cores' RulesError messages (app/games/*/rules.py), for the catalogue; a message
#: not listed here is shown in English
RULES_MESSAGES = (
    N_("unknown option"), N_("expected true or false"), N_("expected an integer"),
    N_("expected an integer of at least 0"), N_("expected an integer above 0"),
    N_("expected a positive whole number"), N_("expected a positive whole number or null"),
    N_("expected an object"), N_("expected a number of seconds above 0 and at most 60"),
    N_("announcements belong to the advanced game (scoring advanced)"),
    N_("duel mode is two people and two computer players (choose 2)"),
    N_("choose one of the offered values"),
    N_("duel mode is played over 4 deals"), N_("a number outside the allowed range"),
)


class SeatTaken(LobbyError):
    """New Game, Join or Play now refused: the person already holds a seat at table
    ``table`` (``running``: its match is in play — the one live seat of app/lobby/seating.py;
    else an open table, which only Play now minds). The refusal offers "Return to table N"
    (``/tables/N``) and "Leave it" (``POST /api/tables/N/leave``). HTTP 409."""

    def __init__(self, table: int, *, running: bool = True) -> None:
        super().__init__(N_("You are playing at table %(table)s. Return to it, or leave it "
                            "to sit down elsewhere.") if running else
                         N_("You have a seat at table %(table)s, which has not started. "
                            "Return to it, or leave it to sit down elsewhere."),
                         409, table=table)
        self.table = table
        self.running = running


def rules_refusal(err: RulesError) -> LobbyError:
    """A rules core's refusal as a New Game error naming the option and why: "rule option
    'Coins to win': expected a positive whole number" (``field`` the option's name)."""
    if err.path == "preset":
        return LobbyError(N_("choose one of the offered values"), field="preset")
    if not err.path:
        return LobbyError(N_("rules: %(problem)s"), problem=str(err))
    problem = err.message
    if problem.startswith(("expected one of", "unknown ")):  # the cores' codes are not words
        problem = N_("choose one of the offered values")
    return LobbyError(N_("rule option '%(option)s': %(problem)s"), field=err.path,
                      translated=("option", "problem"),
                      option=OPTIONS.get(err.path, err.path), problem=problem)


#: a rule option's value as New Game may send it: a switch, a number (finite, at most a
#: billion either way: each game's option_ranges narrow it further), a named value or a list
#: of names (solos). Anything else never reaches a game's make_rules.
OptionValue = (StrictBool | Annotated[int, Field(strict=True, ge=-10**9, le=10**9)]
               | Annotated[float, Field(strict=True, allow_inf_nan=False, ge=-1e9, le=1e9)]
               | Annotated[str, Field(max_length=64)]
               | Annotated[list[Annotated[str, Field(max_length=32)]], Field(max_length=32)]
               | None)


#: the move clock of a public table (Anyone, Play now) unless New Game chose another: seconds
#: per move (a reservation decision: twice as long, app/rooms/clocks.py)
PUBLIC_MOVE_SECONDS = 30


def move_clock(spec: NewTable, players: int) -> int | None:
    """The seconds per move of a new table: New Game's choice; an Anyone table with seats for
    other people has one in any case (PUBLIC_MOVE_SECONDS when none was chosen)."""
    if spec.turn_seconds is not None or spec.opponents != "any" or spec.bots >= players - 1:
        return spec.turn_seconds
    return PUBLIC_MOVE_SECONDS


def too_many_deals() -> LobbyError:
    """The one refusal of a number of deals over MAX_DEALS (the form's, the API's, the lobby's)."""
    return LobbyError(N_("at most %(count)s deals"), field="deals", count=MAX_DEALS)


class NewTable(BaseModel):
    """New Game: game, rules preset and options, seats, deals, opponents, computer players.
    Every field has its documented range (checked here, at the edge); the game's own options
    are checked against its ``option_ranges`` by its ``make_rules``."""

    #: strict: the JSON API's values are taken as sent (``true`` or ``"4"`` are not 1 or 4
    #: deals); the form reads its strings into numbers first (app/web/new_game.py)
    model_config = ConfigDict(extra="forbid", strict=True)
    game: str = Field(default="doppelkopf", max_length=32)
    preset: str | None = Field(default=None, max_length=32)
    options: dict[Annotated[str, Field(max_length=64)], OptionValue] = Field(
        default_factory=dict, max_length=32)
    players: int | None = Field(default=None, ge=2, le=8)
    deals: int = Field(default=4, ge=1, le=MAX_DEALS)
    opponents: Literal["any", "friend", "invited"] = "any"
    skill: Literal["beginner", "intermediate", "expert"] = "beginner"
    bots: int = Field(default=0, ge=0, le=7)
    #: seconds per move before a computer player moves for a silent person (a reservation
    #: decision has twice as long). None: no move clock — only for Friend and Invited tables
    #: and tables where one person plays the computer; an Anyone table that other people may
    #: join gets PUBLIC_MOVE_SECONDS instead (one idle person must not stall the others)
    turn_seconds: int | None = Field(default=None, ge=5, le=600)
    invite: list[Annotated[str, Field(max_length=64)]] = Field(default_factory=list, max_length=8)
    #: idempotency key of the form (a double submit, on any process, opens one table)
    key: str | None = Field(default=None, min_length=1, max_length=64)


@dataclass
class Viewer:
    """Who is asking: user id and name (the service never trusts names from the client)."""

    id: int
    name: str


def games_json(*, any_deal_count: bool = False) -> list[dict[str, Any]]:
    """Every installed game: ``{"name", "players": [...], "presets": [...], "switches":
    {preset: {option: bool}}, "numbers": {preset: {option: number}}, "choices": {preset:
    {option: {"value", "values": [...]}}}}`` — the on/off, number and named-value options
    of each preset (e.g. Doppelkopf's GameTwist ``table_mode``), for New Game; ``ranges``
    {preset: {option: {"min", "max", "step"}}}: what the game's ``make_rules`` accepts of each
    number option (its ``option_ranges``; ``step`` 1 for whole numbers, else "any"); ``end``:
    how its match ends (app.rooms.match.end_form); and ``deals`` {players: {"min", "max",
    "step"}}: the numbers of deals the lobby accepts for a deals-kind game at each table size
    (app.rooms.match.deals_range, the one rule of :meth:`Lobby._match_deals`), else None."""
    result = []
    for name in available_games():
        game = get_game(name)
        switches, numbers, choices, ranges = {}, {}, {}, {}
        traits = game.traits  # app.games.base.GameTraits
        named = traits.option_choices or (lambda _preset: {})
        fractional, bounds = traits.fractional_options, traits.option_ranges
        for preset in game.presets:
            rules = game.rules_json(game.make_rules({"preset": preset}))
            switches[preset] = {k: v for k, v in rules.items() if isinstance(v, bool)}
            numbers[preset] = {k: v for k, v in rules.items()
                               if isinstance(v, int | float) and not isinstance(v, bool)}
            choices[preset] = {k: {"value": rules[k], "values": list(values)}
                               for k, values in named(preset).items()}
            ranges[preset] = {k: {"min": bounds[k][0], "max": bounds[k][1],
                                  "step": "any" if k in fractional else 1}
                              for k in numbers[preset] if k in bounds}
        end = end_form(game)
        deals = ({str(p): deals_range(p, any_deal_count=any_deal_count).json()
                  for p in game.player_counts} if end["kind"] == "deals" else None)
        result.append({"name": name, "players": list(game.player_counts),
                       "presets": list(game.presets), "switches": switches,
                       "numbers": numbers, "choices": choices, "ranges": ranges,
                       "end": end, "deals": deals})
    return result


class Lobby:
    """The lobby service. Starting a full table goes to the rooms (app.rooms.manager.Rooms)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock,
                 rooms: Rooms, friends: Friends, *,
                 any_deal_count: bool = False,
                 max_open_tables: int = 5, claims: Claims | None = None) -> None:
        self._db, self._clock, self._rooms, self._friends = sessions, clock, rooms, friends
        self._claims: Claims = claims or InProcessClaims()
        self._max_open = max_open_tables
        #: development and tests: any number of deals (config.Settings.any_deal_count)
        self._any_deal_count = any_deal_count
        #: awaited after every change of the open tables (the live lobby feed)
        self.on_change: Callable[[], Awaitable[None]] | None = None
        #: awaited with (user id, notice) for the live notices of invitations
        #: (app/lobby/notices.py): ``invite`` to the invited, ``invite_answer`` (accepted or
        #: declined) to the table's owner, ``invite_over`` to those still invited when the
        #: table starts or closes
        self.on_invite: Callable[[int, dict[str, Any]], Awaitable[Any]] | None = None
        #: why a user may not take a seat now (waiting in Play now), or None (app/lobby/playnow.py)
        self.busy: Callable[[int], Awaitable[str | None]] | None = None

    async def _check_busy(self, user_id: int) -> None:
        reason = await self.busy(user_id) if self.busy is not None else None
        if reason:
            raise LobbyError(reason, 409)

    async def check_live_seat(self, user_id: int, *, allow: int | None = None) -> None:
        """Raise SeatTaken when ``user_id`` plays at a running table (other than ``allow``):
        one live seat per person (app/lobby/seating.py)."""
        async with self._db() as db:
            live = await live_table(db, user_id)
        if live is not None and live[0] != allow:
            raise SeatTaken(live[0])

    async def playing_at(self, user_id: int) -> int | None:
        """The running table where ``user_id`` holds a live seat, or None (the lobby's
        "You are playing at table N — return")."""
        async with self._db() as db:
            live = await live_table(db, user_id)
        return None if live is None else live[0]

    async def _changed(self) -> None:
        if self.on_change is not None:
            await self.on_change()

    # --- games -----------------------------------------------------------------------------

    def games(self) -> list[dict[str, Any]]:
        """Every installed game as New Game offers it (:func:`games_json`), with the numbers of
        deals this lobby accepts (``any_deal_count`` widens them)."""
        return games_json(any_deal_count=self._any_deal_count)

    # --- tables ----------------------------------------------------------------------------

    async def create_table(self, owner: Viewer, spec: NewTable) -> dict[str, Any]:
        """Open a table: the owner takes seat 0, computer players take the last ``bots`` seats.

        Raises LobbyError for an unknown game, preset or option, a bad seat count, too many
        deals, too many open tables, or an unknown invitee; SeatTaken while the owner plays at
        a running table. A table filled by computer players
        starts at once.

        With ``spec.key`` the first request of a double submit (on any process: the claim is
        atomic in Redis) creates the table; the others return that same table.
        """
        await self._check_busy(owner.id)
        if spec.key is None:
            return await self._create_table(owner, spec, secrets.token_urlsafe(16))
        claim, secret = f"{owner.id}:{spec.key}", secrets.token_urlsafe(16)
        if await self._claims.claim_table_key(claim, secret):
            try:
                return await self._create_table(owner, spec, secret)
            except BaseException:
                await self._claims.release_table_key(claim, secret)
                raise
        for _attempt in range(100):  # the winner is creating it: wait for its row (<= 5 s)
            winner = await self._claims.table_key_value(claim)
            if winner is None:  # the winner failed and released the key: try again
                return await self.create_table(owner, spec)
            async with self._db() as db:
                table_id = (await db.execute(select(GameTable.id).where(
                    GameTable.secret == winner))).scalar_one_or_none()
            if table_id is not None:
                return await self.table(owner, table_id)
            await asyncio.sleep(0.05)
        raise LobbyError(N_("this table is still being created; reload the lobby"), 409)

    async def _create_table(self, owner: Viewer, spec: NewTable, secret: str) -> dict[str, Any]:
        try:
            game = get_game(spec.game)
        except UnknownGame:
            raise LobbyError(N_("unknown game '%(game)s'"), field="game", game=spec.game) from None
        players = spec.players or game.player_counts[-1]
        if players not in game.player_counts:
            counts = game.player_counts
            low, high = min(counts), max(counts)
            if tuple(counts) != tuple(range(low, high + 1)):  # not a run: list them
                raise LobbyError(N_("%(game)s is played by %(counts)s players"),
                                 field="players", translated=("game",),
                                 game=GAMES.get(spec.game, spec.game),
                                 counts=", ".join(map(str, counts)))
            if low == high:
                raise LobbyError(N_("%(game)s is played by %(count)s players"), field="players",
                                 translated=("game",), game=GAMES.get(spec.game, spec.game),
                                 count=low)
            raise LobbyError(N_("%(game)s is played by %(low)s to %(high)s players"),
                             field="players", translated=("game",),
                             game=GAMES.get(spec.game, spec.game), low=low, high=high)
        if spec.bots > players - 1:
            raise LobbyError(N_("at most %(count)s of the %(seats)s seats can be computer players"),
                             field="bots", count=players - 1, seats=players)
        preset = spec.preset or next(iter(game.presets), None)
        raw = {**({"preset": preset} if preset else {}), **spec.options}
        try:
            made = game.make_rules(raw)
            rules = game.rules_json(made)
        except RulesError as err:
            raise rules_refusal(err) from None
        bot_seats = self._computer_seats(game, made, players, spec)
        deals = self._match_deals(game, made, players, spec.deals)
        await self.check_live_seat(owner.id)  # after the form's own errors
        async with self._db() as db:
            invitees = []
            for name in dict.fromkeys(n.strip() for n in spec.invite if n.strip()):
                user = (await db.execute(select(User).where(name_is(name)))).scalar_one_or_none()
                if user is None:
                    raise LobbyError(N_("there is no player called '%(name)s'"), 404, field="invite",
                                     name=name)
                invitees.append(user.id)
            open_count = (await db.execute(select(func.count()).select_from(GameTable).where(
                GameTable.owner_id == owner.id, GameTable.status == "open"))).scalar_one()
            if open_count >= self._max_open:
                raise LobbyError(N_("you have too many open tables"), 409)
            full = spec.bots == players - 1
            table = GameTable(game=spec.game, preset=preset, rules=rules, players=players,
                              deals=deals, opponents=spec.opponents, skill=spec.skill,
                              secret=secret, owner_id=owner.id,
                              turn_seconds=move_clock(spec, players),
                              status="playing" if full else "open", created_at=self._clock.now(),
                              create_key=spec.key, seated=1 + len(bot_seats))
            db.add(table)
            try:
                await db.flush()
            except IntegrityError:
                if spec.key is None:
                    raise
                # a double submit that got past the claim (e.g. Redis lost it): the unique
                # (owner, create_key) decided; answer with the table that won
                await db.rollback()
                return await self._table_by_key(owner, spec.key)
            db.add(Seat(table_id=table.id, seat=0, user_id=owner.id))
            for seat in bot_seats:
                db.add(Seat(table_id=table.id, seat=seat, bot_level=spec.skill))
            for user_id in invitees:
                if user_id != owner.id:
                    db.add(Invitation(table_id=table.id, user_id=user_id))
            await db.commit()
            table_id = table.id
        actor = self._rooms.actor(table_id)
        if full:
            actor.start()
        await self._changed()
        for user_id in invitees:  # the invited hear of it at once (app/lobby/notices.py)
            if user_id != owner.id and not full:
                await self._tell(user_id, {"type": "invite", "table": table_id,
                                           "game": spec.game, "from": owner.name})
        return await self.table(owner, table_id)

    async def _table_by_key(self, owner: Viewer, key: str) -> dict[str, Any]:
        async with self._db() as db:
            table_id = (await db.execute(select(GameTable.id).where(
                GameTable.owner_id == owner.id, GameTable.create_key == key))).scalar_one()
        return await self.table(owner, table_id)

    def _match_deals(self, game: Any, rules: Any, players: int, deals: int) -> int:
        """The deals a new table stores: the form's number for Doppelkopf (a multiple of the
        players, at most MAX_DEALS); the game's own for the others (app.rooms.match:
        Doppelganger Tricks one round per player, 0 for Kids and Doppio, whose coins or penalty
        limit ends the match; with ``any_deal_count`` the number asked, a cap for those).
        Raises LobbyError on the deals field."""
        asked = self._any_deal_count or end_condition(game, rules, players, 0).kind == "deals"
        if not asked:
            return table_deals(game, rules, players, deals)
        if deals > MAX_DEALS:
            raise too_many_deals()
        if self._any_deal_count:  # development and tests: short matches (a cap) of any game
            return deals
        end = end_condition(game, rules, players, deals)
        try:
            check_deals(end, players)
        except MatchLengthError:
            raise LobbyError(N_("a multiple of %(count)s, so that everyone deals equally often"),
                             field="deals", count=players) from None
        return end.deals

    @staticmethod
    def _computer_seats(game: Any, rules: Any, players: int, spec: NewTable) -> tuple[int, ...]:
        """The seats of the computer players: the game's table layout (Doppelkopf duel mode:
        1 and 3), else the last ``spec.bots`` seats. Raises LobbyError when the layout refuses."""
        layout = game.traits.computer_seats
        if layout is None:
            return tuple(range(players - spec.bots, players))
        try:
            return tuple(layout(rules, players, spec.bots, spec.deals))
        except RulesError as err:
            raise rules_refusal(err) from None

    async def table(self, viewer: Viewer | None, table_id: int) -> dict[str, Any]:
        """A table as the lobby shows it; the secret link only to its owner.

        ``{"id", "game", "preset", "players", "deals", "opponents", "skill", "status", "owner",
        "seats": [{"seat", "name", "bot"}], "free", "mine", "secret"?}``. Raises LobbyError 404.
        """
        async with self._db() as db:
            table = await db.get(GameTable, table_id)
            if table is None:
                raise LobbyError(N_("no such table"), 404)
            return await self._table_json(db, table, viewer)

    async def _table_json(self, db: AsyncSession, table: GameTable,
                          viewer: Viewer | None) -> dict[str, Any]:
        rows = (await db.execute(select(Seat, User.name).outerjoin(User, User.id == Seat.user_id)
                                 .where(Seat.table_id == table.id).order_by(Seat.seat))).all()
        owner = await db.get(User, table.owner_id)
        seats = [{"seat": s.seat, "name": name or f"Computer {s.seat + 1} ({s.bot_level})", "bot": s.bot_level}
                 for s, name in rows]
        mine = viewer is not None and any(s.user_id == viewer.id for s, _ in rows)
        out = {"id": table.id, "game": table.game, "preset": table.preset,
               "players": table.players, "deals": table.deals, "opponents": table.opponents,
               "skill": table.skill, "status": table.status, "turn_seconds": table.turn_seconds,
               "owner": owner.name if owner else None, "seats": seats,
               "free": table.players - len(rows), "mine": mine,
               "mode": table_mode(table.rules),
               "end": table_end(table.game, table.rules, table.players, table.deals)}
        if viewer is not None and viewer.id == table.owner_id:
            out["secret"] = table.secret
            # who is invited and has not answered (the waiting table's "Invited: bob")
            out["invited"] = list((await db.execute(
                select(User.name).join(Invitation, Invitation.user_id == User.id)
                .where(Invitation.table_id == table.id).order_by(User.name))).scalars())
        return out

    async def open_tables(self, viewer: Viewer | None) -> list[dict[str, Any]]:
        """Tables with free seats this viewer may join, and the viewer's own unfinished tables
        (app/lobby/listing.py: a fixed number of queries, whatever the number of tables)."""
        async with self._db() as db:
            listing = await load_listing(db, () if viewer is None else (viewer.id,))
        return listing.for_viewer(None if viewer is None else viewer.id)

    async def listing(self, viewers: Collection[int]) -> Listing:
        """The open tables for many viewers at once (the live feed: one load per change)."""
        async with self._db() as db:
            return await load_listing(db, viewers)

    async def _may_join(self, db: AsyncSession, viewer: Viewer, table: GameTable,
                        key: str | None) -> bool:
        if table.owner_id == viewer.id or table.opponents == "any":
            return True
        if table.opponents == "friend":
            return await self._friends.are_friends(viewer.id, table.owner_id)
        if same_key(key, table.secret):
            return True
        invited = (await db.execute(select(Invitation.id).where(
            Invitation.table_id == table.id, Invitation.user_id == viewer.id))).first()
        return invited is not None

    async def _may_view(self, db: AsyncSession, viewer: Viewer | None, table: GameTable,
                        key: str | None) -> bool:
        """Who may see a table — its page, JSON, WebSocket, score sheet, replay and scenario:

        - an ``any`` table (Anyone, Play now): everyone, also after the match;
        - a Friend or Invited table: its players (those who hold or held a seat) always;
          while it is open (waiting for players) also those who may join it (the owner, the
          owner's friends, invited players, holders of the secret link ``key``); once its
          match has started, nobody else — not while it runs, not after it ended.
        """
        if table.opponents == "any":
            return True
        if viewer is not None and (await db.execute(select(Seat.id).where(
                Seat.table_id == table.id, Seat.user_id == viewer.id))).first() is not None:
            return True
        if table.status not in ("open", "closed"):
            return False  # a private match: its players only
        if viewer is None:
            return same_key(key, table.secret)
        return await self._may_join(db, viewer, table, key)

    async def visible_table(self, viewer: Viewer | None, table_id: int,
                            key: str | None = None, *, page: bool = False) -> dict[str, Any]:
        """The table as :meth:`table`, if ``viewer`` may see it (:meth:`_may_view`). With
        ``page``: the table page of a table still waiting for players is shown to anyone (it
        says who may join; what happens there travels over the WebSocket, which stays private).

        Raises LobbyError 404 for no table and for a table the viewer may not see (a private
        match is not even admitted to exist)."""
        async with self._db() as db:
            table = await db.get(GameTable, table_id)
            waiting = page and table is not None and table.status == "open"
            if table is None or not (waiting or await self._may_view(db, viewer, table, key)):
                raise LobbyError(N_("no such table"), 404)
            return await self._table_json(db, table, viewer)

    async def check_watch(self, viewer: Viewer | None, table_id: int,
                          key: str | None = None) -> str:
        """Whether ``viewer`` may watch a table over the WebSocket (:meth:`_may_view`).
        Returns the table's status (``open``, ``playing``, ``finished``, ``closed``).

        Raises LobbyError 404 (no table) or 403.
        """
        async with self._db() as db:
            table = await db.get(GameTable, table_id)
            if table is None:
                raise LobbyError(N_("no such table"), 404)
            if await self._may_view(db, viewer, table, key):
                return table.status
        raise LobbyError(N_("this table is private"), 403)

    async def may_join(self, viewer: Viewer, table_id: int, key: str | None = None) -> bool:
        """Whether ``viewer`` may take a seat at the table (Friend/Invited rules), e.g. to show
        a Join button only to those it would admit."""
        async with self._db() as db:
            table = await db.get(GameTable, table_id)
            return table is not None and await self._may_join(db, viewer, table, key)

    async def join(self, viewer: Viewer, table_id: int, key: str | None = None) -> int:
        """Take the lowest free seat; returns it. Starts the match when the table is full.

        Raises LobbyError: 404 no table, 403 not allowed (Friend/Invited), 409 already seated,
        table full or not open; SeatTaken (409) while the viewer plays at another running table.
        """
        await self._check_busy(viewer.id)
        await self.check_live_seat(viewer.id, allow=table_id)
        async with self._db() as db:
            table = await db.get(GameTable, table_id)
            if table is None:
                raise LobbyError(N_("no such table"), 404)
            if not await self._may_join(db, viewer, table, key):
                raise LobbyError(N_("this table is for invited players only")
                                 if table.opponents == "invited" else
                                 N_("this table is for the owner's friends only"), 403)
            if table.status != "open":
                raise LobbyError(N_("this table is not open"), 409)
            invited = table.owner_id != viewer.id and (await db.execute(select(Invitation.id).where(
                Invitation.table_id == table_id, Invitation.user_id == viewer.id))).first()
            owner_id = table.owner_id
            seat, started = await self._take_seat(db, table_id, table.players, viewer.id)
        actor = self._rooms.actor(table_id)
        actor.seats_changed()
        if started:
            actor.start()
        await self._changed()
        if invited:  # the inviter hears the answer
            await self._tell(owner_id, {"type": "invite_answer", "table": table_id,
                                        "from": viewer.name, "answer": "accepted"})
        if started:
            await self._invitations_over(table_id)
        return seat

    async def add_computer(self, viewer: Viewer, table_id: int) -> int:
        """The owner of an open table puts a computer player of the table's level on the lowest
        free seat (an invited person declined, nobody came): the same seating as a join (the
        seat's unique constraints, the conditional UPDATE of ``seated``); the last seat starts
        the match. Returns the seat. Raises LobbyError: 404 no table, 403 not the owner, 409 not
        open or full."""
        async with self._db() as db:
            table = await _owners_table(db, table_id, viewer,
                                        N_("only the table's owner may add a computer player"))
            if table.status != "open":
                raise LobbyError(N_("this table is not open"), 409)
            seat, started = await self._take_seat(db, table_id, table.players, None,
                                                  bot_level=table.skill)
        actor = self._rooms.actor(table_id)
        actor.seats_changed()
        if started:
            actor.start()
        await self._changed()
        if started:
            await self._invitations_over(table_id)
        return seat

    async def _tell(self, user_id: int, notice: dict[str, Any]) -> None:
        if self.on_invite is not None:
            await self.on_invite(user_id, notice)

    async def _invitations_over(self, table_id: int) -> None:
        """Tell those still invited to a table that started or closed: their invitation
        notice goes (``invite_over``)."""
        async with self._db() as db:
            waiting = (await db.execute(select(Invitation.user_id).where(
                Invitation.table_id == table_id, ~select(Seat.id).where(
                    Seat.table_id == table_id, Seat.user_id == Invitation.user_id).exists()))).scalars().all()
        for user_id in waiting:
            await self._tell(user_id, {"type": "invite_over", "table": table_id})

    async def invitations(self, user_id: int) -> list[dict[str, Any]]:
        """The open tables ``user_id`` is invited to and does not sit at, newest first (every
        page shows them until answered, static/js/notices.js): ``{"table", "from", "game",
        "preset", "players", "free", "end", "mode"}``."""
        seated = select(Seat.id).where(Seat.table_id == GameTable.id, Seat.user_id == user_id)
        async with self._db() as db:
            rows = (await db.execute(
                select(GameTable, User.name).join(Invitation, Invitation.table_id == GameTable.id)
                .join(User, User.id == GameTable.owner_id)
                .where(Invitation.user_id == user_id, GameTable.status == "open",
                       ~seated.exists())
                .order_by(GameTable.id.desc()).limit(10))).all()
        return [{"table": t.id, "from": owner, "game": t.game, "preset": t.preset,
                 "players": t.players, "free": t.players - t.seated, "mode": table_mode(t.rules),
                 "end": table_end(t.game, t.rules, t.players, t.deals)} for t, owner in rows]

    async def decline(self, viewer: Viewer, table_id: int) -> None:
        """Decline an invitation: it is withdrawn (an Invited table no longer admits the
        viewer) and the owner hears it (``invite_answer`` declined). Raises LobbyError 404
        (no such table, or no invitation there)."""
        async with self._db() as db:
            table = await db.get(GameTable, table_id)
            if table is None:
                raise LobbyError(N_("no such table"), 404)
            owner_id = table.owner_id
            gone = await db.execute(delete(Invitation).where(Invitation.table_id == table_id,
                                                             Invitation.user_id == viewer.id))
            await db.commit()
        if gone.rowcount == 0:
            raise LobbyError(N_("you are not invited to this table"), 404)
        await self._tell(owner_id, {"type": "invite_answer", "table": table_id,
                                    "from": viewer.name, "answer": "declined"})
        await self._changed()

    async def _take_seat(self, db: AsyncSession, table_id: int, players: int,
                         user_id: int | None, *, bot_level: str | None = None) -> tuple[int, bool]:
        """INSERT into the lowest free seat (the unique constraints settle races) and, in the
        same transaction, count it on the table row while the table is open, switching it to
        ``playing`` when it is full. Returns (seat, whether this join started the match).
        ``user_id`` None: a computer player of ``bot_level`` takes the seat."""
        for seat in range(players):
            db.add(Seat(table_id=table_id, seat=seat, user_id=user_id, bot_level=bot_level))
            try:
                await db.flush()
            except IntegrityError:
                await db.rollback()
                mine = None if user_id is None else (await db.execute(select(Seat.seat).where(
                    Seat.table_id == table_id, Seat.user_id == user_id))).scalar_one_or_none()
                if mine is not None:
                    raise LobbyError(N_("you already sit at this table"), 409) from None
                continue
            counted = await db.execute(
                update(GameTable)
                .where(GameTable.id == table_id, GameTable.status == "open",
                       GameTable.seated < GameTable.players)
                .values(seated=GameTable.seated + 1,
                        status=case((GameTable.seated + 1 == GameTable.players, "playing"),
                                    else_=GameTable.status)))
            if counted.rowcount != 1:  # started (or closed) meanwhile: no seat for us
                await db.rollback()
                raise LobbyError(N_("this table is not open"), 409)
            status = (await db.execute(select(GameTable.status).where(
                GameTable.id == table_id))).scalar_one()
            await db.commit()
            return seat, status == "playing"
        raise LobbyError(N_("this table is full"), 409)

    async def leave(self, viewer: Viewer, table_id: int) -> str:
        """Give up one's seat: before the start the seat is free again (the owner leaving
        closes the table); during the match a computer player of the table's level takes the
        seat for the rest of it (:meth:`_leave_match`). Returns ``"left"`` or ``"closed"`` (the
        owner closed an open table) or ``"handed_over"`` (a running match).

        Raises LobbyError 404 (no table or no seat there), 409 (the match is over).
        """
        async with self._db() as db:
            table = await db.get(GameTable, table_id)
            if table is None:
                raise LobbyError(N_("no such table"), 404)
            if table.status == "playing":
                await self._leave_match(db, viewer, table_id)
                return "handed_over"
            if table.status != "open":
                raise LobbyError(N_("the game has started; you cannot leave now"), 409)
            if table.owner_id == viewer.id:
                await db.execute(update(GameTable).where(GameTable.id == table_id,
                                                         GameTable.status == "open")
                                 .values(status="closed"))
                await db.commit()
                self._rooms.close_table(table_id)
                await self._changed()
                await self._invitations_over(table_id)
                return "closed"
            # the seat is given up only while the table is open, checked in the same UPDATE
            # that uncounts it (this locks the table row against the filling join)
            counted = await db.execute(update(GameTable).where(
                GameTable.id == table_id, GameTable.status == "open", GameTable.seated > 0)
                .values(seated=GameTable.seated - 1))
            if counted.rowcount != 1:
                await db.rollback()
                raise LobbyError(N_("the game has started; you cannot leave now"), 409)
            result = await db.execute(delete(Seat).where(Seat.table_id == table_id,
                                                         Seat.user_id == viewer.id))
            if result.rowcount == 0:
                await db.rollback()
                raise LobbyError(N_("you do not sit at this table"), 404)
            await db.commit()
        self._rooms.actor(table_id).seats_changed()
        await self._changed()
        return "left"

    async def _leave_match(self, db: AsyncSession, viewer: Viewer, table_id: int) -> None:
        """Leave a running match (Leave — Verlassen): the seat goes to a computer player of
        the table's level until the match ends; stored as a departure with reason ``"left"``
        (models.Departure), which counts as "left early" when a rated match ends (an unrated
        match forgets it). The person keeps the seat's result but cannot play it again; the
        table's room (on any process) hears of it through ``seats_changed``.

        Raises LobbyError 404 (no seat of the viewer's there, or left already), 409 (the
        match is being set up: try again)."""
        seat = (await db.execute(select(Seat.seat).where(
            Seat.table_id == table_id, Seat.user_id == viewer.id))).scalar_one_or_none()
        if seat is None or await self._left(db, table_id, seat):
            raise LobbyError(N_("you do not sit at this table"), 404)
        match_id = None
        for _attempt in range(100):  # the room creates the match as it starts (<= 5 s)
            match_id = (await db.execute(select(Match.id).where(
                Match.table_id == table_id))).scalar_one_or_none()
            if match_id is not None:
                break
            await db.rollback()  # a fresh snapshot for the next look
            await asyncio.sleep(0.05)
        if match_id is None:
            raise LobbyError(N_("the match is being dealt; try again in a moment"), 409)
        await self._rooms.store.record_departure(match_id, seat, viewer.id, LEFT)
        self._rooms.actor(table_id).seats_changed()
        await self._changed()

    @staticmethod
    async def _left(db: AsyncSession, table_id: int, seat: int) -> bool:
        """Whether the person of ``seat`` has left the table's running match."""
        return (await db.execute(select(Departure.id).join(Match, Match.id == Departure.match_id)
                                 .where(Match.table_id == table_id, Departure.seat == seat,
                                        Departure.reason == LEFT,
                                        Departure.returned_at.is_(None)))).first() is not None

    async def invite(self, viewer: Viewer, table_id: int, name: str) -> None:
        """The owner invites ``name``, who is notified live (``on_invite``). Raises LobbyError
        403 (not the owner, or a block between the two), 404 (no such table or player)."""
        async with self._db() as db:
            table = await _owners_table(db, table_id, viewer, N_("only the table's owner invites"))
            user = (await db.execute(select(User).where(name_is(name)))).scalar_one_or_none()
            if user is None:
                raise LobbyError(N_("there is no player called '%(name)s'"), 404, name=name.strip())
            if await self._friends.blocked_between(viewer.id, user.id):
                raise LobbyError(N_("you cannot invite %(name)s"), 403, name=user.name)
            game = table.game
            db.add(Invitation(table_id=table_id, user_id=user.id))
            try:
                await db.commit()
            except IntegrityError:
                await db.rollback()  # invited before: tell them again
        await self._tell(user.id, {"type": "invite", "table": table_id, "game": game,
                                   "from": viewer.name})
        await self._changed()

    async def scenario(self, table_id: int, viewer: Viewer | None = None, *,
                       check: bool = True) -> dict[str, Any]:
        """The table's finished match as a scenario document (spec/scenario-format.md), for
        ``viewer`` if they may see the table (:meth:`_may_view`; ``check=False``: the caller
        checked).

        Raises LobbyError 404 if the table has no match or the viewer may not see it, 409
        while it is being played (the document holds every hand).
        """
        async with self._db() as db:
            table = await db.get(GameTable, table_id)
            if table is not None and check and not await self._may_view(db, viewer, table, None):
                table = None
        if table is None:
            raise LobbyError(N_("no such table"), 404)
        if table.status != "finished":
            raise LobbyError(N_("the match is not over; export it when it is"), 409)
        stored = await self._rooms.store.load_match(table_id)
        if stored is None:
            raise LobbyError(N_("this table has no match"), 404)
        _match_id, rounds = stored
        rules = dict(table.rules)
        if "deals" in rules and rules["deals"] is None:
            # the table's match length, so the replay ends the match where the table did
            rules["deals"] = table.deals
        return {"game": table.game, "rules": rules, "players": table.players,
                "rounds": [{"dealer": r.dealer, "deal": r.deal, "deck": r.deck,
                            "actions": r.actions} for r in rounds]}

    async def score_sheet(self, table_id: int) -> dict[str, Any]:
        """The table and its match's score sheet, replayed from the event log.

        ``{"table": {...as table()}, "sheet": {"rounds", "totals", "deals", "played"},
        "winners": [...] or None}``. Raises LobbyError 404 for no table or no match yet.
        """
        table = await self.table(None, table_id)
        stored = await self._rooms.store.load_match(table_id)
        if stored is None:
            raise LobbyError(N_("this table has no match yet"), 404)
        game = get_game(table["game"])
        async with self._db() as db:
            rules_raw = (await db.get(GameTable, table_id)).rules
        progress = MatchProgress.replay(game, game.make_rules(rules_raw), table["players"],
                                       table["deals"], stored[1])
        return {"table": table, "sheet": progress.score_sheet(),
                "winners": progress.winners() if progress.match_over() else None}

    async def rematch(self, table_id: int, accepted: list[int]) -> int:
        """Open and start the rematch of a finished table; returns the new table's id.

        The new table copies game, rules, deals, opponents, level and time per move; every
        computer player keeps its seat, each person in ``accepted`` (seats) keeps theirs, and
        any other person's seat goes to a computer player of the table's level. Called by the
        table's room once every person present accepted (app/rooms/intermission.py). A second
        call for the same table returns the same new table (the owner's idempotency key
        ``rematch-<id>``). Raises LobbyError 404 (no table), 409 (the match is not over).
        """
        key = f"rematch-{table_id}"
        async with self._db() as db:
            old = await db.get(GameTable, table_id)
            if old is None:
                raise LobbyError(N_("no such table"), 404)
            if old.status != "finished":
                raise LobbyError(N_("the match is not over"), 409)
            seats = (await db.execute(select(Seat).where(Seat.table_id == table_id)
                                      .order_by(Seat.seat))).scalars().all()
            table = GameTable(game=old.game, preset=old.preset, rules=old.rules,
                              players=old.players, deals=old.deals, opponents=old.opponents,
                              skill=old.skill, secret=secrets.token_urlsafe(16),
                              owner_id=old.owner_id, turn_seconds=old.turn_seconds,
                              status="playing", created_at=self._clock.now(), create_key=key,
                              seated=old.players)  # every seat held: people or computers
            db.add(table)
            try:
                await db.flush()
            except IntegrityError:
                await db.rollback()
                return (await db.execute(select(GameTable.id).where(
                    GameTable.owner_id == old.owner_id, GameTable.create_key == key))).scalar_one()
            for seat in seats:
                keep = seat.user_id is not None and seat.seat in accepted
                db.add(Seat(table_id=table.id, seat=seat.seat,
                            user_id=seat.user_id if keep else None,
                            bot_level=None if keep else (seat.bot_level or old.skill)))
            await db.commit()
            new_id = table.id
        self._rooms.actor(new_id).start()
        await self._changed()
        return new_id


async def _owners_table(db: AsyncSession, table_id: int, viewer: Viewer,
                        not_owner: str) -> GameTable:
    """Table ``table_id`` if ``viewer`` owns it. Raises LobbyError 404 (no such table), 403
    ``not_owner`` (someone else's)."""
    table = await db.get(GameTable, table_id)
    if table is None:
        raise LobbyError(N_("no such table"), 404)
    if table.owner_id != viewer.id:
        raise LobbyError(not_owner, 403)
    return table
