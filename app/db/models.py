"""SQLAlchemy 2 typed models.

Invariants the schema enforces (never read-then-write in the services):
- a seat of a table is held once: unique (table_id, seat);
- a user holds at most one seat of a table: unique (table_id, user_id) (bots have no user);
- one event-log entry per position: unique (round_id, idx);
- a started table holds every seat: ``tables.seated`` counts the seats held and a table is
  ``playing`` only with ``seated = players`` (CHECK). Every change of the seats changes
  ``seated`` in the same transaction, with the table's status checked in the same UPDATE.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class User(Base):
    """A person: a registered account (password_hash set) or a guest (is_guest).

    name: the display spelling. name_key: the canonical key of the name
    (app.accounts.names.name_key: PRECIS UsernameCaseMapped and the TR39 confusable skeleton),
    unique, so "JÜRGEN" and "аdmin" (Cyrillic а) are taken once "Jürgen" and "admin" exist, on
    SQLite and PostgreSQL alike (migration 0005_name_key). Setting ``name`` sets it (a rule of
    the accounts package, app/accounts/keys.py).
    """

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    name_key: Mapped[str] = mapped_column(String(160), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Session(Base):
    """A login session; the cookie carries ``id`` signed with the secret key."""

    __tablename__ = "sessions"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Friendship(Base):
    """A friend request from requester to addressee; ``accepted`` once the addressee agrees."""

    __tablename__ = "friendships"
    __table_args__ = (UniqueConstraint("requester_id", "addressee_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    requester_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    addressee_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    accepted: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameTable(Base):
    """A table of the lobby.

    opponents: "any" (public), "friend" (the owner's friends), "invited" (invitees or the link).
    status: "open" (seats to fill), "playing", "finished", "closed" (abandoned before start).
    rules: the game's full rules JSON (``Game.rules_json``).
    create_key: the New Game form's idempotency key (None without one); unique per owner, so a
    double submit opens one table even when the Redis claim is gone (migration 0003_perf).
    seated: how many seats are held. A seat is taken or given up only together with a
    conditional UPDATE of this row (``status = 'open'`` in the same statement), and the CHECK
    ``status <> 'playing' OR seated = players`` makes a started match with a free seat
    impossible (migration 0004_seated).
    """

    __tablename__ = "tables"
    __table_args__ = (
        UniqueConstraint("owner_id", "create_key"),
        CheckConstraint("seated >= 0 AND seated <= players", name="seated_in_range"),
        CheckConstraint("status <> 'playing' OR seated = players", name="started_tables_are_full"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    preset: Mapped[str | None] = mapped_column(String(32))
    rules: Mapped[dict] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    deals: Mapped[int] = mapped_column(Integer)
    opponents: Mapped[str] = mapped_column(String(16))
    skill: Mapped[str] = mapped_column(String(16))
    secret: Mapped[str] = mapped_column(String(64))
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    create_key: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    #: seconds a person has per move before a computer player moves for them (None: no timer)
    turn_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seated: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: duplicate deals (a tournament's duplicate series): every table with the same seed is
    #: dealt the same cards, seat by seat, deal by deal (app.rooms.match.duplicate_rng);
    #: None: the table's own random deals
    deal_seed: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)


class Seat(Base):
    """A taken seat: a user's, or a computer player's (``bot_level`` set, no user)."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("table_id", "seat"),
        UniqueConstraint("table_id", "user_id"),
        CheckConstraint("seat >= 0", name="seat_nonnegative"),
        CheckConstraint("(user_id IS NULL) <> (bot_level IS NULL)", name="user_or_bot"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    bot_level: Mapped[str | None] = mapped_column(String(16))


class Invitation(Base):
    """A user invited to an "invited" table."""

    __tablename__ = "invitations"
    __table_args__ = (UniqueConstraint("table_id", "user_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))


class Match(Base):
    """The match played at a table (one per table): game, rules and the number of deals."""

    __tablename__ = "matches"
    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), unique=True)
    game: Mapped[str] = mapped_column(String(32))
    rules: Mapped[dict] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    deals: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Round(Base):
    """One deal of a match: who dealt and what, so the event log replays deterministically.

    outcome: ``{"scores": [...], "details": {...}, "redeal": bool}`` once the round is over.
    """

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("match_id", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    dealer: Mapped[int] = mapped_column(Integer)
    deal: Mapped[list] = mapped_column(JSON)
    deck: Mapped[list] = mapped_column(JSON)
    outcome: Mapped[dict | None] = mapped_column(JSON)
    #: when the round was dealt (wall clock): the first turn timer of the round starts here
    dealt_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ActionRow(Base):
    """The event log: each accepted action of a round, in order (``idx`` from 0)."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("round_id", "idx"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"))
    idx: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Result(Base):
    """A seat's final result of a match."""

    __tablename__ = "results"
    #: a player's matches and wins from the index alone (profiles, the statistics; migration
    #: 0008_player_stats)
    __table_args__ = (UniqueConstraint("match_id", "seat"),
                      Index("ix_results_user_id_match_id_winner", "user_id", "match_id", "winner"))
    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    bot_level: Mapped[str | None] = mapped_column(String(16))
    score: Mapped[int] = mapped_column(Integer)
    winner: Mapped[bool] = mapped_column(Boolean)


class Departure(Base):
    """A person who left a rated match early: a computer player took their seat over (turn
    timer run out, or gone longer than the grace period) at ``left_at``. ``returned_at`` is set
    when they come back (and cleared if they leave again); a row of a finished match with no
    ``returned_at`` counts as "left early". Rows of unrated matches are removed at the end.
    reason: "timeout" | "away" | "left" (the person pressed Leave: the seat is played by the
    computer to the end and the person cannot take it back)."""

    __tablename__ = "departures"
    __table_args__ = (UniqueConstraint("match_id", "seat"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    left_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    returned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    reason: Mapped[str] = mapped_column(String(16))


class PlayerRating(Base):
    """A person's current rating in one game (openskill mu/sigma, docs/ratings.md).

    provisional: sigma still at or above the threshold; last_active: end of their last rated
    match of the game (leaderboards show only players active in the last 30 days).
    """

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("user_id", "game"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    provisional: Mapped[bool] = mapped_column(Boolean, default=True)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    last_active: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingChange(Base):
    """A person's rating after one rated match: the rating history. One row per match and
    person (unique), so a match can never be rated twice."""

    __tablename__ = "rating_history"
    #: (user_id, game, id): a player's history of one game in order, from the index alone
    #: (the profile's rating chart, app/stats/profile.py; migration 0008_player_stats)
    __table_args__ = (UniqueConstraint("match_id", "user_id"),
                      Index("ix_rating_history_user_id_game_id", "user_id", "game", "id"))
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Block(Base):
    """``blocker`` blocked ``blocked``: no friend requests or invitations between them."""

    __tablename__ = "blocks"
    __table_args__ = (UniqueConstraint("blocker_id", "blocked_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    blocker_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    blocked_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Analysis(Base):
    """The post-game analysis of one seat of a finished match (app.analysis.service): asked for
    by the person who played that seat, computed once in the background, stored for good.

    status: ``running`` | ``done`` | ``failed``; done/total: decisions analysed so far and in
    all (progress); result: the analysis document (app.analysis.report) once done. One row per
    match and seat (unique): the INSERT decides which request starts the work.
    """

    __tablename__ = "analyses"
    __table_args__ = (UniqueConstraint("match_id", "seat"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(String(16))
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PracticeRow(Base):
    """A table opened with "Play from here" (app.lobby.practice): it started at the moment
    after ``index`` actions of round ``round`` of table ``source_table_id``'s finished match,
    ``user_id`` at ``seat``, computer players of ``level`` elsewhere. ``deal``: that round's
    counted number (redeals do not count)."""

    __tablename__ = "practices"
    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), unique=True)
    source_table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    index: Mapped[int] = mapped_column(Integer)
    deal: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    level: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Puzzle(Base):
    """A decision of a finished match made into a puzzle (app.analysis.puzzles): the position
    from the deciding player's view, the best action, the values and the reason.

    user_id: the player who made the decision (the puzzle is theirs to solve); table_id,
    round, index: where it came from; seat: their seat; view: ``Game.view`` of that seat just
    before the decision; taken: the action played then; best / best_action: the best action's
    key and action; action_values: ``{action key: expected score}``; good: the keys of the
    answers that count as correct (app.analysis.puzzles.answers); why: the reason as data
    (app.analysis.reasons); public: the match was public (``opponents`` "any"), so the puzzle
    may be a daily puzzle; seats: the players' names ``[{"seat", "name", "bot"}]``. One puzzle
    per decision (unique match, round, index).
    """

    __tablename__ = "puzzles"
    __table_args__ = (UniqueConstraint("match_id", "round", "index"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    index: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(32))
    view: Mapped[dict] = mapped_column(JSON)
    taken: Mapped[dict] = mapped_column(JSON)
    best: Mapped[str] = mapped_column(String(64))
    best_action: Mapped[dict] = mapped_column(JSON)
    action_values: Mapped[dict] = mapped_column(JSON)
    good: Mapped[list] = mapped_column(JSON)
    cost: Mapped[float] = mapped_column(Float)
    unit: Mapped[str] = mapped_column(String(32))
    why: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    seats: Mapped[list] = mapped_column(JSON)
    public: Mapped[bool] = mapped_column(Boolean, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PuzzleAnswer(Base):
    """A player's first answer to a puzzle (their own, or a daily puzzle): the action key and
    whether it was the best. One per puzzle and player (unique)."""

    __tablename__ = "puzzle_answers"
    __table_args__ = (UniqueConstraint("puzzle_id", "user_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    answer: Mapped[str] = mapped_column(String(64))
    correct: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerStats(Base):
    """A player's statistics in one game (app.stats): counters summed over their finished
    matches, a projection of the event logs kept up to date as each match finishes and
    rebuildable from them (``python -m app stats rebuild``).

    scope: ``public`` (matches at Anyone tables, which everybody may see) or ``private``
    (Friends and Invited tables, counted for the player's own view only). counts: counter name
    → whole number (app/stats/facts.py names them, e.g. ``deals``, ``re_won``,
    ``solo:solo_queens``).
    """

    __tablename__ = "player_stats"
    __table_args__ = (UniqueConstraint("user_id", "game", "scope"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    scope: Mapped[str] = mapped_column(String(8))
    counts: Mapped[dict] = mapped_column(JSON)


class PlayerPair(Base):
    """Head to head (app.stats): what ``user_id`` did in the finished matches of ``game`` that
    they played with ``other_id``, from ``user_id``'s side (each pair has a row both ways).
    counts: e.g. ``matches``, ``ahead``, ``behind``, ``partner_deals``, ``opponent_won``."""

    __tablename__ = "player_pairs"
    __table_args__ = (UniqueConstraint("user_id", "other_id", "game"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    other_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    counts: Mapped[dict] = mapped_column(JSON)


class StatsMatch(Base):
    """One person's place in one finished match, as the statistics counted it (app.stats).

    A row per (match, person) (unique): it marks the match as counted, so a match is never
    added twice, and it feeds the leaderboards by period. placing: 1 for the best total (ties
    share), public: an Anyone table, rated: the match changed ratings.
    """

    __tablename__ = "stats_matches"
    __table_args__ = (UniqueConstraint("match_id", "user_id"),
                      Index("ix_stats_matches_game_finished_at", "game", "finished_at"))
    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    placing: Mapped[int] = mapped_column(Integer)
    public: Mapped[bool] = mapped_column(Boolean)
    rated: Mapped[bool] = mapped_column(Boolean)


class Tournament(Base):
    """A tournament (app/tournaments): its rules, format and schedule, and where it stands.

    format: ``series`` | ``duplicate`` | ``arena``. status: ``scheduled`` (registration open)
    → ``running`` → ``finished``, or ``cancelled``. ``current_round`` counts the series' rounds
    seated so far (0 before the start); the director moves it on with a conditional UPDATE,
    so a round is never seated twice; ``registered`` counts the people
    registered (CHECK: never above ``max_players``). visibility: ``public`` | ``friends`` (the owner's
    friends) | ``invited`` (invitees, or the secret link). owner_id: None for an operator's
    tournament (the command line). schedule_key: the recurring entry and time it was made for
    (unique: a recurring tournament is created once, whichever process does it).
    """

    __tablename__ = "tournaments"
    __table_args__ = (
        CheckConstraint("current_round >= 0", name="round_nonnegative"),
        CheckConstraint("registered >= 0 AND registered <= max_players",
                        name="registered_in_range"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    preset: Mapped[str | None] = mapped_column(String(32))
    rules: Mapped[dict] = mapped_column(JSON)
    format: Mapped[str] = mapped_column(String(16))
    table_size: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    deals: Mapped[int] = mapped_column(Integer)
    max_players: Mapped[int] = mapped_column(Integer)
    min_players: Mapped[int] = mapped_column(Integer)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    #: arena: minutes of the window; series: 0
    duration: Mapped[int] = mapped_column(Integer, default=0)
    #: seconds between the last table of a round finishing and the next round's seating
    pause: Mapped[int] = mapped_column(Integer)
    #: arena: seconds a free player waits before computer players fill their table
    fill_wait: Mapped[int] = mapped_column(Integer)
    bot_level: Mapped[str] = mapped_column(String(16))
    turn_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    scoring: Mapped[str] = mapped_column(String(16))
    visibility: Mapped[str] = mapped_column(String(16))
    secret: Mapped[str] = mapped_column(String(64))
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"),
                                                 nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    #: people registered: counted with the registration in one conditional UPDATE (like
    #: ``tables.seated``), so a full tournament takes nobody more, on any process
    registered: Mapped[int] = mapped_column(Integer, default=0)
    seed: Mapped[str] = mapped_column(String(64))
    note: Mapped[str | None] = mapped_column(String(200), nullable=True)
    schedule_key: Mapped[str | None] = mapped_column(String(160), nullable=True, unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentPlayer(Base):
    """A person registered for a tournament. status: ``active`` (seated in the next round,
    paired in the arena) | ``paused`` (left or absent: not seated again until they resume;
    their results stay). ``absences``: rounds in a row they were absent at the start.
    ``free_since`` (arena): when they last became free to be paired (None while seated)."""

    __tablename__ = "tournament_players"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"),
                                               index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16), default="active")
    absences: Mapped[int] = mapped_column(Integer, default=0)
    free_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentRound(Base):
    """One round of a series: unique per (tournament, number), so a round is seated once.
    status: ``playing`` | ``done``; deal_seed: the duplicate series' deals of this round."""

    __tablename__ = "tournament_rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    deal_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentSeat(Base):
    """A person's seat at a tournament table: an ordinary ``tables`` row underneath. One per
    (round, person) in a series (nobody is seated twice in a round) and per (table, seat).
    absent: the person had no page of the site open when the table was seated (a computer
    player moves for them after the table's away grace; they score what it does)."""

    __tablename__ = "tournament_seats"
    __table_args__ = (UniqueConstraint("round_id", "user_id"),
                      UniqueConstraint("table_id", "seat"))
    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"),
                                               index=True)
    round_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament_rounds.id", ondelete="CASCADE"), nullable=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    absent: Mapped[bool] = mapped_column(Boolean, default=False)
