"""Worlds for the playout estimator: whole round states that fit what one seat sees.

``sample_world(game, view, rules, rng)`` builds a state of the game's rules core whose view
for ``view["seat"]`` shows the same hand, table and legal actions: the other hands (and a
draw pile) are drawn at random from the cards the seat has not seen, respecting the suits a
seat showed it lacks. It reads only the view, the table's rules and the game's deck.

Doppelganger Tricks: the view shows the trick in play, the last trick and every annihilated
card, not the earlier tricks, so the cards played in those are drawn like hidden ones (the
expert's own assumption); the earlier tricks are rebuilt from the rest with the public number
of tricks each seat won. Bids made but not yet public are the intermediate's bid for the sampled hand.
Doppio: secret catch answers of others in an open window count as passes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from app.games.registry import get_game

Sampler = Callable[[Mapping[str, Any], Any, random.Random], Any]


def full_deck(game_name: str, rules: Any, players: int) -> list[str]:
    """Every card of the game's deck for ``players`` (one name per copy), via its own deal."""
    hands, pile = get_game(game_name).deal(rules, players, random.Random(0))
    return [card for hand in hands for card in hand] + list(pile)


def _minus(cards: list[str], *removed: list[str]) -> list[str]:
    left = Counter(cards)
    for group in removed:
        left.subtract(group)
    return sorted(left.elements())


def doppelganger_world(view: Mapping[str, Any], rules: Any, rng: random.Random) -> Any:
    """A Doppelganger Tricks RoundState that fits ``view`` (see the module docstring)."""
    from app.bots.doppelganger_tricks import DoppelgangerTricksBot, intermediate_bid
    from app.games.doppelganger_tricks.cards import parse_card, parse_suit, sort_key
    from app.games.doppelganger_tricks.state import Play, RoundState, Trick

    me, players = view["seat"], view["players"]
    expert = DoppelgangerTricksBot("expert")
    hands = expert._sample(view, rng, expert._unseen(view), expert._voids(view))
    trick = [p["card"] for p in view["trick"]]
    last = view.get("last_trick")
    last_cards = [p["card"] for p in last["plays"]] if last else []
    played = _minus(full_deck("doppelganger_tricks", rules, players), *hands, trick, last_cards)
    rng.shuffle(played)
    winners: list[int | None] = [seat for seat, n in enumerate(view["tricks_won"]) for _ in range(n)]
    winners += [None] * view["void_tricks"]
    if last:
        winners.remove(last["winner"])
    rng.shuffle(winners)

    def play(entry: Mapping[str, Any]) -> Play:
        suit = entry.get("suit")
        return Play(entry["seat"], parse_card(entry["card"]), parse_suit(suit) if suit else None)

    tricks = []
    for index, winner in enumerate(winners):
        cards = [parse_card(c) for c in played[index * players:(index + 1) * players]]
        plays = tuple(Play((winner or 0) + k, card) for k, card in enumerate(cards))
        tricks.append(Trick(tuple(Play(p.seat % players, p.card) for p in plays), cards[0].suit, (), winner))
    if last:
        tricks.append(Trick(tuple(play(p) for p in last["plays"]), parse_suit(last["lead_suit"]),
                            tuple(parse_card(c) for c in last["annihilated"]), last["winner"]))
    bids = view["bids"] or [view["own_bid"] if seat == me
                            else intermediate_bid(hands[seat], players) if view["has_bid"][seat] else None
                            for seat in range(players)]
    return RoundState(
        players=players, dealer=view["dealer"],
        hands=tuple(tuple(sorted((parse_card(c) for c in hand), key=sort_key)) for hand in hands),
        bids=tuple(bids), leader=view["leader"], trick=tuple(play(p) for p in view["trick"]),
        tricks=tuple(tricks), star=view["bonus"]["star"], eye=view["bonus"]["eye"],
        bonus_window=view["bonus_window"],
    )


def doppio_world(view: Mapping[str, Any], rules: Any, rng: random.Random) -> Any:
    """A Doppio state that fits ``view``: the other hands and the draw pile shuffled from the
    cards the seat has not seen."""
    from app.games.doppio.state import CatchWindow, DoppioState

    me, players = view["seat"], view["players"]
    window = view.get("catch_window")
    seen = [*view["hand"], *view["dead"], *(c for c in view["held"] if c is not None)]
    unseen = _minus(full_deck("doppio", rules, players), seen, [window["card"]] if window else [])
    rng.shuffle(unseen)
    hands = []
    for seat in range(players):
        if seat == me:
            hands.append(tuple(view["hand"]))
        else:
            hands.append(tuple(unseen[:6]))
            unseen = unseen[6:]
    open_window = None
    if window is not None:
        answers = tuple((seat, seat == me and window["my_answer"] == "catch") for seat in window["answered"])
        open_window = CatchWindow(window["card"], window["discarder"], tuple(window["eligible"]), answers)
    return DoppioState(rules=rules, players=players, dealer=view["dealer"], hands=tuple(hands),
                       held=tuple(view["held"]), deck=tuple(unseen[:view["deck_size"]]),
                       dead=tuple(view["dead"]), turn=view["turn"], window=open_window)


SAMPLERS: dict[str, Sampler] = {
    "doppelganger_tricks": doppelganger_world,
    "doppio": doppio_world,
}
