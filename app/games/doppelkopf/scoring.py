"""Scoring a deal (rulings, "Who wins", "Game value", "Special points", "Scores").

Targets: Re needs 121 card points, Kontra 120; if only Kontra was announced, Re wins with 120
and Kontra needs 121. A party's own No 90/60/30 raises its target to 151/181/211 and its own
Black to every trick; without an own announcement beyond Re/Kontra, the opponents' No 90/60/30
/Black lowers its target to 90/60/30 card points / one trick. If both miss, nobody wins.

Game value for the winner: won 1; loser under 90, 60, 30, black +1 each; Re announced +2,
Kontra announced +2 (or each doubles, option ``re_kontra_doubles``); each No 90 … Black
announced by either party +1; 120 against No 90, 90 against No 60, 60 against No 30, 30
against Black +1 each. Special points (two-against-two contracts only: normal, wedding with a partner,
poverty): against the elders,
Doppelkopf (a trick of 40+), fox caught, Charlie, and (option) Charlie caught; they are netted
with the game value and may change its sign.

``score_lines`` report each line for its party, signed from the view of the party that gains
(the one ahead after netting), so that they add up to ``game_value``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import compress
from operator import not_
from typing import Any, NamedTuple

from app.games.base import RoundOutcome
from app.games.doppelkopf.announcements import PARTY_ANNOUNCEMENT
from app.games.doppelkopf.cards import CHARLIE, FOX
from app.games.doppelkopf.contracts import TEAM_CONTRACTS
from app.games.doppelkopf.rules import Rules
from app.games.doppelkopf.state import ANNOUNCEMENT_LEVELS, KONTRA, PARTY_NAMES, RE, State, Trick

AGAINST_POINTS = (120, 90, 60, 30)  # "120 against No 90", "90 against No 60", ...
UNDER_POINTS = (90, 60, 30)
# the reasons of the score lines, made once
_UNDER = tuple((limit, f"no{limit}") for limit in UNDER_POINTS)
_AGAINST = tuple(f"against_{name}" for name in ANNOUNCEMENT_LEVELS)
_ANNOUNCED = tuple(f"announced_{name}" for name in ANNOUNCEMENT_LEVELS)
_ANNOUNCED_PARTY = tuple(f"announced_{name}" for name in PARTY_ANNOUNCEMENT)


_SEATS = (0, 1, 2, 3)


class Line(NamedTuple):
    """One score line: ``points`` earned by ``party`` (RE or KONTRA) for ``reason``."""

    reason: str
    party: int
    points: int


#: ``_line((reason, party, points))`` is ``Line(reason, party, points)`` without the Python-level
#: ``__new__`` of a NamedTuple (a third of the cost of scoring a deal)
_line: Callable[[tuple[str, int, int]], Line] = partial(tuple.__new__, Line)


class Tally(NamedTuple):
    """What the parties took: card points and tricks, per party (index RE, KONTRA)."""

    card_points: tuple[int, int]
    tricks: tuple[int, int]


def tally(state: State) -> Tally:
    """Card points and tricks per party of a finished deal."""
    re_party = state.standing.re_party
    assert re_party is not None
    points = tricks = 0
    kontra_points = kontra_tricks = 0
    for trick in state.tricks:
        if re_party[trick.winner]:
            points += trick.points
            tricks += 1
        else:
            kontra_points += trick.points
            kontra_tricks += 1
    return Tally((points, kontra_points), (tricks, kontra_tricks))


def reaches_target(party: int, levels: tuple[int, int], result: Tally) -> bool:
    """Whether ``party`` reached its target given both parties' announcement levels."""
    own, opponents = levels[party], levels[1 - party]
    points = result.card_points[party]
    if own >= 1:
        if own == 4:
            return result.tricks[1 - party] == 0
        return points >= (151, 181, 211)[own - 1]
    if opponents >= 1:
        if opponents == 4:
            return result.tricks[party] >= 1
        return points >= (90, 60, 30)[opponents - 1]
    only_kontra = levels[KONTRA] >= 0 and levels[RE] < 0
    if party == RE:
        return points >= (120 if only_kontra else 121)
    return points >= (121 if only_kontra else 120)


def winner_of(levels: tuple[int, int], result: Tally) -> int | None:
    """The winning party, or None when both missed their targets."""
    for party in (RE, KONTRA):
        if reaches_target(party, levels, result):
            return party
    return None


def _under_lines(party: int, result: Tally) -> list[Line]:
    """Lines ``party`` earns for the opponents' low card points or no trick."""
    loser = 1 - party
    points = result.card_points[loser]
    lines = [_line((name, party, 1)) for limit, name in _UNDER if points < limit]
    if result.tricks[loser] == 0:
        lines.append(_line(("black", party, 1)))
    return lines


def _against_lines(levels: tuple[int, int], result: Tally) -> list[Line]:
    lines = []
    for party in (RE, KONTRA):
        opponents = levels[1 - party]
        points = result.card_points[party]
        for level in range(1, opponents + 1):
            if points >= AGAINST_POINTS[level - 1]:
                lines.append(_line((_AGAINST[level - 1], party, 1)))
    return lines


def game_lines(state: State, winner: int | None, result: Tally) -> list[Line]:
    """The game value lines (everything but the special points)."""
    levels = state.levels
    if winner is None:
        return [*_under_lines(RE, result), *_under_lines(KONTRA, result), *_against_lines(levels, result)]
    lines = [_line(("won", winner, 1)), *_under_lines(winner, result)]
    announced = [_line((_ANNOUNCED[level - 1], winner, 1))
                 for party in (RE, KONTRA) for level in range(1, levels[party] + 1)]
    lines += announced + _against_lines(levels, result)
    for party in (RE, KONTRA):
        if levels[party] >= 0:
            reason = _ANNOUNCED_PARTY[party]
            if state.rules.re_kontra_doubles:
                lines.append(_line((reason, winner, net(lines, winner))))
            else:
                lines.append(_line((reason, winner, 2)))
    return lines


