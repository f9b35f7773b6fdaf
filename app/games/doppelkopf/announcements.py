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

from app.games.doppelkopf.modes import is_computer_seat
from app.games.doppelkopf.state import ANNOUNCEMENT_LEVELS, KONTRA, RE, State

PARTY_ANNOUNCEMENT = ("re", "kontra")


def value_of(party: int, level: int) -> str:
    """The announcement name of ``level`` (0 Re/Kontra, 1 No 90 … 4 Black) for ``party``."""
    return PARTY_ANNOUNCEMENT[party] if level == 0 else ANNOUNCEMENT_LEVELS[level - 1]


#: every announcement name → its level
LEVELS: dict[str, int] = {**dict.fromkeys(PARTY_ANNOUNCEMENT, 0),
                          **{name: level for level, name in enumerate(ANNOUNCEMENT_LEVELS, 1)}}
#: per party, the names of levels 0 to 4
_NAMES = tuple(tuple(value_of(party, level) for level in range(5)) for party in (RE, KONTRA))
#: per seat, per party, the steps ``(seat, name)`` of levels 0 to 4
_STEPS = tuple(tuple(tuple((seat, name) for name in names) for names in _NAMES) for seat in range(4))


def min_cards(state: State, level: int) -> int:
    """Cards the announcer must still hold to announce ``level`` on time."""
    return state.rules.hand_size - 1 - level - state.shift


def announcement_window_open(state: State) -> bool:
    """Whether announcements are possible at all now (play phase, wedding clarified)."""
    standing = state.standing
    if state.phase != "play" or not standing.rules.announcements or standing.re_party is None:
        return False
    return not (standing.contract == "wedding" and standing.clarified_at is None)


def allowed_levels(state: State, seat: int) -> tuple[list[int], bool]:
    """The levels ``seat`` may announce now, and whether its Re/Kontra would be a late reply."""
    if not announcement_window_open(state):
        return [], False
    standing = state.standing
    party = RE if standing.re_party[seat] else KONTRA  # type: ignore[index]
    if standing.late_reply[party] or standing.levels[party] >= 4:
        return [], False
    found = lowest_on_time(state, seat, party)
    if found is None:
        return [], False
    lowest, late = found
    return ([0] if late else list(range(lowest, 5))), late


def lowest_on_time(state: State, seat: int, party: int) -> tuple[int, bool] | None:
    """For ``seat`` of ``party`` while its party may announce (the play and its clarification
    under way, no late reply, below Black: what :func:`allowed_levels` checks first): the
    lowest level it may announce now — it may announce that and each higher one, or only that
    (Re/Kontra) when it is a late reply — and whether it is a late reply; None if none is on
    time."""
    standing = state.standing
    own, opponents = standing.levels[party], standing.levels[1 - party]
    cards = state.held[seat].bit_count() + state.pairs[seat].bit_count()
    # min_cards(state, level) == latest - level (rules.hand_size without the property call)
    latest = (11 if standing.rules.nines else 9) - standing.shift
    if cards >= latest - own - 1:
        return own + 1, False
    if own == -1 and opponents >= 0 and cards >= latest - opponents - 1:
        return 0, True
    return None


#: no seat may announce anything now (``windows``)
CLOSED = (-1, -1, -1, -1)


def windows(state: State) -> tuple[int, ...]:
    """Per seat: up to how many completed tricks it may still make some announcement, by the
    bound of :func:`allowed_levels` (the cards a seat holds are at most the hand size minus
    the completed tricks); -1: none at all now. A quick test for callers that ask often; the
    engine keeps it as ``State.windows`` and works it out again whenever a bound changes
    (the play begins, an announcement, the wedding's clarification)."""
    if not announcement_window_open(state):
        return CLOSED
    standing = state.standing
    re_party = standing.re_party
    rules = standing.rules
    re, kontra = standing.levels
    late_re, late_kontra = standing.late_reply
    # min_cards of the party's next level, or one card fewer as a reply to the opponents'
    first = 2 + standing.shift
    re_until = -1 if re >= 4 or late_re else first + (kontra if re < 0 <= kontra else re)
    kontra_until = -1 if kontra >= 4 or late_kontra else first + (re if kontra < 0 <= re else kontra)
    until = (kontra_until, re_until)  # until[re_party[seat]]
    first, second, third, fourth = re_party
    if rules.table_mode == "duel":  # computer players announce nothing
        return tuple(-1 if is_computer_seat(rules, seat) else until[re_party[seat]] for seat in range(4))
    return (until[first], until[second], until[third], until[fourth])


def announce(state: State, seat: int, level: int, late: bool | None = None) -> list[tuple[int, str]]:
    """Record an announcement of ``level`` by ``seat`` on a new state that owns its standing
    (a clone with a copy of the standing: app.games.doppelkopf.state.copy_standing).

    Returns the steps it counts as, e.g. No 90 by a silent party: [(seat, re), (seat, no90)].
    The caller has checked legality with allowed_levels (``late``: its second answer, worked
    out again when not given).
    """
    standing = state.standing
    party = RE if standing.re_party[seat] else KONTRA  # type: ignore[index]
    if late is None:
        _, late = allowed_levels(state, seat)
    re, kontra = standing.levels
    steps = list(_STEPS[seat][party][(re, kontra)[party] + 1:level + 1])
    standing.levels = (level, kontra) if party == RE else (re, level)
    if late:
        late_re, late_kontra = standing.late_reply
        standing.late_reply = (True, late_kontra) if party == RE else (late_re, True)
    standing.announcements += tuple(steps)
    standing.windows = windows(state)
    return steps
