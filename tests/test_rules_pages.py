"""The rules pages (/rules/{game}) in English and German, and every worked example on them
checked against the rules cores: who wins each example trick with how many card points, which
cards annihilate, every example score, hand value and Doppio call, and the numbers the text
states (trumps, announcement deadlines, decks)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from app.games import registry
from app.games.doppelganger_tricks.cards import deck as navy_deck
from app.games.doppelganger_tricks.cards import hand_size
from app.games.doppelganger_tricks.scoring import bid_points, bonus_points
from app.games.doppelganger_tricks.state import Bonus
from app.games.doppelkopf import scoring
from app.games.doppelkopf.announcements import min_cards
from app.games.doppelkopf.cards import deck
from app.games.doppelkopf.contracts import card_order
from app.games.doppelkopf.state import KONTRA, RE, Play, State, Trick
from app.games.doppio import GAME as DOPPIO
from app.games.doppio.cards import full_deck
from app.games.doppio.catch import catch_priority
from app.games.doublehead_kids import details as kids_details
from app.games.registry import get_game
from app.web import rules_examples as ex
from app.web.pages import rules_games
from tests.platform_helpers import register_highcard

#: words a newcomer must find on each page, per language
KEY_TERMS = {
    ("doppelkopf", "en"): ["Re", "Kontra", "trump", "follow suit", "wedding", "poverty", "Silent solo",
                           "Queens solo", "Fleshless solo", "No 90", "No 60", "No 30", "Black",
                           "fox", "Charlie", "Doppelkopf", "against the elders", "game value",
                           "Tournament rules (DDV)", "GameTwist pub rules", "Pub mode", "Duel",
                           "Tournament", "swines", "Rule options"],
    ("doppelkopf", "de"): ["Re", "Kontra", "Trumpf", "Bedienen", "Hochzeit", "Armut", "stilles Solo",
                           "Damensolo", "Fleischloser", "keine 90", "keine 60", "keine 30", "schwarz",
                           "Fuchs", "Karlchen", "Doppelkopf", "Gegen die Alten", "Spielwert",
                           "Turnierregeln (DDV)", "GameTwist-Kneipenregeln", "Kneipenmodus",
                           "Duell", "Turnier", "Schweinchen", "Regeloptionen", "Augen"],
    ("doublehead_kids", "en"): ["King Frederick", "Prince / Princess", "Queen Elizabeth", "Knight",
                                "Foxy", "Karlchen", "Jester Conrad", "castle", "Earl Ernest Augustus",
                                "Earl George", "soldier", "Team Prince/Princess", "Team No Crown",
                                "silver coins", "golden coin", "duel", "loot", "Wedding", "alone",
                                "trump", "discard", "Psssst"],
    ("doublehead_kids", "de"): ["König Friedrich", "Prinz / Prinzessin", "Königin Elisabeth", "Ritter",
                                "Füchschen", "Karlchen", "Hofnarr Kunz", "Burg", "Graf Ernst August",
                                "Graf Georg", "Soldat", "Team Prinz/Prinzessin", "Team ohne Krone",
                                "Silbermünzen", "Goldmünze", "Duell", "Beute", "Hochzeit", "allein",
                                "trumpf", "abwerfen", "Psssst"],
    ("doppelganger_tricks", "en"): ["pink", "green", "yellow", "navy", "doppelganger", "bid",
                                    "follow suit", "annihilate", "Nobody wins", "star", "eye",
                                    "7 points", "3 points"],
    ("doppelganger_tricks", "de"): ["Rosa", "Grün", "Gelb", "Marineblau", "Doppelgänger",
                                    "Vorhersage", "Bedienen", "löschen", "Niemand gewinnt", "Stern",
                                    "Auge", "7 Punkte", "3 Punkte"],
    ("doppio", "en"): ["divider", "pair", "hand value", "bonus card", "discard", "catch",
                       "farthest clockwise", "Doppio", "20 plus", "100", "lowest total"],
    ("doppio", "de"): ["Trenner", "Paar", "Handwert", "Bonuskarte", "abwerfen", "Fangen",
                       "im Uhrzeigersinn am weitesten", "Doppio", "20 plus", "100",
                       "niedrigste Summe"],
}
TITLES = {"en": "Rules of {}", "de": "Regeln: {}"}
GAME_WORDS = {"en": {"doppelkopf": "Doppelkopf", "doublehead_kids": "Doppelkopf for kids",
                     "doppelganger_tricks": "Doppelganger Tricks", "doppio": "Doppio"},
              "de": {"doppelkopf": "Doppelkopf", "doublehead_kids": "Doppelkopf für Kinder",
                     "doppelganger_tricks": "Doppelgänger-Stiche", "doppio": "Doppio"}}


def text_of(html: str) -> str:
    """The page's words: tags out, whitespace folded, entities of quotes undone."""
    words = re.sub(r"<script.*?</script>|<[^>]+>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", words.replace("&#39;", "'").replace("&quot;", '"'))


