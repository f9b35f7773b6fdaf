"""The frames of the replay viewer: a finished match stepped action by action.

Pure: from a scenario document (the "Download replay" file) it replays every round through the
game's rules (app.scenario) and records, after the deal and after each action, every hand (the
match is over, so all hands are shown), the trick on the table, how many tricks are done, and
the table as a spectator saw it then (``view``: ``Game.view(state, None)``, so that the browser
draws a replay with the same table component and game plugins as live play). Each round also
carries its outcome details (the deal result).
"""

from __future__ import annotations

from typing import Any

from app.games.base import action_label
from app.scenario import load_scenario


def _trick(state_json: dict[str, Any]) -> list[dict[str, Any]]:
    trick = state_json.get("trick") or []
    out = []
    for play in trick:
        if isinstance(play, dict):
            out.append({"seat": play.get("seat"), "card": play.get("card")})
        else:
            out.append({"seat": None, "card": str(play)})
    return out


def _tricks_done(state_json: dict[str, Any]) -> int:
    if isinstance(state_json.get("tricks_played"), int):
        return state_json["tricks_played"]
    tricks = state_json.get("tricks")
    return len(tricks) if isinstance(tricks, list) else 0


#: parts of a spectator's view a replay frame does not need (the list of every completed trick
#: grows with the deal; the viewer steps through the tricks itself)
_UNUSED_VIEW_KEYS = ("tricks", "legal", "legal_actions", "hand", "own_bid")


def _view(game, state) -> dict[str, Any]:
    """What a spectator saw at this moment, without the parts a replay does not use."""
    view = game.view(state, None)
    for key in _UNUSED_VIEW_KEYS:
        view.pop(key, None)
    return view


def _frame(game, state, label: str | None, seat: int | None,
           action: dict[str, Any] | None = None) -> dict[str, Any]:
    """One frame; ``action`` is the action that led to it without its seat (the browser words
    it in the viewer's language), ``label`` the same in a short English form."""
    data = game.state_json(state)
    frame = {"label": label, "seat": seat, "action": action, "hands": data.get("hands") or [],
             "trick": _trick(data), "tricks": _tricks_done(data), "phase": data.get("phase"),
             "view": _view(game, state)}
    if "hand_values" in data:  # Doppio: every hand's value (the hands are shown)
        frame["hand_values"] = data["hand_values"]
    return frame


def replay_frames(document: dict[str, Any]) -> dict[str, Any]:
    """``{"game", "players", "rounds": [{"dealer", "frames": [...], "scores", "trick_starts"}]}``.

    Frame 0 of a round is the deal; frame i is the state after the round's i-th action.
    ``trick_starts[n]`` is the first frame at which n tricks are complete (for "go to trick").
    Raises app.scenario.ScenarioError for a document the rules reject.
    """
    scenario = load_scenario(document)
    game = scenario.game
    rounds = []
    for round_doc in scenario.rounds:
        state = game.new_round(scenario.rules, scenario.players, round_doc.deal, round_doc.deck,
                               round_doc.dealer)
        frames = [_frame(game, state, None, None)]
        for action in round_doc.actions:
            state, _events = game.apply(state, action)
            frames.append(_frame(game, state, action_label(action), action.get("seat"),
                                 {k: v for k, v in action.items() if k != "seat"}))
        trick_starts: dict[int, int] = {}
        for index, frame in enumerate(frames):
            trick_starts.setdefault(frame["tricks"], index)
        outcome = game.outcome(state)
        rounds.append({"dealer": round_doc.dealer, "frames": frames,
                       "trick_starts": [trick_starts[n] for n in sorted(trick_starts)],
                       "scores": list(outcome.scores) if outcome.finished else None,
                       "details": outcome.details if outcome.finished else None,
                       "redeal": outcome.redeal})
    return {"game": game.name, "players": scenario.players, "rounds": rounds}
