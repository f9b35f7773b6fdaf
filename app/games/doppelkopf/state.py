"""The state of one Doppelkopf deal (one object; treated as an immutable value).

Invariant: the cards in ``hands``, in completed ``tricks``, in the current ``trick`` and (during
a poverty) in ``poverty_cards`` together are exactly the deal, each card once. ``apply`` never
changes a state it is given: it clones it and changes the clone.

Representation: each hand is two card sets of one bit per distinct card (``held``: the cards
held at least once, ``pairs``: the cards held twice; app.games.doppelkopf.bits), four small
ints in each of two tuples, so that playing a card changes one number and copies no hand.
``hands`` (tuples of card names) is derived from them on first reading and kept:
each seat's cards in the order of its reference sequence (as dealt, or as it stood when cards
were added in a poverty), of each card name the last copies, which is the order the tuples
would have if each played card were removed where it stands.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, NamedTuple

from app.games.doppelkopf.bits import INDEX as _INDEX
from app.games.doppelkopf.bits import counts, expand, sets_of
from app.games.doppelkopf.contracts import CardOrder, card_order
from app.games.doppelkopf.rules import Rules

RE, KONTRA = 0, 1
PARTY_NAMES = ("re", "kontra")
ANNOUNCEMENT_LEVELS = ("no90", "no60", "no30", "black")  # levels 1..4; level 0 is Re/Kontra


class Play(NamedTuple):
    """One card played into a trick."""

    seat: int
    card: str


class Trick(NamedTuple):
    """A completed trick: who led, the four plays in order, who won it and its card points."""

    leader: int
    plays: tuple[Play, ...]
    winner: int
    points: int


class StandingFields:
    """The fields of a :class:`Standing`, typed once for both classes that have them: a
    ``Standing`` as its slots, a ``State`` as properties of the same names."""

    __slots__ = ()

    rules: Rules
    dealer: int
    deal: tuple[tuple[str, ...], ...]
    #: per seat the reference order of its hand: None when it is sorted name order
    base: tuple[tuple[str, ...] | None, ...]
    declarations: tuple[str | None, ...]
    contract: str | None
    declarer: int | None
    partner: int | None
    re_party: tuple[bool, ...] | None
    order: CardOrder
    swines: int | None
    swines_shown: bool
    poverty_cards: tuple[str, ...]
    poverty_answers: tuple[tuple[int, str], ...]
    levels: tuple[int, int]
    late_reply: tuple[bool, bool]
    announcements: tuple[tuple[int, str], ...]
    #: per seat: up to how many completed tricks it may still announce (-1: not now;
    #: app.games.doppelkopf.announcements.windows)
    windows: tuple[int, ...]
    clarified_at: int | None
    shift: int
    redeal: str | None


class Standing(StandingFields):
    """What changes a few times a deal at most (the rules, the dealer, the deal, the
    declarations, the contract and parties, the announcements): one block that successive
    states share until one of them changes a field of it, and then copies (``copy``).

    ``State`` reads each of these fields through a property of the same name (``state.contract``
    is ``state.standing.contract``); the engine reads them here directly on its hot paths and
    writes them only on a block of its own (``copy``), so that a block never changes once a
    state holds it.
    """

    __slots__ = (
        "rules",
        "dealer",
        "deal",
        "base",
        "declarations",
        "contract",
        "declarer",
        "partner",
        "re_party",
        "order",
        "swines",
        "swines_shown",
        "poverty_cards",
        "poverty_answers",
        "levels",
        "late_reply",
        "announcements",
        "windows",
        "clarified_at",
        "shift",
        "redeal",
    )

    def __init__(self, rules: Rules, dealer: int, deal: tuple[tuple[str, ...], ...]) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deal = deal
        self.base = (None,) * 4
        self.declarations = (None,) * 4
        self.contract = None
        self.declarer = None
        self.partner = None
        self.re_party = None
        self.order = card_order("normal", rules.nines)
        self.swines = None
        self.swines_shown = False
        self.poverty_cards = ()
        self.poverty_answers = ()
        self.levels = (-1, -1)
        self.late_reply = (False, False)
        self.announcements = ()
        self.windows = (-1, -1, -1, -1)
        self.clarified_at = None
        self.shift = 0
        self.redeal = None


class State(StandingFields):
    """One deal of Doppelkopf, from the first declaration to the last trick.

    phase: ``declare`` → (``wedding_partner`` | ``poverty_give`` → ``poverty_answer`` →
        ``poverty_return``) →
        ``play`` → ``done``.
    hands: each seat's cards now (derived from ``held`` and ``pairs``; see the module
        docstring); deal: as dealt. masks: the same hands as count masks, one per seat
        (app.games.doppelkopf.bits). held, pairs: per seat the set of cards held at least
        once, and twice: the engine's working form of the hands.
    declarations: per seat None (not yet), ``healthy`` or the reservation declared.
    contract: once resolved: ``normal``, ``wedding``, ``poverty``, ``silent_solo``, a solo name,
        or ``redeal``. declarer: soloist, bride or poor player; partner: wedding partner or
        poverty taker.
    re_party: per seat, True for Re, once the engine knows (wedding: after the clarification).
    levels: the highest announcement per party (index RE, KONTRA): -1 none, 0 Re/Kontra,
        1 No 90, 2 No 60, 3 No 30, 4 Black. late_reply: that party's Re/Kontra came only as a
        late reply and it may announce nothing further.
    shift: how many cards later the announcement deadlines fall (wedding clarification).

    The fields that change with a card played are the state's own (``held``, ``pairs``,
    ``phase``, ``to_move``, ``trick``, ``leader``, ``tricks``); the others live in its
    :class:`Standing` (``standing``), shared with the states before and after it until one
    of them changes: a new state copies nine fields, not thirty. Setting one of those fields
    on a state (``state.contract = ...``) gives that state a changed copy of the block.
    """

    __slots__ = ("held", "pairs", "_hands", "phase", "to_move", "trick", "leader", "tricks",
                 "standing")

    #: always four (a class constant: one field fewer to copy per action)
    players = 4
    held: tuple[int, ...]
    pairs: tuple[int, ...]
    _hands: tuple[tuple[str, ...], ...] | None
    phase: str
    to_move: int | None
    trick: tuple[Play, ...]
    leader: int
    tricks: tuple[Trick, ...]
    standing: Standing

    def __init__(self, rules: Rules, dealer: int, deal: tuple[tuple[str, ...], ...]) -> None:
        deal = tuple(map(tuple, deal))
        standing = self.standing = Standing(rules, dealer, deal)
        self.held, self.pairs, standing.base = _hand_fields(deal)
        self._hands = deal
        self.phase = "declare"
        self.to_move = self.leader = (dealer + 1) % 4
        self.trick = ()
        self.tricks = ()

    @property
    def hands(self) -> tuple[tuple[str, ...], ...]:
        """Each seat's cards now, as a tuple of card names (see the module docstring)."""
        hands = self._hands
        if hands is None:
            hands = self._hands = tuple(
                expand(counts(held, pairs)) if ref is None else ordered(ref, counts(held, pairs))
                for held, pairs, ref in zip(self.held, self.pairs, self.standing.base, strict=True))
        return hands

    @hands.setter
    def hands(self, hands: tuple[tuple[str, ...], ...]) -> None:
        hands = tuple(map(tuple, hands))
        self.held, self.pairs, self.base = _hand_fields(hands)
        self._hands = hands

    @property
    def masks(self) -> tuple[int, ...]:
        """Each seat's hand as a count mask (app.games.doppelkopf.bits)."""
        return tuple(map(counts, self.held, self.pairs))

    def clone(self) -> State:
        """A copy of this state (it shares the standing, which is never changed in place)."""
        return clone(self)

    def party_of(self, seat: int) -> int | None:
        """RE or KONTRA for ``seat`` once the engine knows its party, else None."""
        re_party = self.standing.re_party
        if re_party is None:
            return None
        return RE if re_party[seat] else KONTRA

    def seats_of(self, party: int) -> list[int]:
        """The seats of a party (empty before the parties are known)."""
        re_party = self.standing.re_party
        if re_party is None:
            return []
        return [seat for seat in range(4) if re_party[seat] == (party == RE)]

    @property
    def first_seat(self) -> int:
        """The seat left of the dealer (Vorhand): first to declare and, usually, to lead."""
        return (self.standing.dealer + 1) % 4

    def to_json(self) -> dict[str, Any]:
        """The whole state, hidden cards included (replays and debugging only)."""
        standing = self.standing
        return {
            "dealer": standing.dealer,
            "phase": self.phase,
            "to_move": self.to_move,
            "deal": [list(hand) for hand in standing.deal],
            "hands": [list(hand) for hand in self.hands],
            "declarations": list(standing.declarations),
            "contract": standing.contract,
            "declarer": standing.declarer,
            "partner": standing.partner,
            "parties": None if standing.re_party is None else {
                "re": self.seats_of(RE), "kontra": self.seats_of(KONTRA)},
            "swines": standing.swines,
            "poverty_cards": list(standing.poverty_cards),
            "trick": [{"seat": p.seat, "card": p.card} for p in self.trick],
            "tricks": [
                {"leader": t.leader, "winner": t.winner, "points": t.points,
                 "cards": [{"seat": p.seat, "card": p.card} for p in t.plays]}
                for t in self.tricks
            ],
            "announcements": [{"seat": s, "value": v} for s, v in standing.announcements],
            "redeal": standing.redeal,
        }