def test_every_game_of_the_site_has_a_rules_page_in_both_languages():
    shipped = {name for name, module in registry.GAME_MODULES.items() if module.startswith("app.")}
    assert shipped == set(rules_games()) == {game for game, _lang in KEY_TERMS}


async def test_a_game_without_prose_has_no_rules_page_and_no_link(client):
    register_highcard()  # a test-only game: in the registry, without a rules page
    assert "highcard" in registry.available_games() and "highcard" not in rules_games()
    assert (await client.get("/rules/highcard", headers={"Accept": "text/html"})).status_code == 404
    await client.post("/guest", data={"csrf": (await client.get("/api/me")).json()["csrf"]})
    page = (await client.get("/?game=highcard")).text
    assert 'id="game-rules" href="/rules/highcard" hidden>' in page
    assert '"rules": false' in page  # lobby.js hides the link for it too


@pytest.mark.parametrize(("game", "lang"), sorted(KEY_TERMS))
async def test_a_rules_page_in_its_language_with_the_key_terms(client, game, lang):
    page = await client.get(f"/rules/{game}", headers={"Accept-Language": lang})
    assert page.status_code == 200
    assert page.headers["content-language"] == lang
    assert f'<html lang="{lang}">' in page.text
    words = text_of(page.text)
    title = TITLES[lang].format(GAME_WORDS[lang][game])
    assert f"<h1 id=\"rules-title\">{title}</h1>" in page.text
    missing = [term for term in KEY_TERMS[game, lang] if term.lower() not in words.lower()]
    assert missing == [], f"{game}/{lang} lacks {missing}"
    other = "de" if lang == "en" else "en"
    assert f'<nav class="toc" aria-label="{"Inhalt" if lang == "de" else "Contents"}">' in page.text
    assert ('aria-label="Contents"' in page.text) is (lang == "en")  # the prose of this language
    # the other games' pages, the switch back to this page and the way to play it
    for name in rules_games():
        assert f'href="/rules/{name}"' in page.text
    assert f"/lang/{other}?next=/rules/{game}" in page.text
    assert f'href="/?game={game}#new-game"' in page.text


@pytest.mark.parametrize("game", sorted(rules_games()))
async def test_every_card_on_a_rules_page_is_named_in_the_readers_language(client, game):
    for lang in ("en", "de"):
        page = (await client.get(f"/rules/{game}", headers={"Accept-Language": lang})).text
        cards = re.findall(r'data-card="([^"]+)"><(?:span[^>]*>[^<]*</span><)*span class="rcard-name">([^<]+)<', page)
        assert len(cards) >= 4, game
        for code, name in cards:
            assert name.strip() and name.strip() != code, (game, lang, code)
        if game == "doppelkopf":
            names = dict(cards)
            assert names["QC"] == ("Kreuz-Dame" if lang == "de" else "Queen of clubs")


async def test_the_language_switch_works_on_a_rules_page(client):
    switched = await client.get("/lang/de?next=/rules/doppio")
    assert switched.status_code == 303 and switched.headers["location"] == "/rules/doppio"
    page = await client.get("/rules/doppio", headers={"Accept-Language": "en"})
    assert page.headers["content-language"] == "de" and "Handwert" in page.text


async def test_an_unknown_game_has_no_rules_page(client):
    page = await client.get("/rules/skat", headers={"Accept": "text/html"})
    assert page.status_code == 404
    assert "There is no such page." in page.text


