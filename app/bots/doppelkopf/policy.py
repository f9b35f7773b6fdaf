"""Rules of thumb of a decent club player (the intermediate level, and the expert's playouts).

Card play weighs each playable card by what it is likely to bring in this trick and what it
costs to spend it now:

- the chance that the trick ends with the own party, from the cards still unseen (those not in
  the own hand and not played) and who is still to play, with void suits taken into account;
- the card points at stake, a caught or lost fox (Fuchs, AD) and a Doppelkopf (a trick of 40);
- smearing (Schmieren): high-point cards go to a trick the partner is winning, never an
  over-trump of a known partner's winning card unless it costs nothing;
- Charlie (Karlchen, JC): kept for the last trick once no higher trump is left outside the hand.

Reservations, announcements and poverty follow hand strength. Every function reads only the
seat's own hand and public information of a :class:`~app.bots.doppelkopf.table.Table`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.bots.doppelkopf.table import Table
from app.games.doppelkopf.cards import CARD_POINTS, FOX
from app.games.doppelkopf.contracts import TRUMP, card_order
from app.games.doppelkopf.rules import Rules

CHARLIE = "JC"
FOX_VALUE = 22  # card-point equivalent of a fox caught (one game point)
CHARLIE_VALUE = 22
DOPPELKOPF_VALUE = 15
OPPONENT_WEIGHT = 0.6  # how much a seat of unknown party counts as an opponent
SOLO_THRESHOLD = 4.5  # solo_strength a solo needs (about one hand in forty)


_CLASSES: dict[int, tuple[Any, dict[str, tuple[tuple[str, int], ...]]]] = {}


def _classes(t: Table) -> dict[str, tuple[tuple[str, int], ...]]:
    """Each suit class of the table's card order with its cards, highest first, and their
    card points: ``{suit: ((card, points), ...)}``."""
    entry = _CLASSES.get(id(t.order))
    if entry is None or entry[0] is not t.order:
        groups: dict[str, list[str]] = {}
        for card, suit in t.suit_of.items():
            groups.setdefault(suit, []).append(card)
        classes = {suit: tuple((c, CARD_POINTS[c]) for c in sorted(cards, key=lambda c: -t.power[c]))
                   for suit, cards in groups.items()}
        entry = (t.order, classes)
        _CLASSES[id(t.order)] = entry
    return entry[1]


class Seen:
    """What one seat has not seen, per card and per suit class (each suit class counted when
    first asked for: following suit needs only the led one).

    unseen(card): copies not in the own hand and not played; beaters(card): unseen copies of
    cards that beat the card when played after it; count(suit) / points(suit): unseen cards of
    a suit class and their mean card points; total: all unseen cards; rel: per seat the
    relation to ``me`` (``Table.relation``); voids: ``_void_chance`` per (seat, suit).
    """

    __slots__ = ("_t", "_hand", "_unseen", "_beaters", "_count", "_points", "total", "rel", "voids")

    def __init__(self, t: Table, me: int) -> None:
        self._t = t
        self._hand = t.hands[me]
        self._unseen: dict[str, int] = {}
        self._beaters: dict[str, int] = {}
        self._count: dict[str, int] = {}
        self._points: dict[str, float] = {}
        sizes = t.sizes
        self.total = sizes[0] + sizes[1] + sizes[2] + sizes[3] - sizes[me]
        self.rel = [t.relation(me, seat) for seat in range(4)]
        self.voids: dict[tuple[int, str], float] = {}

    def _fill(self, suit: str) -> None:
        played = self._t.played
        hand = self._hand
        unseen, beaters = self._unseen, self._beaters
        above = 0
        total_points = 0
        for card, card_points in _classes(self._t).get(suit, ()):
            n = 2 - played.get(card, 0) - hand.count(card)
            unseen[card] = n
            beaters[card] = above
            above += n
            total_points += n * card_points
        self._count[suit] = above
        self._points[suit] = total_points / above if above else 5.0

    def unseen(self, card: str) -> int:
        if card not in self._unseen:
            self._fill(self._t.suit_of[card])
        return self._unseen[card]

    def beaters(self, card: str) -> int:
        if card not in self._beaters:
            self._fill(self._t.suit_of[card])
        return self._beaters[card]

    def count(self, suit: str) -> int:
        if suit not in self._count:
            self._fill(suit)
        return self._count[suit]

    def points(self, suit: str) -> float:
        if suit not in self._points:
            self._fill(suit)
        return self._points[suit]


def _void_chance(t: Table, seen: Seen, seat: int, suit: str) -> float:
    """Chance that ``seat`` holds no card of ``suit`` (a suit class), from what is unseen."""
    key = (seat, suit)
    chance = seen.voids.get(key)
    if chance is None:
        if suit in t.void[seat]:
            chance = 1.0
        else:
            unseen = seen.count(suit)
            if seen.total <= 0 or unseen <= 0:
                chance = 1.0
            else:
                chance = max(0.0, 1.0 - t.sizes[seat] / seen.total) ** unseen
        seen.voids[key] = chance
    return chance


def hold_chance(t: Table, me: int, seen: Seen, card: str, after: Sequence[int]) -> float:
    """Chance that ``card`` (now winning) still wins after the seats in ``after`` have played."""
    rel = seen.rel
    opponents = [s for s in after if rel[s] != 1]
    if not opponents or seen.total <= 0:
        return 1.0
    share = sum(t.sizes[s] for s in opponents) / seen.total
    chance = (1.0 - min(share, 1.0)) ** seen.beaters(card)
    suit = t.suit_of[card]
    if suit != TRUMP:
        for seat in opponents:
            if TRUMP not in t.void[seat]:
                chance *= 1.0 - 0.9 * _void_chance(t, seen, seat, suit)
    return chance


def _future_value(t: Table, me: int, seen: Seen, card: str) -> float:
    """What keeping ``card`` is worth later: its chance to win a trick, in card points."""
    suit = t.suit_of[card]
    beaters = seen.beaters(card)
    if suit == TRUMP:
        win = 0.85 * 0.8 ** beaters
        if card == FOX and t.team_as_known(me):
            win *= 0.5
    elif beaters:
        win = 0.03
    else:
        win = 0.75 if t.led.get(suit, 0) == 0 else 0.25
        for seat in range(4):
            if seat != me and seen.rel[seat] != 1:
                win *= 1.0 - 0.8 * _void_chance(t, seen, seat, suit)
    points = CARD_POINTS[card]
    value = win * (20 + points) - (1 - win) * points * 0.3
    if (card == CHARLIE and t.team_as_known(me) and suit == TRUMP and beaters == 0
            and seen.unseen(CHARLIE) == 0 and len(t.tricks) < t.n_tricks - 1):
        value += CHARLIE_VALUE  # Charlie can still win the last trick: keep JC for it
    return value


def card_values(t: Table, me: int, cards: Sequence[str]) -> dict[str, float]:
    """The value of playing each of ``cards`` now (higher is better), in card points."""
    trick = t.trick
    position = len(trick)
    after = [(me + i) % 4 for i in range(1, 4 - position)]
    last_trick = len(t.tricks) == t.n_tricks - 1
    best = t.current_best()
    at_stake = sum(CARD_POINTS[c] for _, c in trick)
    led = t.suit_of[trick[0][1]] if trick else None
    seen = Seen(t, me)
    rel = seen.rel
    partner_after = any(rel[s] == 1 for s in after)
    holds: dict[str, float] = {}  # hold_chance per winning card (the same for every loser)
    values: dict[str, float] = {}
    for card in cards:
        if best is None or t.beats(card, best[1], last_trick):
            winner, winning = me, card
        else:
            winner, winning = best
        relation = rel[winner]
        if after:
            own_hold = holds.get(winning, -1.0)
            if own_hold < 0.0:
                own_hold = holds[winning] = hold_chance(t, me, seen, winning, after)
            theirs_beaten = (0.4 if partner_after else 0.05) if seen.beaters(winning) else 0.0
            if relation == 1:
                ours = own_hold
            elif relation == -1:
                ours = theirs_beaten
            else:
                ours = 0.3 * own_hold + 0.7 * theirs_beaten
            suit = led or t.suit_of[card]
            extra = len(after) * seen.points(suit) * 0.8
        else:
            ours = 1.0 if relation == 1 else (0.0 if relation == -1 else 0.3)
            extra = 0.0
        points = at_stake + CARD_POINTS[card] + extra
        value = (2 * ours - 1) * points
        if t.team_as_known(me):
            for seat, played in [*trick, (me, card)]:
                if played == FOX:
                    if rel[seat] == 1:
                        value -= (1 - ours) * FOX_VALUE
                    else:
                        value += ours * FOX_VALUE * (1.0 if rel[seat] == -1 else OPPONENT_WEIGHT)
            if points >= 40 or (after and points + 10 * len(after) >= 40):
                value += (2 * ours - 1) * DOPPELKOPF_VALUE * (1.0 if points >= 40 else 0.3)
            if last_trick and card == CHARLIE and winner == me:
                value += ours * CHARLIE_VALUE
        value -= _future_value(t, me, seen, card)
        values[card] = value
    return values


def choose_card(t: Table, me: int) -> str:
    """The intermediate's card for seat ``me`` (to move) of the table."""
    cards = t.playable(me)
    if len(cards) == 1:
        return cards[0]
    values = card_values(t, me, cards)
    return max(cards, key=lambda c: (values[c], -t.power[c], c))


