"""Random legal play of any game through the app.games.base interface (for property tests)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.games.base import Game


@dataclass
class Played:
    """A round played at random: the deal, every action and every state along the way."""

    deal: list[list[str]]
    deck: list[str]
    dealer: int
    actions: list[dict[str, Any]] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)


def play_random_round(game: Game, rules: Any, players: int, rng: random.Random, *,
                      dealer: int = 0, out_of_turn: float = 0.05, max_actions: int = 2000,
                      choose: Callable[[random.Random, Sequence[dict[str, Any]]], dict[str, Any]] | None = None,
                      ) -> Played:
    """Deal and play a round choosing uniformly among the legal actions of the seats to act.

    With probability ``out_of_turn`` an action of another seat (e.g. an announcement) is
    chosen instead, when any seat has one. ``choose`` picks among the options (default: uniform).
    """
    pick = choose or (lambda r, options: r.choice(options))
    deal, deck = game.deal(rules, players, rng)
    state = game.new_round(rules, players, deal, deck, dealer)
    played = Played(deal, deck, dealer, states=[state])
    while not game.is_over(state) and len(played.actions) < max_actions:
        movers = game.to_act(state)
        options = [a for seat in movers for a in game.legal_actions(state, seat)]
        if not options or rng.random() < out_of_turn:
            others = [a for seat in range(players) for a in game.legal_actions(state, seat)]
            options = others or options
        action = pick(rng, options)
        state, _ = game.apply(state, action)
        played.actions.append(action)
        played.states.append(state)
    return played


def scenario_of(game: Game, rules: Any, players: int, played: Played) -> dict[str, Any]:
    """The scenario document that replays ``played``."""
    return {
        "game": game.name,
        "rules": game.rules_json(rules),
        "players": players,
        "rounds": [{"dealer": played.dealer, "deal": played.deal, "deck": played.deck,
                    "actions": played.actions}],
    }


def cards_in(value: Any, names: Collection[str], skip: Collection[str] = ()) -> Counter[str]:
    """Every card name (from ``names``) anywhere in a JSON value, with multiplicity, leaving out
    the keys in ``skip`` (fields checked separately, e.g. the own hand)."""
    found: Counter[str] = Counter()
    if isinstance(value, str) and value in names:
        found[value] += 1
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                found += cards_in(item, names, skip)
    elif isinstance(value, list):
        for item in value:
            found += cards_in(item, names, skip)
    return found