async def test_the_rules_index_links_every_game(client):
    page = (await client.get("/rules", headers={"Accept-Language": "de"})).text
    for name in rules_games():
        assert f'<a href="/rules/{name}">Regeln: {GAME_WORDS["de"][name]}</a>' in page


async def test_play_links_choose_the_game_in_the_new_game_form(client):
    await client.post("/guest", data={"csrf": (await client.get("/api/me")).json()["csrf"]})
    page = (await client.get("/?game=doppio")).text
    assert '<option value="doppio" data-presets="standard" data-players="2,3,4" selected>' in page
    assert 'id="game-rules" href="/rules/doppio"' in page
    unknown = (await client.get("/?game=nope")).text
    assert re.search(r'<option value="doppelkopf"[^>]* selected>', unknown)


# --- the examples against the rules cores ---------------------------------------------------

@pytest.mark.parametrize(("game", "key"), [(game, key) for game, tricks in (
    ("doppelkopf", ex.DOPPELKOPF), ("doublehead_kids", ex.KIDS_TRICKS),
    ("doppelganger_tricks", ex.DOPPELGANGER)) for key in tricks])
def test_each_example_trick_ends_as_its_text_says(game, key):
    trick = ex.for_game(game)["tricks"][key][0]
    result = ex.resolve(game, trick)
    assert result.winner == trick.winner
    if trick.points is not None:
        assert result.points == trick.points
    assert result.gone == trick.gone
    plays = [card for _seat, card in trick.plays()]
    assert len(plays) == 4 and sorted(seat for seat, _card in trick.plays()) == [0, 1, 2, 3]


def _tricks(points_by_seat: list[tuple[int, int]], extra: list[Trick]) -> tuple[Trick, ...]:
    """Tricks holding the given card points, each below 40 and without a fox or Charlie;
    ``extra`` (the example's own tricks) first."""
    filler = []
    for seat, points in points_by_seat:
        while points > 0:
            take = min(30, points)
            plays = tuple(Play((seat + i) % 4, "9S") for i in range(4))
            filler.append(Trick(seat, plays, seat, take))
            points -= take
    return tuple(extra) + tuple(filler)


def _deal_state(game: str, example: ex.ScoreExample) -> State:
    rules = get_game(game).make_rules({"preset": example.scoring} if game == "doublehead_kids" else {})
    state = State(rules, 3, tuple(tuple() for _ in range(4)))
    state.contract = example.contract
    state.re_party = tuple(seat in example.re for seat in range(4))
    levels = [-1, -1]
    for seat, value in example.announcements:
        party = RE if seat in example.re else KONTRA
        levels[party] = max(levels[party], 0 if value in ("re", "kontra") else 1)
    state.levels = (levels[RE], levels[KONTRA])
    state.announcements = example.announcements
    special = []
    for reason, winner, owner in example.specials:
        if reason == "doppelkopf":
            trick = ex.DOPPELKOPF["doppelkopf"]
        elif reason == "fox_caught":
            trick = ex.DOPPELKOPF["fox"]
        else:  # foxy: the winner took the owner's fox (AD)
            trick = ex.ExampleTrick(("9S", "AD", "TS", "KS"), owner - 1, winner=winner)
        plays = tuple(Play(seat, card) for seat, card in trick.plays())
        assert dict((s, c) for s, c in trick.plays())[owner] in ("AD", "AC", "TC")
        special.append(Trick(plays[0].seat, plays, winner, sum(
            {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}[c[0]] for _s, c in plays)))
    re_special = sum(t.points for t in special if t.winner in example.re)
    kontra_special = sum(t.points for t in special if t.winner not in example.re)
    re_seat = example.re[0]
    kontra_seat = next(seat for seat in range(4) if seat not in example.re)
    state.tricks = _tricks([(re_seat, example.card_points[0] - re_special),
                            (kontra_seat, example.card_points[1] - kontra_special)], special)
    state.phase = "done"
    return state


