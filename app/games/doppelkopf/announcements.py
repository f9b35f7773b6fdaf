"""Announcements (Ansagen): Re, Kontra, No 90, No 60, No 30, Black (rulings, "Announcements").

Re / Kontra may be made while the announcer holds at least hand_size - 1 cards (11 with
nines), No 90 one card fewer, and so on to Black (7 with nines; 5 without). An announcement
may be made out of turn. No 90 … Black need the own party's Re/Kontra first; steps may be
skipped only while each skipped step is still on time, and each skipped step counts. A reply
(Kontra to Re, Re to Kontra) is allowed with one card fewer than the opponents' highest
announcement needed; a party whose Re/Kontra came only as such a late reply may announce
nothing further. A wedding allows no announcement before its clarification trick, and a
clarification in trick 2 or 3 moves every deadline one or two cards later.
"""

from __future__ import annotations

from app.games.doppelkopf.bits import HIGH, LOW, SEAT_BITS
from app.games.doppelkopf.state import ANNOUNCEMENT_LEVELS, KONTRA, RE, State

PARTY_ANNOUNCEMENT = ("re", "kontra")


def value_of(party: int, level: int) -> str:
    """The announcement name of ``level`` (0 Re/Kontra, 1 No 90 … 4 Black) for ``party``."""
    return PARTY_ANNOUNCEMENT[party] if level == 0 else ANNOUNCEMENT_LEVELS[level - 1]


def level_of(value: str) -> int | None:
    """The level of an announcement name, or None for an unknown name."""
    if value in PARTY_ANNOUNCEMENT:
        return 0
    if value in ANNOUNCEMENT_LEVELS:
        return ANNOUNCEMENT_LEVELS.index(value) + 1
    return None


def min_cards(state: State, level: int) -> int:
    """Cards the announcer must still hold to announce ``level`` on time."""
    return state.rules.hand_size - 1 - level - state.shift


def earliest_possible(state: State) -> int:
    """A seat holding fewer cards than this may announce nothing now (a quick bound for
    callers that ask often): every announcement needs ``min_cards(state, level)`` of a level
    above its party's, or one card fewer as a reply to the opponents' level."""
    re, kontra = state.levels
    return state.rules.hand_size - 2 - state.shift - (re if re > kontra else kontra)


def announcement_window_open(state: State) -> bool:
    """Whether announcements are possible at all now (play phase, wedding clarified)."""
    if state.phase != "play" or not state.rules.announcements or state.re_party is None:
        return False
    return not (state.contract == "wedding" and state.clarified_at is None)


def allowed_levels(state: State, seat: int) -> tuple[list[int], bool]:
    """The levels ``seat`` may announce now, and whether its Re/Kontra would be a late reply."""
    re_party = state.re_party
    if (state.phase != "play" or re_party is None or not state.rules.announcements
            or (state.contract == "wedding" and state.clarified_at is None)):
        return [], False
    party = RE if re_party[seat] else KONTRA
    if state.late_reply[party]:
        return [], False
    own, opponents = state.levels[party], state.levels[1 - party]
    if own >= 4:
        return [], False
    mask = state.bits >> (SEAT_BITS * seat)  # the seat's hand (bits.seat_mask, bits.size)
    cards = (mask & LOW).bit_count() + 2 * (mask & HIGH).bit_count()
    # min_cards(state, level) == latest - level (rules.hand_size without the property call)
    latest = (11 if state.rules.nines else 9) - state.shift
    if cards >= latest - own - 1:
        return list(range(own + 1, 5)), False
    if own == -1 and opponents >= 0 and cards >= latest - opponents - 1:
        return [0], True
    return [], False


_VALUES = tuple(tuple(value_of(party, level) for level in range(5)) for party in (RE, KONTRA))


def allowed_announcements(state: State, seat: int) -> list[str]:
    """The announcement names ``seat`` may make now (each implies the steps it skips)."""
    levels, _ = allowed_levels(state, seat)
    if not levels:
        return []
    names = _VALUES[RE if state.re_party[seat] else KONTRA]  # type: ignore[index]
    return [names[level] for level in levels]


def announce(state: State, seat: int, level: int, late: bool | None = None) -> list[tuple[int, str]]:
    """Record an announcement of ``level`` by ``seat`` on the (already cloned) state.

    Returns the steps it counts as, e.g. No 90 by a silent party: [(seat, re), (seat, no90)].
    The caller has checked legality with allowed_levels (``late``: its second answer, worked
    out again when not given).
    """
    party = state.party_of(seat)
    assert party is not None
    if late is None:
        _, late = allowed_levels(state, seat)
    steps = [(seat, value_of(party, step)) for step in range(state.levels[party] + 1, level + 1)]
    levels = list(state.levels)
    levels[party] = level
    state.levels = (levels[RE], levels[KONTRA])
    if late:
        flags = list(state.late_reply)
        flags[party] = True
        state.late_reply = (flags[RE], flags[KONTRA])
    state.announcements = state.announcements + tuple(steps)
    return steps
