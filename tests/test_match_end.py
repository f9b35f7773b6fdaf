"""One end condition per game, stated the same way everywhere (issue 19; app.rooms.match).

Doppelkopf: a number of deals, a multiple of the players; Doublehead Kids: golden coins to win,
no deal limit; Doppelganger Tricks: one round per player; Doppio: the penalty limit. The pure
part (MatchProgress) is tested directly; the lobby on a site with the production rule
(``any_deal_count`` off); the browser test checks that the New Game form, the table's header,
the score sheet beside the table and the score sheet page all say the same.
"""

from __future__ import annotations

import pytest

from app.games.base import RoundOutcome
from app.games.registry import get_game
from app.rooms.match import EndCondition, MatchProgress, RoundRecord, end_condition


def _round(progress: MatchProgress, scores: tuple[int, ...], *, redeal: bool = False) -> None:
    number = len(progress.rounds)
    record = RoundRecord(number=number, dealer=number % progress.players, deal=[], deck=[])
    record.outcome = RoundOutcome(finished=True, scores=scores, redeal=redeal)
    progress.rounds.append(record)


def _progress(name: str, players: int, deals: int, rules: dict | None = None) -> MatchProgress:
    game = get_game(name)
    return MatchProgress(game, game.make_rules(rules or {}), players, deals)


@pytest.mark.parametrize(("name", "players", "deals", "rules", "end"), [
    ("doppelkopf", 4, 8, {"preset": "ddv"}, EndCondition("deals", 8)),
    ("doublehead_kids", 4, 0, {"preset": "basic"}, EndCondition("coins", 5)),
    ("doublehead_kids", 4, 0, {"preset": "advanced"}, EndCondition("coins", 10)),
    ("doppelganger_tricks", 3, 3, {}, EndCondition("rounds", 3)),
    ("doppelganger_tricks", 4, 4, {}, EndCondition("rounds", 4)),
    ("doppio", 3, 0, {}, EndCondition("penalty", 100)),
])
def test_each_game_has_its_own_end_condition(name, players, deals, rules, end):
    progress = _progress(name, players, deals, rules)
    assert progress.end == end
    assert progress.score_sheet()["end"] == {"kind": end.kind, "target": end.target, "cap": None}


def test_a_kids_match_ends_exactly_when_a_player_reaches_the_coin_target():
    progress = _progress("doublehead_kids", 4, 0, {"preset": "basic"})
    for _ in range(12):  # many deals with few coins: no deal limit ends it
        _round(progress, (0, 0, 0, 0))
        assert not progress.match_over()
    _round(progress, (2, 0, 2, 0))
    _round(progress, (2, 0, 2, 0))
    assert not progress.match_over()  # 4 coins each: not yet
    _round(progress, (1, 0, 0, 0))
    assert progress.match_over()  # seat 0 has 5
    assert progress.winners() == [0]


def test_a_three_player_doppelganger_tricks_match_is_three_rounds():
    progress = _progress("doppelganger_tricks", 3, 4, {})  # a stored 4 cannot lengthen it
    assert progress.end == EndCondition("rounds", 3)
    for _ in range(2):
        _round(progress, (3, 0, 1))
        assert not progress.match_over()
    _round(progress, (3, 0, 1))
    assert progress.match_over()
    assert progress.score_sheet()["deals"] == 3


def test_doppio_ends_at_the_penalty_limit_not_after_a_number_of_deals():
    progress = _progress("doppio", 2, 0, {})
    for _ in range(3):
        _round(progress, (30, 20))
    assert not progress.match_over()  # 90 and 60 after three rounds
    _round(progress, (10, 5))
    assert progress.match_over() and progress.winners() == [1]


def test_redeals_keep_their_deal_number_on_the_score_sheet():
    progress = _progress("doppelkopf", 4, 8, {"preset": "ddv"})
    _round(progress, (1, -1, 1, -1))
    _round(progress, (0, 0, 0, 0), redeal=True)
    assert progress.score_sheet()["current"] == 2  # the redeal's deal is dealt again
    _round(progress, (1, -1, 1, -1))
    sheet = progress.score_sheet()
    assert [(row["deal"], row["redeal"]) for row in sheet["rounds"]] == [(1, False), (2, True),
                                                                      (2, False)]
    assert sheet["played"] == 2 and sheet["current"] == 2


def test_a_cap_is_part_of_the_statement():
    game = get_game("doublehead_kids")
    end = end_condition(game, game.make_rules({"preset": "basic"}), 4, 2)
    assert end == EndCondition("coins", 5, 2)
    from app.i18n import set_language
    from app.i18n.names import end_text

    set_language("en")
    assert end_text(end.json()) == "first to 5 golden coins, at most 2 deals"
    assert end_text(EndCondition("penalty", 100).json()) == "up to 100 points"


# --- the lobby with the production rule ------------------------------------------------------


@pytest.fixture
async def strict(tmp_path):
    """An API client of a site where a Doppelkopf match is a multiple of the players."""
    import httpx

    from tests.platform_helpers import Api, make_app, settings_for

    site = make_app(settings_for(tmp_path, any_deal_count=False))
    async with site.router.lifespan_context(site):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=site),
                                     base_url="http://test") as client:
            yield Api(client)


async def _table(api, **spec):
    await api.post("/api/guest")
    return await api.post("/api/tables", {"bots": 0, **spec})


async def test_doppelkopf_deals_must_be_a_multiple_of_the_players(strict):
    refused = await _table(strict, game="doppelkopf", players=4, deals=6)
    assert refused.status_code == 400
    assert refused.json()["detail"] == "a multiple of 4, so that everyone deals equally often"
    made = await strict.post("/api/tables", {"game": "doppelkopf", "players": 4, "deals": 8})
    assert made.status_code == 201
    assert made.json()["end"] == {"kind": "deals", "target": 8, "cap": None}


@pytest.mark.parametrize(("game", "players", "end"), [
    ("doublehead_kids", 4, {"kind": "coins", "target": 5, "cap": None}),
    ("doppelganger_tricks", 3, {"kind": "rounds", "target": 3, "cap": None}),
    ("doppio", 2, {"kind": "penalty", "target": 100, "cap": None}),
])
async def test_other_games_ignore_the_deals_field(strict, game, players, end):
    made = await _table(strict, game=game, players=players, deals=6)
    assert made.status_code == 201, made.text
    assert made.json()["end"] == end
    assert made.json()["deals"] == (players if game == "doppelganger_tricks" else 0)
