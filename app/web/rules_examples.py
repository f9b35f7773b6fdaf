"""The worked examples of the rules pages (/rules/{game}): example tricks, hands and scores.

The pages draw them from this data, and the outcome a page shows beside a trick (who wins it,
its card points, which cards annihilate) is computed here by the game's own rules core, so a
picture can never disagree with how the site plays. What the pages' text says about an example
(``winner``, ``points``, ``gone``, the score lines) is written down here too, and
tests/test_rules_pages.py checks every such statement against the rules cores.

Players are named by their index in ``PLAYERS`` (``KIDS`` for Doublehead Kids), seated
clockwise in that order; a trick's ``leader`` is the index of the player who leads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.doppelganger_tricks.cards import parse_card, parse_suit
from app.games.doppelganger_tricks.state import Play as NavyPlay
from app.games.doppelganger_tricks.tricks import resolve_trick
from app.games.doppelkopf.cards import card_points
from app.games.doppelkopf.contracts import card_order
from app.games.doppelkopf.state import Play
from app.games.doppelkopf.tricks import trick_winner
from app.games.doppio.layout import PAIRS, discard, hand_value, pair_value
from app.games.registry import get_game

PLAYERS = ("Anna", "Ben", "Clara", "Dirk")
KIDS = ("Mia", "Leo", "Emma", "Paul")


@dataclass(frozen=True, slots=True)
class ExampleTrick:
    """One example trick.

    cards: the cards in play order (the game's card codes); leader: index of the player who
        leads, the others follow clockwise; order: the Doppelkopf card order the trick is
        played with (``normal`` or a solo such as ``solo_queens``); suit: the suit a navy lead
        names (Doppelganger Tricks, ``P``, ``G`` or ``Y``); last: the deal's last trick.
    winner, points, gone: what the page's text says: the index of the winner (None: nobody),
        the card points (silver coins) it holds, the cards that annihilate.
    """

    cards: tuple[str, ...]
    leader: int
    winner: int | None
    points: int | None = None
    order: str = "normal"
    suit: str | None = None
    gone: tuple[str, ...] = ()
    last: bool = False

    def plays(self) -> list[tuple[int, str]]:
        """(player index, card) in play order."""
        return [((self.leader + i) % 4, card) for i, card in enumerate(self.cards)]


@dataclass(frozen=True, slots=True)
class TrickResult:
    """What the rules core makes of an example trick: winner (None: nobody), card points
    (None where the game has none) and the annihilated cards in play order."""

    winner: int | None
    points: int | None
    gone: tuple[str, ...]


def resolve(game: str, trick: ExampleTrick) -> TrickResult:
    """Play ``trick`` by the rules core of ``game`` with its default rules (Doppelkopf and
    Doublehead Kids: the Doppelkopf trick rules; Doppelganger Tricks: annihilation)."""
    if game == "doppelganger_tricks":
        plays = [NavyPlay(seat, parse_card(card), parse_suit(trick.suit) if i == 0 and trick.suit else None)
                 for i, (seat, card) in enumerate(trick.plays())]
        done = resolve_trick(plays)
        return TrickResult(done.winner, None, tuple(str(card) for card in done.annihilated))
    rules = get_game(game).make_rules({})
    order = card_order(trick.order, rules.nines)
    plays = [Play(seat, card) for seat, card in trick.plays()]
    winner = trick_winner(plays, order, rules, last_trick=trick.last)
    return TrickResult(winner, card_points(trick.cards), ())


@dataclass(frozen=True, slots=True)
class ScoreExample:
    """A worked scoring example of Doppelkopf or Doublehead Kids (one deal / round).

    re: the indices of the Re party (Team Prince/Princess); card_points: (Re, Kontra), adding
    up to 240; announcements: (player, value) in order; specials: what else happened, as
    (reason, player who won the trick, player whose card it was), e.g. a fox caught;
    lines: the score lines the page lists, (reason, party ``re``/``kontra`` that earns it, its
    points, or golden coins for each member); scores: per player, as the score sheet shows
    them.
    """

    re: tuple[int, ...]
    card_points: tuple[int, int]
    lines: tuple[tuple[str, str, int], ...]
    scores: tuple[int, int, int, int]
    contract: str = "normal"
    announcements: tuple[tuple[int, str], ...] = ()
    specials: tuple[tuple[str, int, int], ...] = ()
    scoring: str = "basic"


@dataclass(frozen=True, slots=True)
class BidExample:
    """One player's round of Doppelganger Tricks: bid, tricks won, bonus card held (``star``,
    ``eye`` or None) and the points the page says it scores."""

    player: int
    bid: int
    won: int
    bonus: str | None
    points: int


@dataclass(frozen=True, slots=True)
class DoppioHand:
    """A Doppio hand [L3, L2, L1, R1, R2, R3]; after a discard at ``position`` refilled with
    ``refill`` when those are given. value / after_value: the hand values the page names."""

    cards: tuple[str, ...]
    value: int
    position: str | None = None
    refill: str | None = None
    after_value: int | None = None

    def pairs(self, cards: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
        """Each symmetric pair: positions, cards and value (the rules core's pair_value)."""
        hand = cards or self.cards
        index = {"L3": 0, "L2": 1, "L1": 2, "R1": 3, "R2": 4, "R3": 5}
        return [{"left": left, "right": right, "cards": (hand[index[left]], hand[index[right]]),
                 "value": pair_value(hand[index[left]], hand[index[right]])}
                for left, right in PAIRS]

    def after(self) -> tuple[str, ...] | None:
        """The hand after the discard (the rules core's shift and refill), or None."""
        if self.position is None or self.refill is None:
            return None
        return discard(self.cards, self.position, self.refill)[0]

    def engine_value(self, cards: tuple[str, ...] | None = None) -> int:
        return hand_value(cards or self.cards)


@dataclass(frozen=True, slots=True)
class DoppioCall:
    """A Doppio declaration: the declarer, every player's hand value, whether it succeeds
    and the penalties the page names."""

    declarer: int
    values: tuple[int, ...]
    success: bool
    penalties: tuple[int, ...]


DOPPELKOPF = {
    # follow suit, and trump when you cannot
    "follow": ExampleTrick(("AS", "TS", "9D", "KS"), 0, winner=2, points=25),
    # the ten of hearts is a trump, not a heart
    "heart_ten": ExampleTrick(("AH", "9H", "TH", "KH"), 1, winner=3, points=25),
    # two equal cards: the first one played wins; Clara and Anna show they are Re
    "equal": ExampleTrick(("TD", "QC", "9D", "QC"), 1, winner=2, points=16),
    # 40 card points or more: a Doppelkopf, Clara's (Re)
    "doppelkopf": ExampleTrick(("AC", "AC", "TC", "TC"), 2, winner=2, points=42),
    # Ben (Kontra) catches Anna's fox (Re) with the ten of hearts
    "fox": ExampleTrick(("TD", "AD", "TH", "9D"), 3, winner=1, points=31),
    # Charlie: the jack of clubs wins the last trick
    "charlie": ExampleTrick(("9D", "KD", "JC", "KS"), 1, winner=3, points=10, last=True),
    # queens solo: only the queens are trumps; the ten of hearts and the jacks are plain cards
    "solo_queens": ExampleTrick(("AH", "TH", "JH", "QC"), 0, winner=3, points=26,
                                order="solo_queens"),
}
DOPPELKOPF_SCORES = {
    # Anna and Clara (Re) announce Re, take 152 card points with a Doppelkopf; Ben catches
    # Anna's fox
    "normal": ScoreExample(
        re=(0, 2), card_points=(152, 88), announcements=((2, "re"),),
        specials=(("doppelkopf", 2, 2), ("fox_caught", 1, 0)),
        lines=(("won", "re", 1), ("no90", "re", 1), ("announced_re", "re", 2),
               ("doppelkopf", "re", 1), ("fox_caught", "kontra", 1)),
        scores=(4, -4, 4, -4)),
    # Dirk plays a queens solo and takes 130 card points
    "solo": ScoreExample(re=(3,), card_points=(130, 110), contract="solo_queens",
                         lines=(("won", "re", 1),), scores=(-1, -1, -1, 3)),
    # 120 to 120 without announcements: Kontra wins
    "tie": ScoreExample(re=(0, 1), card_points=(120, 120),
                        lines=(("won", "kontra", 1), ("against_the_elders", "kontra", 1)),
                        scores=(-2, -2, 2, 2)),
}

KIDS_TRICKS = {
    # Mia leads a castle of crosses; Paul's castle is the same card: the first one wins
    "follow": ExampleTrick(("AC", "9C", "TC", "AC"), 0, winner=0, points=32),
    # Emma has no spade: she trumps with Jester Kunz
    "trump": ExampleTrick(("AS", "9S", "9D", "TS"), 0, winner=2, points=21),
    # Leo has no heart: his Prince/Princess card trumps and shows his team
    "team": ExampleTrick(("AH", "KH", "KH", "QC"), 2, winner=1, points=22),
    # a royal lead: Paul has no royal card and throws a castle to the player he hopes is his
    # teammate
    "discard": ExampleTrick(("QS", "JH", "AS", "9D"), 1, winner=1, points=16),
}
KIDS_SCORES = {
    # Team Prince/Princess (Mia and Leo) takes 131 silver coins; Emma catches Mia's Foxy
    "basic": ScoreExample(re=(0, 1), card_points=(131, 109), specials=(("foxy", 2, 0),),
                          lines=(("won", "re", 1),), scores=(1, 1, 0, 0)),
    "advanced": ScoreExample(re=(0, 1), card_points=(131, 109), specials=(("foxy", 2, 0),),
                             scoring="advanced",
                             lines=(("won", "re", 1), ("foxy", "kontra", 1)),
                             scores=(1, 1, 1, 1)),
    # Paul holds both Prince/Princess cards, does not marry and plays alone
    "lone_won": ScoreExample(re=(3,), card_points=(125, 115), contract="silent_solo",
                             lines=(("won", "re", 1), ("lone_double", "re", 1)),
                             scores=(0, 0, 0, 2)),
    "lone_lost": ScoreExample(re=(3,), card_points=(100, 140), contract="silent_solo",
                              lines=(("won", "kontra", 1),), scores=(1, 1, 1, 0)),
}

DOPPELGANGER = {
    # the navy 6 counts as pink and meets the real pink 6: both go
    "annihilate": ExampleTrick(("P4", "N6", "P6", "G9"), 0, winner=0, gone=("N6", "P6")),
    # the navy 8 counts as yellow; the green 8 is another suit: nothing goes
    "follows": ExampleTrick(("Y5", "N8", "G8", "Y3"), 0, winner=1),
    # a navy lead names pink
    "navy_lead": ExampleTrick(("N7", "P5", "P7", "P2"), 0, winner=1, suit="P", gone=("N7", "P7")),
    # the lead card itself goes: the highest card of any suit wins, the first of equals
    "lead_gone": ExampleTrick(("Y10", "N10", "P7", "G7"), 0, winner=2, gone=("Y10", "N10")),
    # every card goes: nobody wins, Anna leads again
    "void": ExampleTrick(("P3", "N7", "P7", "N3"), 0, winner=None, gone=("P3", "N7", "P7", "N3")),
}
DOPPELGANGER_SCORES = (
    BidExample(0, bid=2, won=2, bonus="eye", points=6),
    BidExample(1, bid=0, won=0, bonus=None, points=7),
    BidExample(2, bid=3, won=2, bonus="star", points=2),
    BidExample(3, bid=3, won=6, bonus=None, points=0),
)

DOPPIO_HANDS = {
    "value": DoppioHand(("7", "B", "5", "5", "9", "7"), value=7),
    "discard": DoppioHand(("8", "4", "6", "6", "11", "4"), value=27, position="R2", refill="8",
                          after_value=0),
}
#: Anna (0) discards; Ben (1) and Dirk (3) both catch; Dirk, farthest clockwise, gets the card
DOPPIO_CATCH = {"discarder": 0, "catchers": (1, 3), "gets": 3}
DOPPIO_CALLS = {
    "success": DoppioCall(0, values=(6, 12, 9, 20), success=True, penalties=(0, 12, 9, 20)),
    "failure": DoppioCall(0, values=(7, 12, 7, 20), success=False, penalties=(27, 12, 7, 20)),
}


def for_game(game: str) -> dict[str, Any]:
    """Everything a rules page draws: ``players`` (names), ``tricks`` {key: (trick, result)}
    and the game's other examples."""
    tricks = {"doppelkopf": DOPPELKOPF, "doublehead_kids": KIDS_TRICKS,
              "doppelganger_tricks": DOPPELGANGER}.get(game, {})
    return {
        "players": KIDS if game == "doublehead_kids" else PLAYERS,
        "tricks": {key: (trick, resolve(game, trick)) for key, trick in tricks.items()},
        "scores": {"doppelkopf": DOPPELKOPF_SCORES, "doublehead_kids": KIDS_SCORES}.get(game, {}),
        "bids": DOPPELGANGER_SCORES if game == "doppelganger_tricks" else (),
        "hands": DOPPIO_HANDS if game == "doppio" else {},
        "calls": DOPPIO_CALLS if game == "doppio" else {},
        "catch": DOPPIO_CATCH if game == "doppio" else {},
    }
