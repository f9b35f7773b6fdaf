"""Ratings move the right way: 2 v 2 deals, solos (1 v 3) and rank-order games."""

from __future__ import annotations

import pytest

from app.ratings.model import (
    BOT_RATINGS,
    MODEL,
    PROVISIONAL_SIGMA,
    Bot,
    BotLevel,
    NotRated,
    Person,
    Rating,
    competition_ranks,
    is_provisional,
    is_rated,
    nearest_bot_level,
    rate_match,
    rate_solo,
    unrated_reason,
)

NEW = Rating()


def people(*ratings: Rating) -> list[Person]:
    return [Person(f"p{seat}", rating) for seat, rating in enumerate(ratings)]


def deal(scores, re, kontra, contract="normal", **round_extra):
    return {
        "finished": True,
        "scores": scores,
        "details": {"contract": contract, "parties": {"re": re, "kontra": kontra}},
        **round_extra,
    }


def match(*rounds, game_over=True, totals=None):
    return {"rounds": list(rounds), "totals": totals or [], "game_over": game_over}


def gain(before: Rating, after: Rating) -> float:
    return after.mu - before.mu


# --- two against two ---------------------------------------------------------------------


def test_normal_deal_moves_re_winners_up_and_kontra_down():
    seats = people(NEW, NEW, NEW, NEW)
    new = rate_match("doppelkopf", seats, match(deal([1, -1, 1, -1], re=[0, 2], kontra=[1, 3])))
    assert new["p0"].mu > NEW.mu and new["p2"].mu > NEW.mu
    assert new["p1"].mu < NEW.mu and new["p3"].mu < NEW.mu
    assert new["p0"].mu == pytest.approx(new["p2"].mu)
    assert gain(NEW, new["p0"]) == pytest.approx(-gain(NEW, new["p1"]))
    assert all(rating.sigma < NEW.sigma for rating in new.values())


def test_party_that_gained_wins_even_when_the_official_winner_lost_points():
    # the wedding example: Re won the game but Kontra's fox and Charlie outweigh it
    seats = people(NEW, NEW, NEW, NEW)
    outcome = match(deal([-1, 1, 1, -1], re=[0, 3], kontra=[1, 2], contract="wedding"))
    outcome["rounds"][0]["details"]["winner"] = "re"
    new = rate_match("doppelkopf", seats, outcome)
    assert new["p1"].mu > NEW.mu and new["p2"].mu > NEW.mu
    assert new["p0"].mu < NEW.mu and new["p3"].mu < NEW.mu


def test_an_upset_moves_ratings_more_than_an_expected_win():
    strong, weak = Rating(30.0, 5.0), Rating(20.0, 5.0)
    seats = people(strong, weak, strong, weak)
    expected = rate_match("doppelkopf", seats, match(deal([1, -1, 1, -1], [0, 2], [1, 3])))
    upset = rate_match("doppelkopf", seats, match(deal([-1, 1, -1, 1], [0, 2], [1, 3])))
    assert gain(weak, upset["p1"]) > gain(strong, expected["p0"]) > 0


def test_deals_are_rated_in_order_and_void_or_unfinished_deals_are_skipped():
    seats = people(NEW, NEW, NEW, NEW)
    win = deal([1, -1, 1, -1], [0, 2], [1, 3])
    void = {"finished": True, "scores": [0, 0, 0, 0], "redeal": True,
            "details": {"contract": "redeal"}}
    unfinished = {"finished": False, "scores": [0, 0, 0, 0], "details": {}}
    one = rate_match("doppelkopf", seats, match(win))
    same = rate_match("doppelkopf", seats, match(void, win, unfinished))
    two = rate_match("doppelkopf", seats, match(win, win))
    assert same == one
    assert two["p0"].mu > one["p0"].mu > NEW.mu


def test_doublehead_kids_is_rated_by_parties_like_doppelkopf():
    seats = people(NEW, NEW, NEW, NEW)
    new = rate_match("doublehead_kids", seats, match(deal([0, 1, 0, 1], [1, 3], [0, 2])))
    assert new["p1"].mu > NEW.mu > new["p0"].mu


