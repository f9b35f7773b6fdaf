"""The Doppelkopf rules core: legal actions and applying them (one deal at a time)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from operator import itemgetter
from typing import Any

from app.games.base import IllegalAction, quoted
from app.games.doppelkopf import announcements as ann
from app.games.doppelkopf import bits
from app.games.doppelkopf.bits import BIT
from app.games.doppelkopf.cards import CARD_POINTS, FOX, QUEEN_OF_CLUBS, SUIT_NAMES
from app.games.doppelkopf.contracts import TRUMP, card_order, order_name_of
from app.games.doppelkopf.modes import is_computer_seat, trick_event
from app.games.doppelkopf.reservations import (
    HEALTHY,
    POVERTY,
    THROW_IN,
    WEDDING,
    allowed_declarations,
    winning_reservation,
)
from app.games.doppelkopf.rules import EXTRA_SOLOS, STANDARD_SOLOS
from app.games.doppelkopf.state import (
    ANNOUNCEMENT_LEVELS,
    Play,
    Standing,
    State,
    Trick,
    clone,
    copy_standing,
    reference,
)
from app.games.doppelkopf.tricks import CANCELLED, PARTNER, trick_winner, wedding_decision

Event = dict[str, Any]
_new_tuple = tuple.__new__  # a NamedTuple without its Python-level __new__
_new_state = object.__new__  # a State without __init__: every field set by the caller
_second = itemgetter(1)


def _fresh(state: State) -> tuple[State, Standing]:
    """A copy of ``state`` with a copy of its standing, to change fields of both."""
    new = clone(state)
    standing = new.standing = copy_standing(state.standing)
    return new, standing


def _own(state: State) -> Standing:
    """Give a new state (a clone that still shares its standing) a copy of the standing to
    change, and return it."""
    standing = state.standing = copy_standing(state.standing)
    return standing


def _replace_hand(state: State, seat: int, hand: Sequence[str]) -> None:
    """Give ``seat`` exactly ``hand`` (in this order): a poverty's exchange of cards (on a new
    state that owns its standing)."""
    hand = tuple(hand)
    held, pairs = bits.sets_of(hand)
    state.held = _put(state.held, seat, held)
    state.pairs = _put(state.pairs, seat, pairs)
    standing = state.standing
    standing.base = _put(standing.base, seat, reference(hand))
    state._hands = None


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with ``value`` at ``index``."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def _without(hand: Sequence[str], cards: Sequence[str]) -> list[str]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def _holder_of_both(state: State, card: str) -> int | None:
    bit = BIT[card]
    for seat, pairs in enumerate(state.pairs):
        if pairs & bit:
            return seat
    return None


# --- shared action and event objects ----------------------------------------------------

class Shared(dict):  # type: ignore[type-arg]
    """A dict that cannot be changed: a legal action (:class:`Action`) or a public event the
    engine hands out again and again (``played``).

    Building fresh dicts was a third of the cost of listing the legal actions, so the same
    objects are returned each time, and changing one would change every later listing or
    event: each changing method raises TypeError. ``dict(shared)`` (or ``{**shared}``) is a
    changeable copy; a copy or a pickle of one is a plain dict.
    """

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a legal action or event is shared and read-only; change a copy: dict(it)")

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return dict(self)  # every value is an int or a str


class Action(Shared):
    """A legal action as :func:`legal_actions` lists it (shared and read-only: :class:`Shared`)."""

    __slots__ = ()


_PLAY_ACTIONS = tuple({card: Action(seat=seat, type="play", card=card) for card in bits.NAMES}
                      for seat in range(4))
#: per seat, healthy or not: the public event ``declared`` (the others learn only "reservation")
_DECLARED = tuple((Shared(type="declared", seat=seat, value="reservation"),
                   Shared(type="declared", seat=seat, value=HEALTHY)) for seat in range(4))
#: per seat, per card: its bit in a card set, the play in a trick and the public event ``played``
_PLAYED = tuple({card: (BIT[card], Play(seat, card), Shared(type="played", seat=seat, card=card))
                 for card in bits.NAMES} for seat in range(4))
_NOT_HELD = (0, None, None)
#: per seat, per byte of a card set (eight cards): the byte's value → the play actions of its
#: cards
_PLAY_TABLES = tuple(
    tuple(tuple(tuple(_PLAY_ACTIONS[seat][bits.NAMES[8 * part + j]] for j in range(8) if byte >> j & 1)
                for byte in range(256))
          for part in range(3))
    for seat in range(4))
#: per seat: a tuple of four card sets without one card of that seat (``_DROP[seat](sets, bit)``)
_DROP = (
    lambda sets, bit: (sets[0] ^ bit, sets[1], sets[2], sets[3]),
    lambda sets, bit: (sets[0], sets[1] ^ bit, sets[2], sets[3]),
    lambda sets, bit: (sets[0], sets[1], sets[2] ^ bit, sets[3]),
    lambda sets, bit: (sets[0], sets[1], sets[2], sets[3] ^ bit),
)
_ANNOUNCE_ACTIONS = tuple(
    {value: Action(seat=seat, type="announce", value=value)
     for value in (*ann.PARTY_ANNOUNCEMENT, *ANNOUNCEMENT_LEVELS)}
    for seat in range(4))
_DECLARE_ACTIONS = tuple(
    {value: Action(seat=seat, type="declare", value=value)
     for value in (HEALTHY, WEDDING, POVERTY, THROW_IN, *STANDARD_SOLOS, *EXTRA_SOLOS)}
    for seat in range(4))


def _offers(seat: int, party: int) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """``_OFFERS[seat][party]``: indexed by late reply or not, then by the lowest level
    allowed, the shared announcement actions of that level and every higher one (a late reply
    is the party's Re/Kontra alone)."""
    shared = _ANNOUNCE_ACTIONS[seat]
    full = tuple(tuple(shared[ann.value_of(party, level)] for level in range(lowest, 5))
                 for lowest in range(5))
    return full, ((shared[ann.value_of(party, 0)],),)


_OFFERS = tuple(tuple(_offers(seat, party) for party in (0, 1)) for seat in range(4))
_NEXT = (1, 2, 3, 0)
#: re_party of a player alone (solo, a wedding before its clarification)
_ALONE = tuple(tuple(other == seat for other in range(4)) for seat in range(4))


# --- legal actions -----------------------------------------------------------------------

def _card_combinations(cards: Sequence[str], size: int) -> list[tuple[str, ...]]:
    return list(dict.fromkeys(combinations(sorted(cards), size)))


def poverty_gifts(state: State, seat: int) -> list[tuple[str, ...]]:
    """The 3-card sets the poor player may give: every trump (three at most), filled up."""
    hand = state.hands[seat]
    order = card_order("normal", state.rules.nines)
    trumps = [card for card in hand if order.is_trump(card)]
    if len(trumps) >= 3:
        return _card_combinations(trumps, 3)
    others = [card for card in hand if not order.is_trump(card)]
    return [tuple(sorted(trumps + list(rest))) for rest in _card_combinations(others, 3 - len(trumps))]


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Every action ``seat`` may take now (announcements count, even out of turn).

    A new list each call; the play and announcement actions in it are shared read-only
    :class:`Action` dicts (copy one to change it)."""
    phase = state.phase
    if phase == "play":
        standing = state.standing
        if seat == state.to_move:
            held = state.held[seat]
            trick = state.trick
            if trick:  # follow suit: the cards of the led class, if the seat holds any
                held = held & standing.order.follow[trick[0][1]] or held
            t0, t1, t2 = _PLAY_TABLES[seat]
            actions: list[dict[str, Any]] = [*t0[held & 255], *t1[(held >> 8) & 255], *t2[held >> 16]]
        else:
            actions = []
        # most calls end here: the seat's window (ann.windows) closed, or out of reach
        if standing.windows[seat] >= len(state.tricks):  # the party may announce: on time?
            party = 0 if standing.re_party[seat] else 1  # type: ignore[index]
            found = ann.lowest_on_time(state, seat, party)
            if found is not None:
                lowest, late = found
                actions += _OFFERS[seat][party][late][lowest]
        return actions
    if phase == "declare" and seat == state.to_move:
        shared = _DECLARE_ACTIONS[seat]
        return [shared[value] for value in declarations_for(state, seat)]
    if phase == "poverty_give" and seat == state.declarer:
        return [{"seat": seat, "type": "poverty_give", "cards": list(cards)}
                for cards in poverty_gifts(state, seat)]
    if phase == "wedding_partner" and seat == state.to_move:
        return [{"seat": seat, "type": "wedding_partner", "partner": other}
                for other in range(4) if other != seat]
    if phase == "poverty_answer" and seat == state.to_move:
        return [{"seat": seat, "type": "poverty_answer", "value": value} for value in ("accept", "decline")]
    if phase == "poverty_return" and seat == state.partner:
        return [{"seat": seat, "type": "poverty_return", "cards": list(cards)}
                for cards in _card_combinations(state.hands[seat], 3)]
    return []


def playable(state: State, seat: int) -> tuple[str, ...]:
    """The distinct cards ``seat`` may play into the current trick (follow suit; see
    app.games.doppelkopf.tricks.playable_cards), from the hand masks, in sorted name order."""
    held = state.held[seat]
    trick = state.trick
    if trick:
        held = held & state.standing.order.follow[trick[0][1]] or held
    return tuple(bits.NAMES[index] for index in range(len(bits.NAMES)) if held >> index & 1)


def declarations_for(state: State, seat: int) -> list[str]:
    """What ``seat`` may declare: its hand's reservations (a duel-mode computer: no solo)."""
    rules = state.standing.rules
    values = allowed_declarations(state.hands[seat], rules)
    if rules.table_mode == "duel" and is_computer_seat(rules, seat):
        values = [value for value in values if not value.startswith("solo_")]
    return values


# --- applying actions --------------------------------------------------------------------

def apply(state: State, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
    """Apply one action to a deal; return the new state and its public events.

    Raises IllegalAction with a reason a player can read; ``state`` is never changed.
    """
    if action.__class__ is Action:  # listed by legal_actions: well-formed (maybe stale)
        seat = action["seat"]
        handler = _HANDLERS[action["type"]]
    else:
        if action.__class__ is not dict and not isinstance(action, Mapping):
            raise IllegalAction("an action must be an object")
        seat = action.get("seat")
        if seat.__class__ is not int or not 0 <= seat < 4:
            raise IllegalAction("seat must be 0, 1, 2 or 3")
        kind = action.get("type")
        handler = _HANDLERS.get(kind) if kind.__class__ is str else None  # type: ignore[assignment]
        if handler is None:
            raise IllegalAction(f"unknown action type {quoted(action.get('type'))}")
    if state.phase == "done":
        raise IllegalAction("the deal is over")
    return handler(state, seat, action)


def _need_turn(state: State, seat: int, phase: str, what: str) -> None:
    if state.phase != phase:
        raise IllegalAction(f"not the time to {what} (now: {state.phase.replace('_', ' ')})")
    if state.to_move != seat:
        raise IllegalAction(f"not your turn: seat {state.to_move} is to {what}")


def _declare(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
    if state.phase != "declare" or state.to_move != seat:
        _need_turn(state, seat, "declare", "declare")
    value = action.get("value")
    if value != HEALTHY and value not in declarations_for(state, seat):  # healthy: always
        raise IllegalAction(_declaration_refusal(value, state))
    new, standing = _fresh(state)
    standing.declarations = declarations = _put(standing.declarations, seat, value)
    events: list[Event] = [_DECLARED[seat][value == HEALTHY]]
    if None in declarations:
        new.to_move = _NEXT[seat]
    else:
        _resolve_reservations(new, events)
    return new, events


def _declaration_refusal(value: Any, state: State) -> str:
    if value == WEDDING and state.rules.wedding:
        return "a wedding needs both queens of clubs"
    if value == POVERTY and state.rules.poverty:
        return "poverty needs at most three trumps"
    if value == THROW_IN and state.rules.throw_in:
        return "this hand may not be thrown in"
    if isinstance(value, str) and value.startswith("solo_") and value in state.rules.offered_solos:
        return "computer players play no solo in duel mode"
    return f"{quoted(value)} is not a reservation of these rules"


def _resolve_reservations(state: State, events: list[Event]) -> None:
    """Every seat has declared: the contract (on a new state that owns its standing)."""
    standing = state.standing
    rules = standing.rules
    winning = winning_reservation(standing.declarations, state.first_seat)
    if winning is None:
        holder = _holder_of_both(state, QUEEN_OF_CLUBS)
        if holder is None:
            standing.contract = "normal"
            queen = BIT[QUEEN_OF_CLUBS]
            first, second, third, fourth = state.held
            standing.re_party = (first & queen != 0, second & queen != 0, third & queen != 0,
                                 fourth & queen != 0)
        else:
            standing.contract, standing.declarer = "silent_solo", holder
            standing.re_party = _ALONE[holder]
        events.append({"type": "contract", "contract": "normal", "declarer": None})
        _start_play(state, events)
        return
    seat, value = winning
    standing.declarer = seat
    events.append({"type": "contract", "contract": value, "declarer": seat})
    if value == THROW_IN:
        _redeal(state, "throw_in", events)
    elif value == POVERTY:
        standing.contract = POVERTY
        state.phase, state.to_move = "poverty_give", seat
    else:
        standing.contract = value
        standing.re_party = _ALONE[seat]
        if value.startswith("solo_"):
            standing.order = card_order(value, rules.nines)
            if rules.solo_leads == "soloist":
                state.leader = seat
        if value == WEDDING and rules.wedding_clarification == "named":
            state.phase, state.to_move = "wedding_partner", seat
            return
        _start_play(state, events)
        if value.startswith("solo_") and rules.solo_requires_no90 and rules.announcements:
            steps = ann.announce(state, seat, 1)
            events.append({"type": "announced", "seat": seat, "value": "no90",
                           "steps": [v for _, v in steps]})


def _redeal(state: State, reason: str, events: list[Event]) -> None:
    """The deal is void (on a new state that owns its standing)."""
    standing = state.standing
    standing.contract, standing.redeal = "redeal", reason
    state.phase, state.to_move = "done", None
    events.append({"type": "redeal", "reason": reason})


def _start_play(state: State, events: list[Event]) -> None:
    """The first trick begins (on a new state that owns its standing)."""
    standing = state.standing
    state.phase = "play"
    state.to_move = state.leader
    standing.windows = ann.windows(state)
    rules = standing.rules
    if rules.swines and standing.contract in ("normal", WEDDING, POVERTY):
        holder = _holder_of_both(state, FOX)
        if holder is not None:
            standing.swines = holder
            standing.order = card_order(order_name_of(standing.contract or "normal"), rules.nines, True)


def _cards_of(action: Mapping[str, Any], hand: Sequence[str]) -> list[str]:
    cards = action.get("cards")
    if not isinstance(cards, list) or len(cards) != 3 or not all(isinstance(c, str) for c in cards):
        raise IllegalAction("cards must be a list of three cards")
    if Counter(cards) - Counter(hand):
        raise IllegalAction("you do not hold all of " + ", ".join(quoted(c, 8) for c in cards))
    return cards


def _poverty_give(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
    _need_turn(state, seat, "poverty_give", "give the poverty cards")
    cards = _cards_of(action, state.hands[seat])
    order = card_order("normal", state.rules.nines)
    held = sum(1 for card in state.hands[seat] if order.is_trump(card))
    given = sum(1 for card in cards if order.is_trump(card))
    if given < min(3, held):
        raise IllegalAction("a poverty gives every trump (three at most)")
    new, standing = _fresh(state)
    _replace_hand(new, seat, _without(state.hands[seat], cards))
    standing.poverty_cards = tuple(cards)
    new.phase, new.to_move = "poverty_answer", (seat + 1) % 4
    return new, [{"type": "poverty_given", "seat": seat, "trumps": given}]


def _poverty_answer(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
    _need_turn(state, seat, "poverty_answer", "answer the poverty")
    value = action.get("value")
    if value not in ("accept", "decline"):
        raise IllegalAction("answer accept or decline")
    new, standing = _fresh(state)
    standing.poverty_answers = standing.poverty_answers + ((seat, value),)
    events: list[Event] = [{"type": "poverty_answered", "seat": seat, "value": value}]
    if value == "accept":
        standing.partner = seat
        _replace_hand(new, seat, state.hands[seat] + standing.poverty_cards)
        standing.poverty_cards = ()
        new.phase = "poverty_return"
        return new, events
    following = (seat + 1) % 4
    if following == standing.declarer:
        poor = standing.declarer
        assert poor is not None
        _replace_hand(new, poor, state.hands[poor] + standing.poverty_cards)
        standing.poverty_cards = ()
        _redeal(new, "poverty_declined", events)
    else:
        new.to_move = following
    return new, events


def _poverty_return(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
    _need_turn(state, seat, "poverty_return", "return cards")
    cards = _cards_of(action, state.hands[seat])
    poor = state.declarer
    assert poor is not None
    new, standing = _fresh(state)
    _replace_hand(new, seat, _without(state.hands[seat], cards))
    _replace_hand(new, poor, state.hands[poor] + tuple(cards))
    standing.re_party = tuple(other in (poor, seat) for other in range(4))
    trumps = sum(1 for card in cards if state.order.is_trump(card))
    events: list[Event] = [{"type": "poverty_returned", "seat": seat, "trumps": trumps}]
    _start_play(new, events)
    return new, events


def _wedding_partner(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
    """The bride names her partner before the first trick (wedding_clarification ``named``)."""
    _need_turn(state, seat, "wedding_partner", "name a partner")
    partner = action.get("partner")
    if type(partner) is not int or not 0 <= partner < 4 or partner == seat:
        raise IllegalAction("name another seat (0 to 3) as partner")
    new, standing = _fresh(state)
    standing.partner = partner
    standing.re_party = tuple(other in (seat, partner) for other in range(4))
    standing.clarified_at, standing.shift = -1, 0
    events: list[Event] = [{"type": "wedding_partner", "seat": partner, "trick": None}]
    _start_play(new, events)
    return new, events


def _announce(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
    value = action.get("value")
    level = ann.LEVELS.get(value) if value.__class__ is str else None
    if level is None:
        raise IllegalAction(f"unknown announcement {quoted(value)}")
    # on time (the seat's window, then its levels) and the own party's name: allowed; else the
    # checks one by one say why not
    standing = state.standing
    found = None
    if standing.windows[seat] >= len(state.tricks):
        party = 0 if standing.re_party[seat] else 1  # type: ignore[index]
        found = ann.lowest_on_time(state, seat, party)
    if found is None or level < found[0] or (found[1] and level > 0) or (
            level == 0 and value != ann.PARTY_ANNOUNCEMENT[party]):
        _, late = _check_announcement(state, seat, level, value)
    else:
        late = found[1]
    new, _ = _fresh(state)
    steps = ann.announce(new, seat, level, late)
    return new, [{"type": "announced", "seat": seat, "value": value, "steps": list(map(_second, steps))}]


def _check_announcement(state: State, seat: int, level: int, value: str) -> tuple[list[int], bool]:
    """Raise IllegalAction with the first reason an announcement of ``level`` (named
    ``value``) by ``seat`` is not allowed; else return ann.allowed_levels."""
    if not ann.announcement_window_open(state):
        raise IllegalAction(_closed_reason(state))
    if is_computer_seat(state.rules, seat):
        raise IllegalAction("computer players make no announcement in duel mode")
    party = state.party_of(seat)
    assert party is not None
    if level == 0 and value != ann.PARTY_ANNOUNCEMENT[party]:
        raise IllegalAction(f"you are not in the {value} party")
    levels, late = ann.allowed_levels(state, seat)
    if level not in levels:
        raise IllegalAction(_announce_refusal(state, party, level, value))
    return levels, late


def _closed_reason(state: State) -> str:
    if not state.rules.announcements:
        return "these rules have no announcements"
    if state.phase != "play":
        return "announcements are made once the play has begun"
    if state.phase == "wedding_partner":
        return "no announcement before the partner is named"
    return "no announcement before the wedding's clarification trick"


def _announce_refusal(state: State, party: int, level: int, value: str) -> str:
    if state.late_reply[party]:
        return "your party's late reply allows no further announcement"
    if level <= state.levels[party]:
        return f"your party has announced {value} already"
    needed = ann.min_cards(state, state.levels[party] + 1)
    opponents = state.levels[1 - party]
    if level == 0 and opponents >= 0:
        reply = ann.min_cards(state, opponents) - 1
        return (f"too late to announce {value}: it needs at least {needed} cards in hand "
                f"({reply} as a reply)")
    return f"too late to announce {value}: it needs at least {needed} cards in hand"


def _play(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
    if state.phase != "play" or state.to_move != seat:
        _need_turn(state, seat, "play", "play")
    card = action.get("card")
    held = state.held
    own = held[seat]
    bit, play, event = _PLAYED[seat].get(card, _NOT_HELD) if card.__class__ is str else _NOT_HELD
    if not own & bit:
        raise IllegalAction(f"you do not hold {quoted(card)}")
    trick = state.trick
    if trick:
        order = state.standing.order
        follow = order.follow[trick[0][1]]
        if own & follow and not bit & follow:
            led = order.suit_of[trick[0][1]]
            raise IllegalAction("must follow suit " + ("trump" if led == TRUMP else SUIT_NAMES[led]))
    # the new state field by field (a clone would set four of its nine fields twice)
    new = _new_state(State)
    pairs = state.pairs
    if pairs[seat] & bit:  # the first of two copies
        new.held, new.pairs = held, _DROP[seat](pairs, bit)
    else:
        new.held, new.pairs = _DROP[seat](held, bit), pairs
    new._hands = None
    new.phase = "play"
    new.standing = standing = state.standing
    trick = trick + (play,)
    events: list[Event] = [event]
    if card == FOX and standing.swines == seat and not standing.swines_shown:
        _own(new).swines_shown = True
        events.append({"type": "swines", "seat": seat})
    if len(trick) < 4:
        new.trick = trick
        new.to_move = _NEXT[seat]
        new.leader = state.leader
        new.tricks = state.tricks
    else:
        _complete_trick(new, trick, state.leader, state.tricks, events)
    return new, events


def _complete_trick(state: State, trick: tuple[Play, ...], leader: int, tricks: tuple[Trick, ...],
                    events: list[Event]) -> None:
    """Set the fields of a new state whose last play completed ``trick`` (led by ``leader``,
    after ``tricks``): the trick's winner leads the next one, or the deal is over."""
    standing = state.standing
    rules = standing.rules
    hand_size = 12 if rules.nines else 10  # rules.hand_size without the property call
    winner = trick_winner(trick, standing.order, rules, last_trick=len(tricks) == hand_size - 1)
    first, second, third, fourth = trick
    points = (CARD_POINTS[first[1]] + CARD_POINTS[second[1]] + CARD_POINTS[third[1]]
              + CARD_POINTS[fourth[1]])
    state.tricks = tricks = tricks + (_new_tuple(Trick, (leader, trick, winner, points)),)
    state.trick = ()
    state.leader = state.to_move = winner
    events.append(trick_event(rules, winner, points, len(tricks) - 1))
    if standing.contract == WEDDING and standing.clarified_at is None:
        _own(state)
        _clarify_wedding(state, events)
    if len(tricks) == hand_size and state.phase != "done":
        state.phase, state.to_move = "done", None
        events.append({"type": "deal_over"})


def _clarify_wedding(state: State, events: list[Event]) -> None:
    """What the latest trick decides of the open wedding (tricks.wedding_decision): a partner,
    the bride alone, a cancelled deal, or nothing yet (on a new state that owns its standing)."""
    standing = state.standing
    index = len(state.tricks) - 1
    trick = state.tricks[-1]
    bride = standing.declarer
    assert bride is not None
    decision = wedding_decision(standing.rules, standing.order, bride, trick.plays[0][1],
                                [t.winner for t in state.tricks])
    if decision is None:
        return
    if decision == CANCELLED:
        _redeal(state, "wedding_cancelled", events)
        return
    standing.clarified_at, standing.shift = index, index
    if decision == PARTNER:
        standing.partner = trick.winner
        standing.re_party = tuple(seat in (bride, trick.winner) for seat in range(4))
    standing.windows = ann.windows(state)
    events.append({"type": "wedding_partner", "seat": trick.winner, "trick": index}
                  if decision == PARTNER else {"type": "wedding_alone", "seat": bride})


_HANDLERS: dict[str, Callable[[State, int, Mapping[str, Any]], tuple[State, list[Event]]]] = {
    "declare": _declare,
    "poverty_give": _poverty_give,
    "wedding_partner": _wedding_partner,
    "poverty_answer": _poverty_answer,
    "poverty_return": _poverty_return,
    "announce": _announce,
    "play": _play,
}