def special_lines(state: State, winner: int | None) -> list[Line]:
    """Special points: only in two-against-two contracts (normal, wedding with partner, poverty)."""
    standing = state.standing
    re_party = standing.re_party
    if standing.contract not in TEAM_CONTRACTS or re_party is None or sum(re_party) != 2:
        return []
    party = (KONTRA, RE)  # party[re_party[seat]]
    lines = []
    if winner == KONTRA:
        lines.append(_line(("against_the_elders", KONTRA, 1)))
    tricks = state.tricks
    for trick in tricks:
        won_by = party[re_party[trick.winner]]
        if trick.points >= 40:
            lines.append(_line(("doppelkopf", won_by, 1)))
        for play in trick.plays:  # play[1]: a NamedTuple indexes faster than it unpacks
            if play[1] == FOX and party[re_party[play[0]]] != won_by:
                lines.append(_line(("fox_caught", won_by, 1)))
    if tricks:
        trick = tricks[-1]
        lines += _charlie_lines(state, trick, party[re_party[trick.winner]])
    return lines


def _charlie_lines(state: State, trick: Trick, won_by: int) -> list[Line]:
    lines = []
    for play in trick.plays:
        if play.seat == trick.winner:
            if play.card == CHARLIE:
                lines.append(_line(("charlie", won_by, 1)))
            break
    if state.rules.charlie_caught:
        for play in trick.plays:
            if play.card == CHARLIE and state.party_of(play.seat) != won_by:
                lines.append(_line(("charlie_caught", won_by, 1)))
    return lines


def net(lines: list[Line], party: int) -> int:
    """What ``lines`` give ``party``: its lines' points minus the other party's."""
    total = 0
    for _, line_party, points in lines:
        total += points if line_party == party else -points
    return total


def re_net(rules: Rules, winner: int | None, lines: list[Line]) -> int:
    """Re's net game value from a deal's score ``lines``, after the rule ``no_back_door`` (a
    winner whose lines come to less than nothing gets a line that brings them to 0: appended
    to ``lines``)."""
    if rules.no_back_door and winner is not None and net(lines, winner) < 0:
        lines.append(_line(("no_back_door", winner, -net(lines, winner))))
    return net(lines, RE)


def score(state: State) -> RoundOutcome:
    """The outcome of a finished deal: scores per seat and the details of the scenario format."""
    standing = state.standing
    if standing.contract == "redeal":
        return RoundOutcome(True, (0,) * 4, redeal_details(standing.redeal), redeal=True)
    result = tally(state)
    winner = winner_of(standing.levels, result)
    lines = game_lines(state, winner, result) + special_lines(state, winner)
    net_re = re_net(standing.rules, winner, lines)
    ahead = RE if net_re > 0 else KONTRA if net_re < 0 else (winner if winner is not None else RE)
    value = abs(net_re)
    return RoundOutcome(True, _scores(state, ahead, value), _details(state, result, winner, lines, ahead, value))


def redeal_details(reason: str | None) -> dict[str, Any]:
    """The details of a void deal (poverty nobody took, a throw-in, a cancelled wedding): the
    keys of every other deal, with nothing in them (spec/scenario-format.md, "The outcome"):
    contract ``redeal`` and its ``reason``, no declarer, two empty parties, card points and
    tricks 0 for both, no announcements, winner null, game value 0, no score lines."""
    return {
        "contract": "redeal",
        "reason": reason,
        "declarer": None,
        "parties": {"re": [], "kontra": []},
        "card_points": {"re": 0, "kontra": 0},
        "tricks": {"re": 0, "kontra": 0},
        "announcements": [],
        "winner": None,
        "game_value": 0,
        "score_lines": [],
        "swines": None,
    }


def _scores(state: State, ahead: int, value: int) -> tuple[int, ...]:
    re_party = state.standing.re_party
    assert re_party is not None
    re_gain = value if ahead == RE else -value
    # a solo: the soloist wins or pays three times
    gain = (-re_gain, 3 * re_gain if sum(re_party) == 1 else re_gain)  # gain[re]
    first, second, third, fourth = re_party
    return (gain[first], gain[second], gain[third], gain[fourth])


def _details(state: State, result: Tally, winner: int | None, lines: list[Line], ahead: int,
             value: int) -> dict[str, Any]:
    standing = state.standing
    re_party = standing.re_party
    assert re_party is not None
    re_points, kontra_points = result.card_points
    re_tricks, kontra_tricks = result.tricks
    return {
        "contract": standing.contract,
        "declarer": standing.declarer,
        "parties": {"re": list(compress(_SEATS, re_party)),
                    "kontra": list(compress(_SEATS, map(not_, re_party)))},
        "card_points": {"re": re_points, "kontra": kontra_points},
        "tricks": {"re": re_tricks, "kontra": kontra_tricks},
        "announcements": [{"seat": seat, "value": v} for seat, v in standing.announcements],
        "winner": None if winner is None else PARTY_NAMES[winner],
        "game_value": value,
        "score_lines": [
            {"reason": reason, "party": PARTY_NAMES[party],
             "points": points if party == ahead else -points}
            for reason, party, points in lines
        ],
        "swines": standing.swines,
    }