# --- one against three (solo) ------------------------------------------------------------


def test_solo_win_moves_soloist_up_more_than_a_two_v_two_win_and_opponents_down_less():
    seats = people(NEW, NEW, NEW, NEW)
    normal = rate_match("doppelkopf", seats, match(deal([1, -1, 1, -1], [0, 2], [1, 3])))
    solo = rate_match(
        "doppelkopf", seats, match(deal([-1, -1, -1, 3], [3], [0, 1, 2], "solo_hearts"))
    )
    two_v_two_gain = gain(NEW, normal["p0"])
    two_v_two_loss = gain(NEW, normal["p1"])
    assert gain(NEW, solo["p3"]) > two_v_two_gain > 0
    for opponent in ("p0", "p1", "p2"):
        assert two_v_two_loss < gain(NEW, solo[opponent]) < 0
        assert -gain(NEW, solo[opponent]) < gain(NEW, solo["p3"])


def test_lone_player_is_not_a_team_of_one_against_summed_skill():
    """Under a naive 1-vs-3 team model (skills summed), a solo between equals is a near-certain
    loss: a lost solo would cost about a seventeenth of what a won one pays. Here a solo
    between equal players is an even game: losing costs what winning pays."""
    seats = people(NEW, NEW, NEW, NEW)
    won = rate_match("doppelkopf", seats, match(deal([-1, -1, -1, 3], [3], [0, 1, 2], "solo_clubs")))
    lost = rate_match("doppelkopf", seats, match(deal([1, 1, 1, -3], [3], [0, 1, 2], "solo_clubs")))
    assert gain(NEW, won["p3"]) == pytest.approx(-gain(NEW, lost["p3"]), rel=1e-6)
    assert -gain(NEW, lost["p3"]) > 2.0
    # and the naive model really is different: check what it would have done
    naive = MODEL.rate([[MODEL.rating()], [MODEL.rating() for _ in range(3)]], ranks=[1, 0])
    assert NEW.mu - naive[0][0].mu < 0.5


def test_soloist_is_compared_with_the_average_opponent():
    soloist = Rating(25.0, 6.0)
    mixed = [Rating(15.0, 6.0), Rating(25.0, 6.0), Rating(35.0, 6.0)]
    even = [Rating(25.0, 6.0)] * 3
    new_mixed, _ = rate_solo(soloist, mixed, soloist_won=True)
    new_even, _ = rate_solo(soloist, even, soloist_won=True)
    assert new_mixed.mu == pytest.approx(new_even.mu)


def test_solo_against_stronger_opponents_pays_more_and_the_strongest_loses_most():
    soloist = Rating(25.0, 6.0)
    opponents = [Rating(20.0, 6.0), Rating(30.0, 6.0), Rating(25.0, 6.0)]
    new_soloist, new_opponents = rate_solo(soloist, opponents, soloist_won=True)
    weak_soloist, _ = rate_solo(soloist, [Rating(15.0, 6.0)] * 3, soloist_won=True)
    assert gain(soloist, new_soloist) > gain(soloist, weak_soloist) > 0
    losses = [gain(before, after) for before, after in zip(opponents, new_opponents, strict=True)]
    assert losses[1] < losses[2] < losses[0] < 0


def test_kontra_soloist_is_rated_as_the_soloist():
    # a silent solo seen from the other side: the single seat is in Kontra's list
    seats = people(NEW, NEW, NEW, NEW)
    new = rate_match("doppelkopf", seats, match(deal([1, 1, -3, 1], [0, 1, 3], [2], "silent_solo")))
    solo = rate_match("doppelkopf", seats, match(deal([1, 1, -3, 1], [2], [0, 1, 3], "silent_solo")))
    assert new == solo
    assert new["p2"].mu < NEW.mu


# --- rank order ----------------------------------------------------------------------------


def test_doppelganger_tricks_ranks_by_highest_total():
    seats = people(NEW, NEW, NEW, NEW)
    new = rate_match("doppelganger_tricks", seats, match(totals=[3, 9, 5, 1]))
    order = sorted(new, key=lambda player: new[player].mu, reverse=True)
    assert order == ["p1", "p2", "p0", "p3"]
    assert new["p1"].mu > NEW.mu > new["p3"].mu


