"""The Doppelganger Tricks expert's sampled worlds: a seat that must hold a navy card gets one,
and the card it gives back is of a suit the donor may hold."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.bots.doppelganger_tricks import NAVY, DoppelgangerTricksBot

SUITS = "RGBY"


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_navy_swap_respects_the_donors_voids(data):
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    hands = [[f"{data.draw(st.sampled_from(SUITS + NAVY))}{n}" for n in range(data.draw(st.integers(1, 5)))]
             for _ in range(4)]
    voids = {seat: set(data.draw(st.lists(st.sampled_from(SUITS), max_size=3))) for seat in range(4)}
    before = [list(hand) for hand in hands]
    me, seat = 0, 1
    possible = any(navy[0] == NAVY and card[0] not in voids[other]
                   for other in (2, 3) for navy in hands[other] for card in hands[seat])
    DoppelgangerTricksBot._give_navy(hands, seat, me, rng, voids)
    assert sorted(sum(hands, [])) == sorted(sum(before, []))  # the same cards
    if any(card[0] == NAVY for card in before[seat]) or not possible:
        assert hands == before
        return
    assert any(card[0] == NAVY for card in hands[seat])
    for other in (2, 3):
        gained = [card for card in hands[other] if card not in before[other]]
        assert all(card[0] not in voids[other] for card in gained)
