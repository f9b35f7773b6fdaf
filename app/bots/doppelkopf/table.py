"""What one seat knows of a Doppelkopf deal, and a fast simulator of the card play.

A :class:`Table` is built from a seat's ``view`` (``from_view``): its own hand, every card
played, who showed void in which suit (did not follow), what each seat is known to be (Re or
Kontra) and the announcements. The expert completes it into a whole deal with sampled hidden
hands (``world``) and plays it out quickly (``play``): following suit, trick winners (heart-ten
house rules included) and the wedding clarification are the rules core's own trick kernel
(app/games/doppelkopf/tricks.py), and the simulator scores a finished deal with the engine's own scoring on a reconstructed
``app.games.doppelkopf.state.State``. It never sees a real state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.doppelkopf.cards import CARD_POINTS, RANKS, deck
from app.games.doppelkopf.contracts import TEAM_CONTRACTS, TRUMP, CardOrder, card_order
from app.games.doppelkopf.rules import Rules, make_rules
from app.games.doppelkopf.scoring import score
from app.games.doppelkopf.state import KONTRA, RE, Play, Standing, State, Trick
from app.games.doppelkopf.tricks import (
    ALONE,
    CANCELLED,
    PARTNER,
    TrickRules,
    trick_rules,
    wedding_decision,
)

QC = "QC"
ANNOUNCE_LEVEL = {"re": 0, "kontra": 0, "no90": 1, "no60": 2, "no30": 3, "black": 4}


def order_from_trumps(trumps: Sequence[str], nines: bool) -> CardOrder:
    """The card order whose trumps (highest first) are ``trumps`` (as a view lists them)."""
    cards = {c for c in deck(nines)}
    suit_of: dict[str, str] = {}
    power: dict[str, int] = {}
    for index, card in enumerate(trumps):
        suit_of[card] = TRUMP
        power[card] = len(trumps) - index
    for card in sorted(cards):
        if card not in suit_of:
            suit_of[card] = card[1]
            power[card] = len(RANKS) - RANKS.index(card[0])
    return CardOrder("view", suit_of, power, tuple(trumps))


def rules_for(view: Mapping[str, Any], rules: Mapping[str, Any] | Rules | None) -> Rules:
    """The rules of the table: given, or the default preset with the deck size the view shows."""
    if isinstance(rules, Rules):
        return rules
    if rules is not None:
        return make_rules(rules)
    cards = sum(view["hand_sizes"]) + sum(len(trick["cards"]) for trick in view["tricks"]) + len(view["trick"])
    cards += len((view.get("poverty") or {}).get("cards", ())) if view.get("phase") == "poverty_answer" else 0
    return make_rules({"preset": "ddv", "nines": cards != 40})


class Table:
    """One deal as one seat knows it (from a view), or a complete sampled deal (a world).

    hands: per seat the cards held (for a table from a view only the own seat's are filled).
    party: per seat RE, KONTRA or None (not known). known[s]: per seat, the party of every seat
        as seat ``s`` knows it (the simulator keeps this for each player of a playout).
    void: per seat the suit classes (``T`` for trump) it showed it does not hold.
    kernel: the trick rules of the order and the table's rules (app.games.doppelkopf.tricks).
    A duel-mode wedding cancelled after three tricks ends the simulated deal as the engine's
    (contract ``redeal``, ``n_tricks`` the tricks played, every score 0).
    """

    __slots__ = ("rules", "order", "suit_of", "power", "contract", "team", "declarer", "hands",
                 "sizes", "trick", "leader", "to_move", "tricks", "played", "led", "void",
                 "party", "shown", "known", "levels", "announcements", "bride", "clarified",
                 "n_tricks", "kernel", "me")

    rules: Rules
    order: CardOrder
    suit_of: dict[str, str]
    power: dict[str, int]
    contract: str
    team: bool
    declarer: int | None
    hands: list[list[str]]
    sizes: list[int]
    trick: list[tuple[int, str]]
    leader: int
    to_move: int
    tricks: list[Trick]
    played: dict[str, int]
    led: dict[str, int]
    void: list[set[str]]
    party: list[int | None]
    shown: list[bool]
    known: list[list[int | None]]
    levels: list[int]
    announcements: list[tuple[int, str]]
    bride: int | None
    clarified: bool
    n_tricks: int
    kernel: TrickRules
    me: int

    # --- construction ----------------------------------------------------------------------

    @classmethod
    def blank(cls, rules: Rules, order: CardOrder, me: int) -> Table:
        t = object.__new__(cls)
        t.rules = rules
        t.order = order
        t.suit_of = order.suit_of
        t.power = order.power
        t.contract = "normal"
        t.team = True
        t.declarer = None
        t.hands = [[], [], [], []]
        t.sizes = [rules.hand_size] * 4
        t.trick = []
        t.leader = 0
        t.to_move = 0
        t.tricks = []
        t.played = {}
        t.led = {}
        t.void = [set(), set(), set(), set()]
        t.party = [None] * 4
        t.shown = [False] * 4
        t.known = [[None] * 4 for _ in range(4)]
        t.levels = [-1, -1]
        t.announcements = []
        t.bride = None
        t.clarified = True
        t.n_tricks = rules.hand_size
        t.kernel = trick_rules(order, rules)
        t.me = me
        return t

    @classmethod
    def from_view(cls, view: Mapping[str, Any], rules: Rules) -> Table:
        """The table as the view's seat knows it (phase ``play`` or later)."""
        me = view["seat"]
        order = order_from_trumps(view["trumps"], rules.nines)
        t = cls.blank(rules, order, me)
        t.contract = view["contract"] or "normal"
        t.team = t.contract in TEAM_CONTRACTS
        t.declarer = view.get("declarer")
        t.hands[me] = list(view["hand"])
        t.sizes = list(view["hand_sizes"])
        wedding = view.get("wedding")
        if wedding is not None:
            t.bride = wedding["bride"]
            t.clarified = wedding["clarified_at"] is not None
        for trick in view["tricks"]:
            plays = trick["cards"]
            for index, play in enumerate(plays):
                t._observe(play["seat"], play["card"], plays[0]["card"] if index else None)
            t.tricks.append(Trick(trick["leader"],
                                  tuple(Play(p["seat"], p["card"]) for p in plays),
                                  trick["winner"],
                                  sum(CARD_POINTS[p["card"]] for p in plays)))
        for index, play in enumerate(view["trick"]):
            t._observe(play["seat"], play["card"], view["trick"][0]["card"] if index else None)
            t.trick.append((play["seat"], play["card"]))
        t.leader = view["leader"]
        t.to_move = view["to_move"] if view["to_move"] is not None else me
        for seat_text, party in view["parties"].items():
            t.party[int(seat_text)] = RE if party == "re" else KONTRA
            t.shown[int(seat_text)] = True
        for item in view["announcements"]:
            seat, value = item["seat"], item["value"]
            t.announcements.append((seat, value))
            party = t.party[seat]
            if party is not None:
                t.levels[party] = max(t.levels[party], ANNOUNCE_LEVEL[value])
        t.known[me] = t._infer(me, t.party)
        return t

    def _observe(self, seat: int, card: str, lead: str | None) -> None:
        self.played[card] = self.played.get(card, 0) + 1
        if lead is None:
            suit = self.suit_of[card]
            self.led[suit] = self.led.get(suit, 0) + 1
        elif self.suit_of[card] != self.suit_of[lead]:
            self.void[seat].add(self.suit_of[lead])

    def _infer(self, me: int, parties: Sequence[int | None], contract: str | None = None,
               ) -> list[int | None]:
        """Complete what ``me`` knows of the parties: two Re in a normal game, two Kontra."""
        known = list(parties)
        contract = contract or self.contract
        if contract in ("normal", "wedding") and None in known:
            re = known.count(RE)
            kontra = known.count(KONTRA)
            if contract == "normal" and re == 2:
                known = [KONTRA if p is None else p for p in known]
            elif kontra == 2 and (contract == "normal" or self.clarified):
                known = [RE if p is None else p for p in known]
        return known

    def world(self, hands: Sequence[Sequence[str]]) -> Table:
        """A complete deal: this table with ``hands`` for every seat (the own hand unchanged).

        The parties and the true contract follow from the hands and the cards played (two
        queens of clubs in one hand of a public normal game: a silent solo).
        """
        w = self.copy()
        w.hands = [list(h) for h in hands]
        if self.contract == "normal":
            holders = [0, 0, 0, 0]
            for seat in range(4):
                holders[seat] += w.hands[seat].count(QC)
            for trick in self.tricks:
                for p in trick.plays:
                    if p.card == QC:
                        holders[p.seat] += 1
            for seat, card in self.trick:
                if card == QC:
                    holders[seat] += 1
            if 2 in holders:
                w.contract = "silent_solo"
                w.team = False
                w.declarer = holders.index(2)
                w.party = [RE if s == w.declarer else KONTRA for s in range(4)]
            else:
                w.party = [RE if holders[s] else KONTRA for s in range(4)]
        elif self.contract == "wedding" and not self.clarified:
            w.party = [RE if s == self.bride else None for s in range(4)]
        elif None in self.party:
            w.party = [p if p is not None else KONTRA for p in self.party]
        w.refresh_knowledge()
        return w

    def refresh_knowledge(self) -> None:
        """What each seat knows of the parties in a world: its own party, what was shown."""
        solo_shown = self.solo_shown()
        for seat in range(4):
            open_teams = self.contract not in ("normal", "silent_solo", "wedding") or (
                self.contract == "wedding" and self.clarified) or solo_shown
            if open_teams or (self.contract == "silent_solo" and seat == self.declarer):
                self.known[seat] = list(self.party)
            elif self.contract == "wedding":
                self.known[seat] = [RE if s == self.bride else None for s in range(4)]
            else:
                base: list[int | None] = [self.party[s] if self.shown[s] else None for s in range(4)]
                base[seat] = self.party[seat]
                self.known[seat] = self._infer(seat, base, "normal")

    def copy(self) -> Table:
        t = object.__new__(Table)
        t.rules = self.rules
        t.order = self.order
        t.suit_of = self.suit_of
        t.power = self.power
        t.contract = self.contract
        t.team = self.team
        t.declarer = self.declarer
        t.hands = [list(h) for h in self.hands]
        t.sizes = list(self.sizes)
        t.trick = list(self.trick)
        t.leader = self.leader
        t.to_move = self.to_move
        t.tricks = list(self.tricks)
        t.played = dict(self.played)
        t.led = dict(self.led)
        t.void = [set(v) for v in self.void]
        t.party = list(self.party)
        t.shown = list(self.shown)
        t.known = [list(k) for k in self.known]
        t.levels = list(self.levels)
        t.announcements = list(self.announcements)
        t.bride = self.bride
        t.clarified = self.clarified
        t.n_tricks = self.n_tricks
        t.kernel = self.kernel
        t.me = self.me
        return t

    # --- queries -----------------------------------------------------------------------------

    def solo_shown(self) -> bool:
        """Whether a silent solo is shown: its soloist played the second queen of clubs, and
        from then on everyone knows (as the engine's views have it)."""
        return self.contract == "silent_solo" and self.played.get(QC, 0) == 2

    def team_as_known(self, seat: int) -> bool:
        """Whether ``seat`` plays the deal as a team game as far as it knows: a silent solo
        looks like a normal game to the others until it is shown (:meth:`solo_shown`)."""
        return self.team or (self.contract == "silent_solo" and seat != self.declarer
                             and not self.solo_shown())

    def relation(self, me: int, other: int) -> int:
        """1: same party (or me), -1: the other party, 0: not known to ``me``."""
        if me == other:
            return 1
        mine, theirs = self.known[me][me], self.known[me][other]
        if mine is None or theirs is None:
            return 0
        return 1 if mine == theirs else -1

    def playable(self, seat: int) -> list[str]:
        """The distinct cards ``seat`` may play now (follow suit)."""
        return self.kernel.playable(self.hands[seat], self.trick)

    def beats(self, card: str, best: str, last: bool) -> bool:
        """Whether ``card`` played after ``best`` takes the trick from it."""
        return self.kernel.beats(card, best, last)

    def current_best(self) -> tuple[int, str] | None:
        """The play winning the current trick so far."""
        if not self.trick:
            return None
        return self.kernel.best(self.trick, len(self.tricks) == self.n_tricks - 1)

    # --- simulation --------------------------------------------------------------------------

    def play(self, seat: int, card: str) -> None:
        """Play ``card`` from ``seat`` (the caller chose a playable card)."""
        self.hands[seat].remove(card)
        self.sizes[seat] -= 1
        self._observe(seat, card, self.trick[0][1] if self.trick else None)
        self.trick.append((seat, card))
        if card == QC and (not self.shown[seat] or self.contract == "silent_solo"):
            self.shown[seat] = True
            if self.contract in ("normal", "silent_solo"):
                self.refresh_knowledge()
        if len(self.trick) < 4:
            self.to_move = (seat + 1) % 4
            return
        winner = self.kernel.winner(self.trick, len(self.tricks) == self.n_tricks - 1)
        points = sum(CARD_POINTS[c] for _, c in self.trick)
        lead = self.trick[0][1]
        self.tricks.append(Trick(self.leader, tuple(Play(s, c) for s, c in self.trick), winner, points))
        self.trick = []
        self.leader = self.to_move = winner
        if self.contract == "wedding" and not self.clarified:
            assert self.bride is not None
            decision = wedding_decision(self.rules, self.order, self.bride, lead,
                                        [trick.winner for trick in self.tricks])
            if decision == PARTNER:
                self.party = [RE if s in (self.bride, winner) else KONTRA for s in range(4)]
            elif decision == ALONE:
                self.party = [RE if s == self.bride else KONTRA for s in range(4)]
                self.team = False
            elif decision == CANCELLED:
                self.contract, self.n_tricks = "redeal", len(self.tricks)
            if decision is not None:
                self.clarified = True
                self.refresh_knowledge()

    def finished(self) -> bool:
        return len(self.tricks) == self.n_tricks

    def outcome_scores(self, levels: Sequence[int] | None = None) -> tuple[int, ...]:
        """The engine's scores of a finished world (optionally with other announcement levels)."""
        if self.contract == "redeal":
            return (0, 0, 0, 0)
        standing = Standing(self.rules, 0, ())  # a block of its own: set in place
        standing.contract = self.contract
        standing.declarer = self.declarer
        parties = [p if p is not None else KONTRA for p in self.party]
        standing.re_party = tuple(p == RE for p in parties)
        lv = self.levels if levels is None else levels
        standing.levels = (lv[RE], lv[KONTRA])
        standing.announcements = tuple(self.announcements)
        state = object.__new__(State)
        state.standing = standing
        state.tricks = tuple(self.tricks)
        if golden_coins(self.rules):  # Doublehead Kids
            from app.games.doublehead_kids.coins import round_coins

            return tuple(round_coins(state).per_seat)
        return score(state).scores


def golden_coins(rules: Rules) -> bool:
    """Whether ``rules`` score golden coins (Doublehead Kids' KidsRules) rather than game points."""
    return getattr(rules, "scoring", None) is not None


def normal_order(rules: Rules) -> CardOrder:
    """The card order of a normal game under ``rules``."""
    return card_order("normal", rules.nines)