def _hand_fields(hands: tuple[tuple[str, ...], ...]) -> tuple[tuple[int, ...], tuple[int, ...],
                                                           tuple[tuple[str, ...] | None, ...]]:
    """``held``, ``pairs`` and ``base`` of the four hands."""
    held = []
    pairs = []
    for hand in hands:
        once, twice = sets_of(hand)
        held.append(once)
        pairs.append(twice)
    return tuple(held), tuple(pairs), tuple(map(reference, hands))


def reference(hand: tuple[str, ...]) -> tuple[str, ...] | None:
    """The reference order to keep for ``hand``: None if it is in sorted name order (the
    masks give that order directly), else the hand itself."""
    return None if hand == tuple(sorted(hand)) else hand


def ordered(ref: tuple[str, ...], mask: int) -> tuple[str, ...]:
    """The cards of ``mask`` in the order of ``ref`` (a sequence holding them): of each name
    the last copies in ``ref``."""
    left = {name: (mask >> (2 * index)) & 3 for name, index in _INDEX.items() if (mask >> (2 * index)) & 3}
    kept = []
    for card in reversed(ref):
        if left.get(card):
            left[card] -= 1
            kept.append(card)
    return tuple(reversed(kept))


def _straight_copy(cls: type) -> Any:
    """A copy of an object of the slotted ``cls`` as straight-line code over its slots (a loop
    of setattr costs three times as much, and the engine copies once per action)."""
    lines = ["def copy(old):", "    new = new_object(cls)"]
    lines += [f"    new.{name} = old.{name}" for name in cls.__slots__]
    lines.append("    return new")
    namespace: dict[str, Any] = {"cls": cls, "new_object": object.__new__}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from the slot names above
    return namespace["copy"]


#: State.clone without the method call (the engine clones once per action): nine fields
clone = _straight_copy(State)
#: a copy of a standing, for a state that changes one of its fields
copy_standing = _straight_copy(Standing)


def _standing_field(name: str) -> property:
    """``State.<name>``: the field of the state's standing; setting it gives the state a
    changed copy of its standing (the block it shared stays as it was)."""
    def set_field(state: State, value: Any) -> None:
        old = getattr(state, "standing", None)
        try:
            standing = copy_standing(old)
        except AttributeError:  # none yet, or one built field by field (object.__new__(State))
            standing = object.__new__(Standing)
            for slot in Standing.__slots__:
                if hasattr(old, slot):
                    setattr(standing, slot, getattr(old, slot))
        setattr(standing, name, value)
        state.standing = standing

    return property(attrgetter(f"standing.{name}"), set_field, doc=f"``standing.{name}``")


for _name in Standing.__slots__:
    setattr(State, _name, _standing_field(_name))