# --- reservations, announcements, poverty ------------------------------------------------

def _strength(hand: Sequence[str], order_name: str, nines: bool) -> tuple[int, int, int, int]:
    """(trumps, top trumps, fehl aces, fehl losers) of ``hand`` in the given card order."""
    order = card_order(order_name, nines)
    trumps = [c for c in hand if order.is_trump(c)]
    top = set(order.trumps[:5])
    tops = sum(1 for c in trumps if c in top)
    aces = 0
    losers = 0
    for suit in "CSHD":
        cards = sorted((c for c in hand if order.suit_of[c] == suit), key=lambda c: -order.power[c])
        for index, card in enumerate(cards):
            if card[0] == "A" or (card[0] == "T" and index == 1 and cards[0][0] == "A" and cards.count(card) == 1):
                aces += 1 if card[0] == "A" else 0
            else:
                losers += 1
    return len(trumps), tops, aces, losers


def solo_strength(hand: Sequence[str], solo: str, nines: bool) -> float:
    """A rough count of the tricks a solo in ``hand`` takes, minus the tricks it must win."""
    trumps, tops, aces, losers = _strength(hand, solo, nines)
    size = len(hand)
    if solo in ("solo_fleshless",):
        return aces - losers - size / 6
    need = 0.6 * size if solo.startswith("solo_") and solo[5:] in ("clubs", "spades", "hearts", "diamonds") else 0.4 * size
    return trumps + tops * 0.5 + aces * 0.5 - losers * 1.2 - need