@pytest.mark.parametrize("key", sorted(ex.DOPPELKOPF_SCORES))
def test_each_doppelkopf_worked_score_is_the_engines(key):
    example = ex.DOPPELKOPF_SCORES[key]
    assert sum(example.card_points) == 240
    outcome = scoring.score(_deal_state("doppelkopf", example))
    details = outcome.details
    assert details["card_points"] == {"re": example.card_points[0], "kontra": example.card_points[1]}
    engine_lines = Counter((line["reason"], line["party"], abs(line["points"])) for line in details["score_lines"])
    assert engine_lines == Counter(example.lines)
    assert tuple(outcome.scores) == example.scores
    assert sum(outcome.scores) == 0


@pytest.mark.parametrize("key", sorted(ex.KIDS_SCORES))
def test_each_kids_worked_score_is_the_engines(key):
    example = ex.KIDS_SCORES[key]
    result = kids_details(_deal_state("doublehead_kids", example))
    lines = Counter((line["reason"], line["party"], line["coins"]) for line in result["coin_lines"])
    assert lines == Counter(example.lines)
    assert tuple(result["golden_coins"]) == example.scores


def test_the_doppelganger_worked_score_is_the_engines():
    assert sum(row.won for row in ex.DOPPELGANGER_SCORES) == hand_size(4) == 10
    for row in ex.DOPPELGANGER_SCORES:
        bonus = Bonus(row.bonus) if row.bonus else None
        assert bid_points(row.bid, row.won) + bonus_points(bonus, row.bid, row.won) == row.points


def test_the_doppio_hands_and_calls_are_the_engines():
    value = ex.DOPPIO_HANDS["value"]
    assert value.engine_value() == value.value
    swap = ex.DOPPIO_HANDS["discard"]
    assert swap.engine_value() == swap.value and swap.engine_value(swap.after()) == swap.after_value
    catch = ex.DOPPIO_CATCH
    assert catch_priority(catch["discarder"], catch["catchers"], 4) == catch["gets"]
    for key, call in ex.DOPPIO_CALLS.items():
        deal = [list(hand) for hand in DOPPIO_DEALS[key]]
        rest = list(full_deck())
        for hand in deal:
            for card in hand:
                rest.remove(card)  # each card at most as often as the deck holds it
        DOPPIO.check_deal(DOPPIO.make_rules({}), 4, deal, rest)
        state = DOPPIO.new_round(DOPPIO.make_rules({}), 4, deal, rest, 3)  # Anna moves first
        state, _events = DOPPIO.apply(state, {"seat": call.declarer, "type": "doppio"})
        outcome = DOPPIO.outcome(state)
        assert tuple(outcome.details["hand_values"]) == call.values
        assert outcome.details["doppio"]["success"] is call.success
        assert tuple(outcome.scores) == call.penalties


#: hands [L3, L2, L1, R1, R2, R3] with the hand values of ex.DOPPIO_CALLS
DOPPIO_DEALS = {
    "success": (("10", "11", "B", "8", "11", "10"), ("12", "13", "3", "9", "13", "12"),
                ("10", "11", "4", "5", "11", "10"), ("3", "4", "7", "13", "4", "3")),
    "failure": (("10", "11", "3", "4", "11", "10"), ("12", "13", "3", "9", "13", "12"),
                ("10", "11", "B", "9", "11", "10"), ("5", "6", "7", "13", "6", "5")),
}


def test_the_numbers_the_pages_state():
    assert len(deck(True)) == 48 and len(deck(False)) == 40
    assert len(card_order("normal", True).trumps) * 2 == 26
    assert len(card_order("solo_hearts", True).trumps) * 2 == 24
    assert card_order("solo_queens", True).trumps == ("QC", "QS", "QH", "QD")
    assert card_order("solo_fleshless", True).trumps == ()
    rules = get_game("doppelkopf").make_rules({})
    state = State(rules, 3, tuple(tuple() for _ in range(4)))
    assert [min_cards(state, level) for level in range(5)] == [11, 10, 9, 8, 7]
    state.rules = get_game("doppelkopf").make_rules({"nines": False})
    assert [min_cards(state, level) for level in range(5)] == [9, 8, 7, 6, 5]
    assert len(navy_deck(4)) == 40 and hand_size(4) == 10 and hand_size(3) == 12
    assert len(full_deck()) == 48 and full_deck().count("B") == 4
