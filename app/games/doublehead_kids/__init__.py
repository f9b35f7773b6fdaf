"""Doublehead Kids: the children's Doppelkopf, as a preset of the Doppelkopf rules core.

``GAME`` implements app.games.base.Game. The round is played by the Doppelkopf engine
(``app.games.doppelkopf.engine``) with :class:`~.rules.KidsRules` (a Doppelkopf ``Rules`` with
the Kids preset fixed); this package adds only the Kids options, card names (``names.py``),
golden-coin scoring (``coins.py``) and the match end. See docs/rules/doublehead-kids.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.games.base import GameTraits, MatchStatus, RoundOutcome, best_seats, totals
from app.games.doppelkopf import GAME as DOPPELKOPF
from app.games.doppelkopf import check_hands
from app.games.doppelkopf.state import KONTRA, PARTY_NAMES, RE, State
from app.games.doublehead_kids.coins import lines_json, round_coins
from app.games.doublehead_kids.names import CARD_NAMES, TEAM_NAMES
from app.games.doublehead_kids.rules import (
    OPTION_RANGES,
    PRESETS,
    KidsRules,
    make_rules,
    rules_json,
)


def next_dealer(dealer: int) -> int:
    """The dealer of the next round: the previous first player deals, so the new first player
    sits left of the previous one (rulebook G)."""
    return (dealer + 1) % 4


def details(state: State) -> dict[str, Any]:
    """The outcome details of a finished round (docs/rules/doublehead-kids.md, "Outcome")."""
    coins = round_coins(state)
    result = coins.result
    lines = lines_json(state, coins)
    return {
        "contract": state.contract,
        "declarer": state.declarer,
        "partner": state.partner,
        "lone": coins.lone,
        "parties": {"re": state.seats_of(RE), "kontra": state.seats_of(KONTRA)},
        "teams": dict(TEAM_NAMES),
        "card_points": {"re": result.card_points[RE], "kontra": result.card_points[KONTRA]},
        "tricks": {"re": result.tricks[RE], "kontra": result.tricks[KONTRA]},
        "announcements": [{"seat": seat, "value": value} for seat, value in state.announcements],
        "winner": None if coins.winner is None else PARTY_NAMES[coins.winner],
        "golden_coins": list(coins.per_seat),
        "coin_lines": lines,
        "game_value": sum(coins.per_seat),
        "score_lines": [{"reason": line["reason"], "party": line["party"],
                         "points": line["coins"] * len(line["seats"])} for line in lines],
    }


class DoubleheadKids:
    """Doublehead Kids behind app.games.base.Game: the Doppelkopf engine plus golden coins."""

    name = "doublehead_kids"
    player_counts = (4,)
    presets: Mapping[str, Mapping[str, Any]] = PRESETS
    #: the reservation decision (twice the time per move on a move clock) is phase ``declare``
    traits = GameTraits(reservation_phase="declare", option_ranges=OPTION_RANGES, round_word="round")
    #: every numeric option's documented range (inclusive) (also read from the game object by app/lobby/service.py, until the lobby reads ``traits``)
    option_ranges: Mapping[str, tuple[float, float]] = OPTION_RANGES

    def make_rules(self, raw: Mapping[str, Any]) -> KidsRules:
        return make_rules(raw)

    def rules_json(self, rules: KidsRules) -> dict[str, Any]:
        return rules_json(rules)

    def check_deal(self, rules: KidsRules, players: int, deal: Sequence[Sequence[str]],
                   deck: Sequence[str]) -> None:
        check_hands(rules, deal, deck)

    def deal(self, rules: KidsRules, players: int, rng: random.Random) -> tuple[list[list[str]], list[str]]:
        return DOPPELKOPF.deal(rules, players, rng)

    def new_round(self, rules: KidsRules, players: int, deal: Sequence[Sequence[str]],
                  deck: Sequence[str], dealer: int) -> State:
        return DOPPELKOPF.new_round(rules, players, deal, deck, dealer)

    def to_act(self, state: State) -> tuple[int, ...]:
        return DOPPELKOPF.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return DOPPELKOPF.legal_actions(state, seat)

    def apply(self, state: State, action: Mapping[str, Any]) -> tuple[State, list[dict[str, Any]]]:
        return DOPPELKOPF.apply(state, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The Doppelkopf view with the Kids names; a finished round shows the Kids result."""
        data = DOPPELKOPF.view(state, seat)
        data["game"] = self.name
        data["card_names"] = dict(CARD_NAMES)
        data["teams"] = dict(TEAM_NAMES)
        if state.phase == "done":
            data["result"] = details(state)
        return data

    def is_over(self, state: State) -> bool:
        return DOPPELKOPF.is_over(state)

    def outcome(self, state: State) -> RoundOutcome:
        if state.phase != "done":
            return RoundOutcome(False, (0,) * 4, {})
        result = details(state)
        return RoundOutcome(True, tuple(result["golden_coins"]), result)

    def state_json(self, state: State) -> dict[str, Any]:
        return {"game": self.name, **DOPPELKOPF.state_json(state)}

    def match_status(self, rules: KidsRules, players: int, outcomes: Sequence[RoundOutcome]) -> MatchStatus:
        """Over after a round in which a player has ``target_coins``; the leaders share the
        victory, or (``play_on_until_leader``) the game goes on until one leads alone."""
        coins = totals(outcomes, players)
        if max(coins) < rules.target_coins:
            return MatchStatus(False)
        leaders = best_seats(coins)
        if rules.play_on_until_leader and len(leaders) > 1:
            return MatchStatus(False)
        return MatchStatus(True, leaders)


GAME = DoubleheadKids()