def two_queens_declaration(hand: Sequence[str], options: Sequence[str], nines: bool) -> str:
    """What a hand holding both queens of clubs declares, chosen deliberately: ``healthy``
    makes it a silent solo (stille Hochzeit: played alone, with the trumps of a normal game,
    which are a diamonds solo's), so it is said only when that solo is strong enough to be
    declared; otherwise the wedding, which finds a partner. Without a wedding on offer the
    silent solo is the only way. Raises ValueError for a hand without both queens."""
    if hand.count("QC") != 2:
        raise ValueError("the hand does not hold both queens of clubs")
    if "wedding" not in options or solo_strength(hand, "solo_diamonds", nines) > SOLO_THRESHOLD:
        return "healthy"
    return "wedding"


def wedding_partner(bride: int) -> int:
    """The seat a bride names as her partner where the wedding names one (Doublehead Kids):
    the one opposite, at every level. A search over partners gains the bride some position
    (the analysis values each partner), but plays every partner as the intermediate, so it
    cannot weigh who plays best; docs/bots.md gives the measurement."""
    return (bride + 2) % 4


def choose_declaration(view: Mapping[str, Any], rules: Rules) -> str:
    """Healthy, a solo only with a strong hand, poverty when held; with both queens of clubs
    the wedding or, deliberately, the silent solo (``two_queens_declaration``)."""
    options = [a["value"] for a in view["legal"]]
    hand = view["hand"]
    best, best_strength = None, SOLO_THRESHOLD
    for value in options:
        if value.startswith("solo_"):
            strength = solo_strength(hand, value, rules.nines)
            if strength > best_strength:
                best, best_strength = value, strength
    if best == "solo_diamonds" and hand.count("QC") == 2:
        return "healthy"  # the same trumps as a silent solo, which the others cannot see
    if best is not None:
        return best
    if hand.count("QC") == 2:
        return two_queens_declaration(hand, options, rules.nines)
    if "poverty" in options:
        return "poverty"
    return "healthy"


