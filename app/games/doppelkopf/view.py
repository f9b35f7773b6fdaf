"""What one seat may see of a deal (``view``): its own hand and everything public.

Never another seat's cards; never another seat's reservation before they are resolved; never
a party membership that has not been shown at the table (an announcement, a queen of clubs
played, a declared contract). A silent solo looks like a normal game to the others until the
soloist has played both queens of clubs. After the deal everything is revealed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar, NamedTuple

from app.games.doppelkopf.bits import counts, expand
from app.games.doppelkopf.cards import QUEEN_OF_CLUBS
from app.games.doppelkopf.contracts import CardOrder, card_order, order_name_of
from app.games.doppelkopf.engine import legal_actions
from app.games.doppelkopf.modes import tournament_projection
from app.games.doppelkopf.reservations import HEALTHY
from app.games.doppelkopf.scoring import score
from app.games.doppelkopf.state import KONTRA, PARTY_NAMES, RE, State, Trick

#: Completed tricks whose JSON is kept (a few hundred tables' deals; a miss only rebuilds it).
TRICK_CACHE_SIZE = 8192
#: Hands kept sorted for the view (:func:`own_hand_of`), and the views' declarations and
#: parties kept by content (a miss only builds them again).
HAND_CACHE_SIZE = 16384


def _queens_played(state: State) -> list[int]:
    """The seats that played a queen of clubs so far, in order."""
    return _shared(state).queens


def silent_solo_shown(state: State) -> bool:
    """Whether a silent soloist has played both queens of clubs (so everyone knows)."""
    return state.standing.contract == "silent_solo" and len(_queens_played(state)) == 2


def public_contract(state: State, seat: int | None) -> str | None:
    """The contract as ``seat`` knows it: a hidden silent solo shows as ``normal``."""
    standing = state.standing
    if (standing.contract == "silent_solo" and seat != standing.declarer
            and not silent_solo_shown(state)):
        return "normal"
    return standing.contract


def known_parties(state: State, seat: int | None) -> dict[int, str]:
    """Party of each seat as far as ``seat`` can know it from the table (and its own hand)."""
    standing = state.standing
    re_party = standing.re_party
    if re_party is None or state.phase == "declare":
        return {}
    everyone = {s: PARTY_NAMES[RE if re_party[s] else KONTRA] for s in range(4)}
    contract = public_contract(state, seat)
    hidden_teams = contract == "normal" or (contract == "wedding" and standing.clarified_at is None)
    if state.phase == "done" or not hidden_teams:
        return everyone
    known: dict[int, str] = {}
    for announcer, _value in standing.announcements:
        known[announcer] = everyone[announcer]
    queens = _queens_played(state)
    for player in queens:
        known[player] = "re"
    if len(queens) == 2:
        return everyone
    if seat is not None and not (contract == "wedding" and seat != standing.declarer):
        known[seat] = everyone[seat]
    return known


def public_order(state: State, seat: int | None) -> CardOrder:
    """The card order as ``seat`` knows it: swines stay hidden from the others until the first
    AD is played (rulings, option ``swines``)."""
    standing = state.standing
    if (standing.swines is None or standing.swines_shown or seat == standing.swines
            or state.phase == "done"):
        return standing.order
    return card_order(order_name_of(standing.contract or "normal"), standing.rules.nines)


def _declarations(state: State, seat: int | None) -> list[str | None]:
    standing = state.standing
    shown = []
    for other, value in enumerate(standing.declarations):
        if value is None or value == HEALTHY or other == seat:
            shown.append(value)
        elif state.phase != "declare" and other == standing.declarer:
            shown.append(value)
        else:
            shown.append("reservation")
    return shown


def _trick_json(plays: Any) -> list[dict[str, Any]]:
    return [{"seat": p.seat, "card": p.card} for p in plays]


@lru_cache(maxsize=TRICK_CACHE_SIZE)
def _completed_json(trick: Trick) -> dict[str, Any]:
    """A completed trick in ``tricks``. Shared, never to be changed by a caller: a completed
    trick never changes, so every seat's view and every later view of the deal hold this same
    object (which a delta skips by identity, app.rooms.delta)."""
    return {"leader": trick.leader, "cards": _trick_json(trick.plays), "winner": trick.winner,
            "points": trick.points}


def _last_json(trick: Trick) -> dict[str, Any]:
    """``last_trick`` for the last completed trick (built once per tuple of completed tricks:
    :func:`_completed`)."""
    return {"cards": _trick_json(trick.plays), "winner": trick.winner, "points": trick.points}


class _Completed(NamedTuple):
    """What the completed tricks of a deal give every seat's view (:func:`_completed`)."""

    #: the completed tricks these are of (the state's ``tricks``, held to check identity)
    tricks: tuple[Trick, ...]
    #: ``tricks`` as JSON (:func:`_completed_json` of each), read-only
    json: list[dict[str, Any]]
    #: per seat: tricks won and card points won
    tricks_won: list[int]
    points_won: list[int]
    #: the seats that played a queen of clubs in them, in order
    queens: list[int]
    #: ``last_trick``: the last of them as :func:`_last_json`, or None
    last: dict[str, Any] | None