def test_doppio_penalties_rank_lowest_first_and_ties_share_a_rank():
    seats = people(NEW, NEW, NEW)
    new = rate_match("doppio", seats, match(totals=[62, 17, 17]))
    assert new["p1"].mu == pytest.approx(new["p2"].mu)
    assert new["p1"].mu > NEW.mu > new["p0"].mu


def test_competition_ranks_share_ties():
    assert competition_ranks([5, 9, 9, 1], lower_is_better=False) == [2, 0, 0, 3]
    assert competition_ranks([5, 9, 9, 1], lower_is_better=True) == [1, 2, 2, 0]


# --- bots, eligibility, provisional --------------------------------------------------------


def test_bots_keep_their_published_rating_and_are_not_in_the_result():
    seats = [Person("ann"), Bot(BotLevel.EXPERT), Person("bob"), Bot(BotLevel.BEGINNER)]
    new = rate_match("doppelkopf", seats, match(*[deal([1, -1, 1, -1], [0, 2], [1, 3])] * 2))
    assert set(new) == {"ann", "bob"}
    # beating an expert pays more than beating a beginner would: the bot's rating is used
    weaker = [Person("ann"), Bot(BotLevel.BEGINNER), Person("bob"), Bot(BotLevel.BEGINNER)]
    less = rate_match("doppelkopf", weaker, match(*[deal([1, -1, 1, -1], [0, 2], [1, 3])] * 2))
    assert new["ann"].mu > less["ann"].mu > NEW.mu
    assert BOT_RATINGS[BotLevel.EXPERT] == Rating(33.0, 2.0)


def test_only_finished_matches_with_two_people_are_rated():
    one_person = [Person("ann"), Bot(BotLevel.EXPERT), Bot(BotLevel.EXPERT), Bot(BotLevel.EXPERT)]
    two_people = [Person("ann"), Bot(BotLevel.EXPERT), Person("bob"), Bot(BotLevel.EXPERT)]
    done = match(deal([1, -1, 1, -1], [0, 2], [1, 3]))
    abandoned = match(deal([1, -1, 1, -1], [0, 2], [1, 3]), game_over=False)
    assert is_rated(two_people, done)
    assert unrated_reason(one_person, done) == "needs at least two people, has 1"
    assert unrated_reason(two_people, abandoned) == "the match did not finish"
    with pytest.raises(NotRated, match="did not finish"):
        rate_match("doppelkopf", two_people, abandoned)


def test_provisional_until_sigma_falls_under_the_threshold():
    assert PROVISIONAL_SIGMA == 5.0
    assert is_provisional(Rating(25.0, 5.0))
    assert not is_provisional(Rating(25.0, 4.99))
    assert NEW.provisional
    ratings = people(NEW, NEW, NEW, NEW)
    deals = [deal([1, -1, 1, -1] if i % 2 else [-1, 1, -1, 1], [0, 2], [1, 3]) for i in range(40)]
    new = rate_match("doppelkopf", ratings, match(*deals))
    assert not new["p0"].provisional


def test_ordinal_is_mu_minus_three_sigma():
    assert Rating(30.0, 2.0).ordinal == pytest.approx(24.0)


def test_nearest_bot_level():
    assert nearest_bot_level(25.0) is BotLevel.INTERMEDIATE
    assert nearest_bot_level(10.0) is BotLevel.BEGINNER
    assert nearest_bot_level(30.0) is BotLevel.EXPERT
    assert nearest_bot_level(21.0) is BotLevel.BEGINNER  # halfway: the weaker level


def test_unknown_game_and_bad_scores_are_errors():
    seats = people(NEW, NEW)
    with pytest.raises(ValueError, match="no rating rules"):
        rate_match("skat", seats, match(totals=[1, 2]))
    with pytest.raises(ValueError, match="totals: expected 2 numbers"):
        rate_match("doppio", seats, match(totals=[1, 2, 3]))
