"""GameTwist table modes (rulings, "Table modes from GameTwist").

Duel mode: two people opposite each other (seats 0 and 2) and two computer players (1 and 3),
four deals. The people are never in the same party of a normal game: the cards are dealt again
until they hold exactly one QC between them, or one of them holds both. Computer players make
no announcement (no Re/Kontra, hence nothing further) and play no solo. A person's wedding
needs a computer player to win the clarification trick (else a solo if the bride won all three
tricks, otherwise the deal is cancelled); a computer player's wedding needs a person to win it
(else cancelled).

Tournament mode without shown announcements: the view shows no running card points, no party
membership beyond one's own, and no standing list of announcements until the deal is over
(each announcement is seen only as the event of its making).
"""

from __future__ import annotations

import random
from typing import Any

from app.games.base import RulesError
from app.games.doppelkopf.cards import QUEEN_OF_CLUBS, deck
from app.games.doppelkopf.rules import Rules

PEOPLE = (0, 2)
COMPUTERS = (1, 3)


def is_computer_seat(rules: Rules, seat: int) -> bool:
    """Whether ``seat`` is a computer player's seat of a duel-mode table."""
    return rules.table_mode == "duel" and seat in COMPUTERS


def duel_deal_ok(hands: list[list[str]]) -> bool:
    """The people hold exactly one QC between them, or one of them holds both."""
    counts = [hands[seat].count(QUEEN_OF_CLUBS) for seat in PEOPLE]
    return sum(counts) == 1 or 2 in counts


_DECKS = {nines: tuple(deck(nines)) for nines in (True, False)}
_BIT_LENGTHS = tuple(n.bit_length() for n in range(len(_DECKS[True]) + 1))


def shuffle(cards: list[str], rng: random.Random) -> None:
    """``rng.shuffle(cards)``: the same order from the same generator, at half the cost.

    For a ``random.Random`` itself this is CPython's ``Random.shuffle`` (3.11 to 3.13) with
    its ``_randbelow`` written inline (Fisher-Yates from the end, each index drawn with
    ``getrandbits`` and rejected while out of range); tests/games/test_doppelkopf_fast_core.py
    checks it against ``rng.shuffle``. Any other generator shuffles itself. Decks of at most
    48 cards.
    """
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        bits = _BIT_LENGTHS[n]
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def deal_hands(rules: Rules, rng: random.Random) -> list[list[str]]:
    """Shuffle and deal four hands (dealt again in duel mode until duel_deal_ok)."""
    size = 12 if rules.nines else 10  # rules.hand_size without the property call
    full = _DECKS[rules.nines]
    while True:
        cards = list(full)
        shuffle(cards, rng)
        hands = [sorted(cards[start:start + size]) for start in range(0, 4 * size, size)]
        if rules.table_mode != "duel" or duel_deal_ok(hands):
            return hands


def eligible_partner(rules: Rules, bride: int, seat: int) -> bool:
    """Whether winning a clarification trick makes ``seat`` the bride's partner."""
    if rules.table_mode != "duel":
        return seat != bride
    return seat != bride and is_computer_seat(rules, seat) != is_computer_seat(rules, bride)


def duel_wedding_cancelled(rules: Rules, bride: int, winners: list[int]) -> bool:
    """After three tricks without a partner: whether the duel-mode wedding is cancelled.

    A person's wedding becomes a solo only if she won all three tricks; a computer player's
    wedding is always cancelled.
    """
    if rules.table_mode != "duel":
        return False
    if is_computer_seat(rules, bride):
        return True
    return any(winner != bride for winner in winners)


def trick_event(rules: Rules, winner: int, points: int, index: int) -> dict[str, Any]:
    """The public event of a completed trick: ``{"type": "trick", "winner", "index", "points"}``
    (card points 0-240 scale; left out in tournament mode, which shows no running card points)."""
    if rules.table_mode == "tournament":
        return {"type": "trick", "winner": winner, "index": index}
    return {"type": "trick", "winner": winner, "index": index, "points": points}


DUEL_DEALS = 4


def table_layout(rules: Rules, players: int, bots: int, deals: int) -> tuple[int, ...]:
    """The seats of a new table's computer players: the last ``bots`` seats, or in duel mode
    seats 1 and 3 (two people opposite each other at 0 and 2, four deals).

    Raises RulesError (path ``table_mode``) when a duel-mode table asks for other than two
    computer players or four deals.
    """
    if rules.table_mode != "duel":
        return tuple(range(players - bots, players))
    if bots != len(COMPUTERS):
        raise RulesError("table_mode", "duel mode is two people and two computer players (choose 2)")
    if deals != DUEL_DEALS:
        raise RulesError("table_mode", "duel mode is played over 4 deals")
    return COMPUTERS


def _without_points(trick: dict[str, Any]) -> dict[str, Any]:
    """A copy of a trick's JSON without its card points (the view's tricks are shared)."""
    return {key: value for key, value in trick.items() if key != "points"}


def tournament_projection(view: dict[str, Any], seat: int | None, done: bool) -> dict[str, Any]:
    """Hide what tournament mode does not show during a deal (no-op once the deal is over)."""
    if done:
        return view
    view["points_won"] = None
    view["tricks"] = [_without_points(trick) for trick in view["tricks"]]
    if view["last_trick"] is not None:
        view["last_trick"] = _without_points(view["last_trick"])
    key = None if seat is None else str(seat)
    view["parties"] = {k: v for k, v in view["parties"].items() if k == key}
    view["announcements"] = []
    return view