#: id(tricks) -> _Completed: the completed tricks' part of the views, kept while the deal's
#: next cards fill the current trick (a state's ``tricks`` stays the same tuple until a trick
#: is completed). Cleared whole when it holds ``TRICK_CACHE_SIZE`` entries.
_COMPLETED: dict[int, _Completed] = {}


def _completed(tricks: tuple[Trick, ...]) -> _Completed:
    """The views' members of the completed ``tricks``, built once per tuple of tricks (by
    identity): each card of a trick in progress reuses them instead of summing every
    completed trick again."""
    found = _COMPLETED.get(id(tricks))
    if found is not None and found.tricks is tricks:
        return found
    points = [0] * 4
    tricks_won = [0] * 4
    queens: list[int] = []
    for trick in tricks:
        points[trick.winner] += trick.points
        tricks_won[trick.winner] += 1
        queens += [p.seat for p in trick.plays if p.card == QUEEN_OF_CLUBS]
    return _remember(_COMPLETED, id(tricks), _Completed(  # type: ignore[no-any-return]
        tricks, [_completed_json(t) for t in tricks], tricks_won, points, queens,
        _last_json(tricks[-1]) if tricks else None), TRICK_CACHE_SIZE)


class _Shared(NamedTuple):
    """What every seat's view of one state has alike (:func:`_shared`)."""

    state: State
    #: the members of the view that every seat sees alike (the tricks, the counts, the
    #: announcements), read-only
    members: dict[str, Any]
    #: the seats that played a queen of clubs so far, in order
    queens: list[int]


class _Recent:
    """The shared part of the state seen last (:func:`_shared`): one tuple, replaced whole,
    so a reader in another thread sees a state with its own part."""

    seen: ClassVar[_Shared | None] = None


def _shared(state: State) -> _Shared:
    """What every seat's view of ``state`` has alike, built once per state: a room builds
    every seat's view of the same state in a row, and the views then hold the same objects,
    which it encodes and diffs once (app.rooms.delta.Freezer)."""
    seen = _Recent.seen
    if seen is not None and seen.state is state:
        return seen
    done = _completed(state.tricks)
    trick = state.trick
    members = {
        "hand_sizes": [held.bit_count() + pairs.bit_count()
                       for held, pairs in zip(state.held, state.pairs, strict=True)],
        "trick": _trick_json(trick),
        "tricks": done.json,
        "tricks_won": done.tricks_won,
        "points_won": done.points_won,
        "announcements": [{"seat": s, "value": v} for s, v in state.standing.announcements],
        "last_trick": done.last,
    }
    queens = done.queens + [p.seat for p in trick if p.card == QUEEN_OF_CLUBS]
    seen = _Recent.seen = _Shared(state, members, queens)
    return seen


#: (held, pairs, id(order)) -> (order, the hand sorted): :func:`own_hand_of`'s hands, kept
#: while the seat plays its other cards. Cleared whole when it holds ``HAND_CACHE_SIZE``.
_HANDS: dict[tuple[int, int, int], tuple[CardOrder, list[str]]] = {}


def own_hand_of(state: State, seat: int, order: CardOrder) -> list[str]:
    """``seat``'s cards as its view shows them: trumps first, then clubs, spades, hearts,
    diamonds, high first in each (``order.hand_rank``). Read-only: the same list is returned
    for the same cards and order (a seat's hand changes at its own cards only), built from the
    state's card sets without spelling out the other hands."""
    held, pairs = state.held[seat], state.pairs[seat]
    key = (held, pairs, id(order))
    found = _HANDS.get(key)
    if found is not None and found[0] is order:
        return found[1]
    hand = sorted(expand(counts(held, pairs)), key=order.hand_rank.__getitem__)
    _remember(_HANDS, key, (order, hand))
    return hand