def normal_strength(hand: Sequence[str], rules: Rules) -> float:
    """Hand strength for a normal game: trumps, high trumps (TH, QC double), fehl aces."""
    order = card_order("normal", rules.nines)
    trumps = [c for c in hand if order.is_trump(c)]
    value = float(len(trumps))
    value += 1.5 * sum(1 for c in trumps if c in ("TH", "QC"))
    value += 0.75 * sum(1 for c in trumps if c in ("QS", "QH"))
    value += sum(1 for c in hand if c[0] == "A" and not order.is_trump(c) and c[1] != "H")
    value += 0.5 * sum(1 for c in hand if c == "AH")
    return value


def choose_announcement(view: Mapping[str, Any], t: Table, rules: Rules) -> dict[str, Any] | None:
    """Re / Kontra with a strong hand, announced at the own turn; nothing further."""
    me = view["seat"]
    options = [a for a in view["legal"] if a["type"] == "announce"]
    first = [a for a in options if a["value"] in ("re", "kontra")]
    if not first:
        return None
    hand = view["hand"]
    size = rules.hand_size
    if t.contract not in ("normal", "wedding", "poverty") and t.declarer != me:
        return None
    if t.contract.startswith("solo_") or t.contract == "silent_solo":
        strength = solo_strength(hand, t.contract if t.contract != "silent_solo" else "normal", rules.nines)
        return first[0] if strength > 4 else None
    points_for = sum(p for s, p in enumerate(_points(t)) if t.relation(me, s) == 1)
    points_against = sum(p for s, p in enumerate(_points(t)) if t.relation(me, s) == -1)
    strength = normal_strength(hand, rules) * size / max(len(hand), 1)
    if first[0]["value"] == "kontra":
        strength += 0.5
    strength += (points_for - points_against) / 25
    threshold = 13.0 if size == 12 else 11.0
    return first[0] if strength >= threshold else None


def _points(t: Table) -> list[int]:
    points = [0, 0, 0, 0]
    for trick in t.tricks:
        points[trick.winner] += trick.points
    return points


def choose_poverty_answer(view: Mapping[str, Any], rules: Rules) -> str:
    hand = view["hand"]
    order = card_order("normal", rules.nines)
    trumps = [c for c in hand if order.is_trump(c)]
    high = sum(1 for c in trumps if c in ("TH", "QC", "QS", "QH", "QD"))
    return "accept" if len(trumps) >= (7 if rules.nines else 6) and high >= 3 else "decline"


def choose_poverty_give(view: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    """All trumps (the rules demand it), filled up with the fehl cards worth the fewest points."""
    return min(view["legal"], key=lambda a: (sum(CARD_POINTS[c] for c in a["cards"]), a["cards"]))


def choose_poverty_return(view: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    """Keep the trumps and the aces; give back fehl cards from the shortest suits."""
    hand = view["hand"]
    order = card_order("normal", rules.nines)
    lengths = {s: sum(1 for c in hand if order.suit_of[c] == s) for s in "CSH"}

    def cost(card: str) -> float:
        if order.is_trump(card):
            return 100 + order.power[card]
        return lengths[card[1]] * 2 + (15 if card[0] == "A" else 0)

    ranked = sorted(hand, key=cost)
    chosen = sorted(ranked[:3])
    for action in view["legal"]:
        if sorted(action["cards"]) == chosen:
            return action
    return view["legal"][0]  # pragma: no cover - every 3-card subset is legal

