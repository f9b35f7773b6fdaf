"""The Doppio intermediate's expected hand value after a discard (app.bots.doppio): summed over
the outer pair only, it is exactly the mean value of every refilled hand, so the bot's choices
are those of valuing each refilled hand whole."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from app.bots.doppio import CARDS, POSITIONS, discard, expected_after, hand_value

DECK = [card for card in CARDS for _ in range(4)]


@settings(max_examples=300, deadline=None)
@given(st.permutations(DECK), st.integers(min_value=0, max_value=40), st.sampled_from(POSITIONS))
def test_the_expected_refill_is_the_mean_of_every_refilled_hand(deck, drawn, position):
    hand, pool = deck[:6], Counter(deck[6:6 + drawn])
    total = sum(pool.values())
    whole = (sum(n * hand_value(discard(hand, position, card)) for card, n in pool.items()) / total
             if total else float(hand_value(hand)))
    assert expected_after(hand, position, None, pool) == whole
    assert expected_after(hand, position, deck[-1], pool) == hand_value(discard(hand, position, deck[-1]))