#: ``legal`` of a seat that may do nothing now (and of spectators): one read-only list
NO_ACTIONS: list[dict[str, Any]] = []

#: what several seats' views show alike, by content: declarations (:func:`_shown`), parties
#: (:func:`_parties_json`)
_SHOWN: dict[tuple[Any, ...], Any] = {}
_PARTIES: dict[tuple[Any, ...], Any] = {}


def _shown(declarations: tuple[str | None, ...]) -> list[str | None]:
    """``declarations`` as the view's list, one read-only list per content: the seats that see
    the same declarations hold the same list, which the room encodes once per change."""
    found = _SHOWN.get(declarations)
    if found is None:
        found = _remember(_SHOWN, declarations, list(declarations))
    return found  # type: ignore[no-any-return]


def _parties_json(known: dict[int, str]) -> dict[str, str]:
    """``parties`` of the view (seat as a string -> ``re``/``kontra``), one read-only dict per
    content, as :func:`_shown`."""
    key = tuple(known.items())
    found = _PARTIES.get(key)
    if found is None:
        found = _remember(_PARTIES, key, {str(s): party for s, party in known.items()})
    return found  # type: ignore[no-any-return]


def _remember(cache: dict[Any, Any], key: Any, value: Any, size: int = HAND_CACHE_SIZE) -> Any:
    """``value``, kept in ``cache`` under ``key``; the view's caches are cleared whole when
    they hold ``size`` entries (a miss only builds the value again)."""
    if len(cache) >= size:
        cache.clear()
    cache[key] = value
    return value


#: id(order) -> (order, its trumps as a list): :func:`trumps_of`
_TRUMPS: dict[int, tuple[CardOrder, list[str]]] = {}


def trumps_of(order: CardOrder) -> list[str]:
    """``order.trumps`` as the view's list, highest first; read-only, one list per order."""
    found = _TRUMPS.get(id(order))
    if found is None or found[0] is not order:  # (the contracts' orders are a few dozen)
        found = _remember(_TRUMPS, id(order), (order, list(order.trumps)))
    return found[1]


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The JSON view of ``state`` for ``seat`` (None: a spectator). The top-level dict is the
    caller's; the lists and dicts in it are read-only: what every seat sees alike (the
    tricks, the counts, the announcements: :func:`_shared`) is shared between the seats'
    views, and the hand, the trumps, the declarations, the parties and an empty ``legal``
    between the views of the same content, also of later states (a caller that changes one
    replaces it: ``view["legal"] = [...]``)."""
    done = state.phase == "done"
    standing = state.standing
    contract = public_contract(state, seat)
    public = _shared(state).members
    order = public_order(state, seat)
    own_hand = own_hand_of(state, seat, order) if seat is not None else []
    data: dict[str, Any] = {
        "game": "doppelkopf",
        "seat": seat,
        "phase": state.phase,
        "dealer": standing.dealer,
        "to_move": state.to_move,
        "hand": own_hand,
        "hand_sizes": public["hand_sizes"],
        "declarations": _shown(tuple(_declarations(state, seat))),
        "contract": contract,
        "declarer": standing.declarer if contract not in (None, "normal") else None,
        "trumps": trumps_of(order),
        "trick": public["trick"],
        "leader": state.leader,
        "last_trick": public["last_trick"],
        "tricks": public["tricks"],
        "tricks_won": public["tricks_won"],
        "points_won": public["points_won"],
        "announcements": public["announcements"],
        "parties": _parties_json(known_parties(state, seat)),
        "swines": standing.swines if standing.swines_shown or done else None,
        "legal": (legal_actions(state, seat) if seat is not None else None) or NO_ACTIONS,
    }
    if standing.contract == "poverty" or (standing.redeal == "poverty_declined"):
        data["poverty"] = _poverty_view(state, seat)
    if standing.contract == "wedding":
        data["wedding"] = {"bride": standing.declarer, "partner": standing.partner,
                           "clarified_at": standing.clarified_at}
    if done:
        data["result"] = score(state).details
    if standing.rules.table_mode == "tournament":
        return tournament_projection(data, seat, done)
    return data


def _poverty_view(state: State, seat: int | None) -> dict[str, Any]:
    poor, taker = state.declarer, state.partner
    result: dict[str, Any] = {
        "poor": poor,
        "taker": taker,
        "answers": [{"seat": s, "value": v} for s, v in state.poverty_answers],
    }
    if seat is not None and seat in (poor, taker) and state.poverty_cards:
        result["cards"] = list(state.poverty_cards)
    return result
