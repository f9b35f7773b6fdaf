"""The scenario descriptions read by build.py (see its docstring for the fields)."""

SPECS: list[dict] = []


def scen(name: str, what: str, math: str, **kw) -> None:
    SPECS.append({"name": name, "what": what, "math": math, **kw})


def exp(name: str, math: str, winner: str | None, lines: list, rnd: int | None = None, **checks) -> None:
    """The hand-written expectation of scenario ``name`` (round ``rnd`` of a multi-round one).

    lines: (reason, party, points earned by that party); checks: re/kontra card points and
    tricks_re as counted by hand, checked against build.py's own tally.
    """
    spec = next(s for s in SPECS if s["name"] == name)
    target = spec if rnd is None else spec["rounds"][rnd]
    target["expect"] = {"winner": winner, "lines": lines, **checks}
    spec["math"] = math if rnd is None or spec["math"] == "?" else spec["math"] + "; " + math


NORMAL = {0: ["QC"], 2: ["QC"]}

scen("normal_plain", "normal game, no announcements", "?",
     fixed=NORMAL, seed=1)

TOP11 = ["TH", "TH", "QC", "QS", "QS", "QH", "QH", "QD", "QD", "JC", "JC"]

scen("re_black_announced", "Re announces Black at once and takes every trick", "?",
     fixed={0: TOP11 + ["JS"], 2: ["QC"]}, seed=2, ann=[(0, "black", 12)])
scen("against_all_four", "Re announces Black, Kontra takes 173: all four against lines", "?",
     fixed=NORMAL, seed=1, ann=[(0, "black", 12)])
scen("zero_point_trick_not_black", "Kontra's only trick is four nines: 0 card points but not black", "?",
     dealer=0,
     hands=[["9C", *TOP11],
            ["9H", "AH", "AH", "KH", "KH", "AS", "AS", "TS", "TS", "KS", "KS", "9S"],
            ["9H", "QC", "AC", "AC", "TC", "TC", "KC", "KC", "9C", "JS", "JS", "JH"],
            ["9S", "JH", "JD", "JD", "AD", "AD", "TD", "TD", "KD", "KD", "9D", "9D"]])
scen("two_foxes_one_trick", "both AD of Kontra fall in one Re trick: fox_caught twice", "?",
     fixed={0: ["TH", "QC"], 2: ["QC"], 1: ["AD"], 3: ["AD"]}, seed=0,
     over={(0, 0): "TH", (0, 1): "AD", (0, 3): "AD"})
scen("own_fox_no_point", "Re's own AD in a Re trick earns nothing", "?",
     fixed={0: ["TH", "QC"], 2: ["AD", "QC"]}, seed=4, over={(0, 0): "TH", (0, 2): "AD"})
scen("charlie", "JC wins the last trick", "?",
     fixed=NORMAL, tail={0: ["JC"]}, seed=7)
scen("charlie_beaten", "JC played in the last trick but beaten: no Charlie", "?",
     fixed=NORMAL, tail={0: ["JC"], 1: ["QS"]}, seed=6)
scen("charlie_caught_off", "ddv: beating Re's JC in the last trick earns nothing", "?",
     fixed=NORMAL, tail={0: ["JC"], 1: ["QS"]}, seed=8)
scen("charlie_caught_on", "charlie_caught: beating Re's JC in the last trick +1", "?",
     rules={"preset": "ddv", "charlie_caught": True},
     fixed=NORMAL, tail={0: ["JC"], 1: ["QS"]}, seed=8)

# --- expectations, counted by hand from the `show` trick tables --------------------------------
W, RE, KO = "won", "re", "kontra"

exp("normal_plain", "Re 67 K 173: K wins 1, Re<90 +1, elders +1; Re caught fox t1 -1 => K 2",
    KO, [(W, KO, 1), ("no90", KO, 1), ("against_the_elders", KO, 1), ("fox_caught", RE, 1)],
    re=67, kontra=173)
exp("re_black_announced", "Re 240/12 tricks, own Black made: won+no90+no60+no30+black 5, Re 2, "
    "No90..Black 4, two foxes 2 => Re 13", RE,
    [(W, RE, 1), ("no90", RE, 1), ("no60", RE, 1), ("no30", RE, 1), ("black", RE, 1),
     ("announced_re", RE, 2), ("announced_no90", RE, 1), ("announced_no60", RE, 1),
     ("announced_no30", RE, 1), ("announced_black", RE, 1), ("fox_caught", RE, 1),
     ("fox_caught", RE, 1)], re=240, tricks_re=12)
exp("against_all_four", "Re 67 K 173; Re's Black fails, K needs one trick: won 1, Re<90 1, "
    "Re 2, No90..Black 4, against 120/90/60/30 4, elders 1, Re fox -1 => K 12", KO,
    [(W, KO, 1), ("no90", KO, 1), ("announced_re", KO, 2), ("announced_no90", KO, 1),
     ("announced_no60", KO, 1), ("announced_no30", KO, 1), ("announced_black", KO, 1),
     ("against_no90", KO, 1), ("against_no60", KO, 1), ("against_no30", KO, 1),
     ("against_black", KO, 1), ("against_the_elders", KO, 1), ("fox_caught", RE, 1)],
    re=67, kontra=173)
exp("zero_point_trick_not_black", "K has 0 points but 1 trick (four nines): Re won 1, "
    "no90/60/30 3, not black; 2 foxes, Charlie => Re 7", RE,
    [(W, RE, 1), ("no90", RE, 1), ("no60", RE, 1), ("no30", RE, 1), ("fox_caught", RE, 1),
     ("fox_caught", RE, 1), ("charlie", RE, 1)], re=240, kontra=0, tricks_re=11)
exp("two_foxes_one_trick", "Re 122: won 1 + fox 1 + fox 1 (both in trick 1) => Re 3", RE,
    [(W, RE, 1), ("fox_caught", RE, 1), ("fox_caught", RE, 1)], re=122)
exp("own_fox_no_point", "Re 170 K 70; Re's AD in Re tricks t1, t9 count nothing: won 1, K<90 1, "
    "Doppelkopf t12 (40) 1 => Re 3", RE,
    [(W, RE, 1), ("no90", RE, 1), ("doppelkopf", RE, 1)], re=170)
exp("charlie", "Re 203 K 37: won 1, no90 1, no60 1; fox Re 1, fox K -1; JC wins t12 +1 => Re 4",
    RE, [(W, RE, 1), ("no90", RE, 1), ("no60", RE, 1), ("fox_caught", RE, 1),
         ("fox_caught", KO, 1), ("charlie", RE, 1)], re=203)
exp("charlie_beaten", "Re 131: won 1; JC of seat 0 beaten by QS in t12: no Charlie; own foxes "
    "only => Re 1", RE, [(W, RE, 1)], re=131)
exp("charlie_caught_off", "Re 168 K 72: won 1, no90 1, 2 foxes => Re 4 (QS beats JC: nothing in ddv)",
    RE, [(W, RE, 1), ("no90", RE, 1), ("fox_caught", RE, 1), ("fox_caught", RE, 1)], re=168)
exp("charlie_caught_on", "as charlie_caught_off plus K charlie_caught 1 => Re 3", RE,
    [(W, RE, 1), ("no90", RE, 1), ("fox_caught", RE, 1), ("fox_caught", RE, 1),
     ("charlie_caught", KO, 1)], re=168)


# --- announcement deadlines, replies, skipped steps -------------------------------------------
def refused(name, what, why, **kw):
    """A scenario whose last action must be refused with ``why`` (math: the deadline read)."""
    scen(name, what, "refused: " + why, why=why, **kw)


LADDER = ["re", "no90", "no60", "no30", "black"]
for nines, size in ((True, 12), (False, 10)):
    tag = "" if nines else "_nonines"
    rules = {"preset": "ddv"} if nines else {"preset": "ddv", "nines": False}
    scen(f"deadlines_last_legal{tag}",
         f"{size} cards: Re at {size - 1}, No 90 at {size - 2} ... Black at {size - 5} cards: all on time",
         "?", rules=rules, fixed=NORMAL, seed=11,
         ann=[(0, value, size - 1 - i) for i, value in enumerate(LADDER)])
    for i, value in enumerate(LADDER):
        late = size - 2 - i
        refused(f"deadline_{value}_late{tag}",
                f"{value} with {late} cards is one card too late ({size} cards dealt)",
                f"too late to announce {value}: it needs at least {late + 1} cards in hand",
                rules=rules, fixed=NORMAL, seed=11,
                ann=[(0, v, size - 1 - j) for j, v in enumerate(LADDER[:i])] + [(0, value, late, "refused")])

scen("reply_kontra_one_card_later", "Re at 11, Kontra replies with 10 cards (one fewer): allowed",
     "?", fixed=NORMAL, seed=12, ann=[(0, "re", 11), (1, "kontra", 10)])
refused("reply_kontra_too_late", "Kontra with 9 cards after Re: the reply window (10) is past",
        "too late to announce kontra: it needs at least 11 cards in hand (10 as a reply)",
        fixed=NORMAL, seed=12, ann=[(0, "re", 11), (1, "kontra", 9, "refused")])
scen("reply_after_no90", "Re+No 90 at once; Kontra replies with 9 cards (No 90 needed 10)",
     "?", fixed=NORMAL, seed=12, ann=[(0, "no90", 12), (1, "kontra", 9)])
refused("late_reply_no_further", "after its late Kontra (10 cards) the Kontra party may not say "
        "No 90, although 10 cards would be on time for a No 90",
        "your party's late reply allows no further announcement",
        fixed=NORMAL, seed=12, ann=[(0, "re", 11), (1, "kontra", 10), (1, "no90", 10, "refused")])
scen("skip_to_no60", "a silent party says No 60 at once: counts Re, No 90 and No 60", "?",
     fixed=NORMAL, seed=13, ann=[(2, "no60", 12)])
refused("skip_refused_no90_late", "Re made; No 60 with 9 cards skips No 90, which needs 10: refused",
        "too late to announce no60: it needs at least 10 cards in hand",
        fixed=NORMAL, seed=13, ann=[(2, "re", 12), (2, "no60", 9, "refused")])
refused("skip_refused_re_late", "No 90 with 10 cards by a silent party skips Re (needs 11): refused",
        "too late to announce no90: it needs at least 11 cards in hand",
        fixed=NORMAL, seed=13, ann=[(2, "no90", 10, "refused")])
refused("second_kontra_refused", "both Kontra players say Kontra: the second is refused",
        "your party has announced kontra already",
        fixed=NORMAL, seed=13, ann=[(1, "kontra", 12), (3, "kontra", 12, "refused")])
refused("re_by_kontra_player_refused", "a Kontra player may not say Re",
        "you are not in the re party",
        fixed=NORMAL, seed=13, ann=[(1, "re", 12, "refused")])

exp("deadlines_last_legal", "Re 56 K 184; Re's Black fails, K needs 1 trick: won 1, no90 1, no60 1, "
    "Re 2, No90..Black 4, against x4, elders 1, fox K 1, Doppelkopf t11 (41) K 1 => K 16", KO,
    [(W, KO, 1), ("no90", KO, 1), ("no60", KO, 1), ("announced_re", KO, 2),
     ("announced_no90", KO, 1), ("announced_no60", KO, 1), ("announced_no30", KO, 1),
     ("announced_black", KO, 1), ("against_no90", KO, 1), ("against_no60", KO, 1),
     ("against_no30", KO, 1), ("against_black", KO, 1), ("against_the_elders", KO, 1),
     ("fox_caught", KO, 1), ("doppelkopf", KO, 1)], re=56, kontra=184)
exp("deadlines_last_legal_nonines", "Re 101 K 139 (10 tricks): won 1, Re 2, No90..Black 4, "
    "against x4, elders 1, Re's fox t1 -1 => K 11", KO,
    [(W, KO, 1), ("announced_re", KO, 2), ("announced_no90", KO, 1), ("announced_no60", KO, 1),
     ("announced_no30", KO, 1), ("announced_black", KO, 1), ("against_no90", KO, 1),
     ("against_no60", KO, 1), ("against_no30", KO, 1), ("against_black", KO, 1),
     ("against_the_elders", KO, 1), ("fox_caught", RE, 1)], re=101, kontra=139)
exp("reply_kontra_one_card_later", "Re 101 K 139, Re and Kontra: K wins 1 + Re 2 + Kontra 2 + "
    "elders 1 + fox t5 1 => K 7", KO,
    [(W, KO, 1), ("announced_re", KO, 2), ("announced_kontra", KO, 2),
     ("against_the_elders", KO, 1), ("fox_caught", KO, 1)], re=101)
exp("reply_after_no90", "Re's No 90 fails (101<151); K target 90: won 1, Re 2, Kontra 2, No90 1, "
    "120 against No 90 1, elders 1, fox 1 => K 9", KO,
    [(W, KO, 1), ("announced_re", KO, 2), ("announced_kontra", KO, 2), ("announced_no90", KO, 1),
     ("against_no90", KO, 1), ("against_the_elders", KO, 1), ("fox_caught", KO, 1)], re=101)
exp("skip_to_no60", "Re 150 misses 181; K 90 reaches its lowered 60: won 1, Re 2, No90 1, No60 1, "
    "90 against No 60 1, elders 1, Re fox -1 => K 6", KO,
    [(W, KO, 1), ("announced_re", KO, 2), ("announced_no90", KO, 1), ("announced_no60", KO, 1),
     ("against_no60", KO, 1), ("against_the_elders", KO, 1), ("fox_caught", RE, 1)],
    re=150, kontra=90)


# --- contracts ---------------------------------------------------------------------------------
WED = ["wedding", "healthy", "healthy", "healthy"]
scen("wedding_partner_trick1", "wedding: another player wins trick 1 and becomes the partner", "?",
     tail={0: ["QC", "QC"]}, seed=0, decl=WED)
scen("wedding_partner_trick2", "wedding: bride wins trick 1, seat X wins trick 2; Re with 10 cards ok",
     "?", fixed={0: ["QC", "QC"]}, seed=8, decl=WED, ann=[(0, "re", 10)])
refused("wedding_trick2_re_late", "wedding clarified in trick 2: Re with 9 cards is too late",
        "too late to announce re: it needs at least 10 cards in hand",
        fixed={0: ["QC", "QC"]}, seed=8, decl=WED, ann=[(0, "re", 9, "refused")])
scen("wedding_partner_trick3", "wedding: bride wins tricks 1-2, another wins 3; Re with 9 cards ok",
     "?", fixed={0: ["QC", "QC"]}, seed=0, decl=WED, ann=[(0, "re", 9)])
refused("wedding_trick3_re_late", "wedding clarified in trick 3: Re with 8 cards is too late",
        "too late to announce re: it needs at least 9 cards in hand",
        fixed={0: ["QC", "QC"]}, seed=0, decl=WED, ann=[(0, "re", 8, "refused")])
refused("wedding_no_announcement_before_clarification", "no Kontra during the wedding's first trick",
        "no announcement before the wedding's clarification trick",
        fixed={0: ["QC", "QC"]}, seed=0, decl=WED, ann=[(1, "kontra", 12, "refused")])
scen("wedding_alone", "the bride wins tricks 1-3: alone, scored as a solo (contract stays wedding)",
     "?", fixed={0: ["TH", "TH", "QC", "QC"]}, seed=21, decl=WED)
scen("silent_solo", "both QC, all healthy: silent solo, one against three, x3, no special points",
     "?", fixed={0: ["QC", "QC"]}, seed=6)

POOR = ["JD", "9D", "KD", "AC", "AC", "TC", "KC", "9C", "AS", "TS", "KS", "AH"]
scen("poverty_accepted", "seat 1 poor (3 trumps), seat 2 declines, seat 3 accepts: Re = 1 + 3",
     "?", rules={"preset": "ddv", "poverty": True},
     fixed={1: POOR, 3: ["QC", "9H", "9H", "KH"]}, seed=23,
     decl=["healthy", "poverty", "healthy", "healthy"],
     poverty={"give": ["JD", "9D", "KD"], "answers": ["decline", "accept"], "ret": ["9H", "9H", "KH"]})

exp("wedding_partner_trick1", "partner seat 3 (won t1). Re 165 K 75: won 1, no90 1, fox t1 Re 1, "
    "fox t5 K -1, Doppelkopf t11 Re 1 => Re 3", RE,
    [(W, RE, 1), ("no90", RE, 1), ("fox_caught", RE, 1), ("fox_caught", KO, 1),
     ("doppelkopf", RE, 1)], re=165)
exp("wedding_partner_trick2", "partner seat 3 (t2); Re 69 K 171: K won 1, no90 1, Re 2, elders 1, "
    "Doppelkopf t12 1; Re foxes t2, t5 -2 => K 4", KO,
    [(W, KO, 1), ("no90", KO, 1), ("announced_re", KO, 2), ("against_the_elders", KO, 1),
     ("doppelkopf", KO, 1), ("fox_caught", RE, 1), ("fox_caught", RE, 1)], re=69)
exp("wedding_partner_trick3", "partner seat 3 (t3); Re 229 K 11 (1 trick): won 1, no90/60/30 3, "
    "Re 2, fox t1 1 => Re 7", RE,
    [(W, RE, 1), ("no90", RE, 1), ("no60", RE, 1), ("no30", RE, 1), ("announced_re", RE, 2),
     ("fox_caught", RE, 1)], re=229, tricks_re=11)
exp("wedding_alone", "bride alone, Re 90 K 150: K won 1 (no specials in a solo) => bride -3, others +1",
    KO, [(W, KO, 1)], re=90)
exp("silent_solo", "Re 126 K 114: soloist won 1 => +3 / -1 each (foxes t3/t4 count nothing)", RE,
    [(W, RE, 1)], re=126)
exp("poverty_accepted", "Re (1, 3) 88 K 152: K won 1, no90 1, elders 1 => K 3", KO,
    [(W, KO, 1), ("no90", KO, 1), ("against_the_elders", KO, 1)], re=88)

SOLO_NAMES = ["clubs", "spades", "hearts", "diamonds", "queens", "jacks", "fleshless"]
for i, solo in enumerate(SOLO_NAMES):
    scen(f"solo_{solo}", f"seat 0 plays a {solo} solo (ddv)", "?", seed=30 + i,
         decl=[f"solo_{solo}", "healthy", "healthy", "healthy"])
for i, solo in enumerate(["kings", "queens_jacks", "kings_queens", "kings_jacks", "kings_queens_jacks"]):
    scen(f"solo_{solo}", f"extra solo {solo} (extra_solos true), seat 2 declares", "?", seed=40 + i,
         rules={"preset": "ddv", "extra_solos": True},
         decl=["healthy", "healthy", f"solo_{solo}", "healthy"])
scen("solo_pure_clubs_pub", "gametwist_pub: seat 1 pure clubs solo, leads, No 90 made at once", "?",
     rules={"preset": "gametwist_pub"}, seed=50, decl=["healthy", "solo_pure_clubs", "healthy", "healthy"])
scen("solo_precedence", "seat 0 wedding, seat 2 solo: the solo is played (solo beats wedding)", "?",
     fixed={0: ["QC", "QC"]}, seed=51, decl=["wedding", "healthy", "solo_jacks", "healthy"])
refused("solo_not_offered", "rules offer only the clubs solo: a queens solo is refused",
        "'solo_queens' is not a reservation of these rules",
        rules={"preset": "ddv", "solos": ["clubs"]}, seed=52,
        decl=[("solo_queens", "refused"), "healthy", "healthy", "healthy"])
scen("poverty_declined", "a poverty nobody takes: redeal, scores 0; the next deal is played", "?",
     rules={"preset": "ddv", "poverty": True},
     rounds=[dict(fixed={1: POOR}, seed=53, decl=["healthy", "poverty", "healthy", "healthy"],
                  poverty={"give": ["JD", "9D", "KD"], "answers": ["decline"] * 3}),
             dict(fixed=NORMAL, seed=54)])

for name, re_pts, under in (("clubs", 68, 1), ("spades", 69, 1), ("hearts", 66, 1),
                            ("diamonds", 70, 1), ("queens", 114, 0), ("jacks", 7, 3),
                            ("fleshless", 19, 3), ("kings", 91, 0), ("queens_jacks", 115, 0),
                            ("kings_queens", 22, 3), ("kings_jacks", 32, 2),
                            ("kings_queens_jacks", 43, 2)):
    lines = [(W, KO, 1)] + [(r, KO, 1) for r in ("no90", "no60", "no30")[:under]]
    exp(f"solo_{name}", f"soloist {re_pts} (misses 121): K won 1"
        + (f" + {under} under-lines (<90/60/30)" if under else "") + f" => soloist -{3 * (1 + under)}",
        KO, lines, re=re_pts)
exp("solo_pure_clubs_pub", "soloist (No 90 made at once: Re 2 + No 90 1) 30 misses 151; K 210 "
    "reaches 90: won 1, no90 1, no60 1 (30 is not <30), 120 against No 90 1 => K 7, soloist -21",
    KO, [(W, KO, 1), ("no90", KO, 1), ("no60", KO, 1), ("announced_re", KO, 2),
         ("announced_no90", KO, 1), ("against_no90", KO, 1)], re=30, kontra=210)
exp("solo_precedence", "jacks solo of seat 2 wins over seat 0's wedding; soloist 18 (1 trick): "
    "won 1 + no90/60/30 3 => -12", KO,
    [(W, KO, 1), ("no90", KO, 1), ("no60", KO, 1), ("no30", KO, 1)], re=18, tricks_re=1)
exp("poverty_declined", "round 2: Re 175 K 65: won 1, no90 1, two foxes t5 2 => Re 4", RE,
    [(W, RE, 1), ("no90", RE, 1), ("fox_caught", RE, 1), ("fox_caught", RE, 1)], rnd=1, re=175)
SPECS[-1]["math"] = "round 1: all decline, redeal, 0 each; " + SPECS[-1]["math"]


# --- 120:120, sign flips, options --------------------------------------------------------------
scen("tie_120_none", "120:120 without announcements: Kontra wins 2 (won + against the elders)", "?",
     fixed=NORMAL, seed=60, play="random:140")
scen("flip_sign", "Re wins 1 but Kontra's special points are more: Re ends paying", "?",
     fixed={0: ["QC", "AD"], 2: ["QC", "AD"]}, seed=61, play="random:12")
TIE = dict(fixed=NORMAL, seed=60, play="random:140")
scen("tie_120_re", "120:120 with Re announced: Re needs 121, Kontra wins", "?", ann=[(0, "re", 12)], **TIE)
scen("tie_120_kontra", "120:120 with only Kontra announced: Re wins with 120", "?",
     ann=[(1, "kontra", 12)], **TIE)
scen("tie_120_both", "120:120 with Re and Kontra: Kontra wins", "?",
     ann=[(0, "re", 12), (1, "kontra", 12)], **TIE)
scen("flip_sign_no_back_door", "no_back_door: the same game, the winner Re pays nothing", "?",
     rules={"preset": "ddv", "no_back_door": True},
     fixed={0: ["QC", "AD"], 2: ["QC", "AD"]}, seed=61, play="random:12")

DULLE = dict(fixed={0: ["QC", "TH"], 1: ["TH"], 2: ["QC"]}, seed=62,
             over={(0, 0): "TH", (0, 1): "TH"})
scen("dulle_first_wins", "ddv: of two TH in one trick the first wins (seat 0 takes trick 1)", "?", **DULLE)
scen("dulle_second_beats_first", "heart_ten_second_beats_first: seat 1's second TH takes trick 1", "?",
     rules={"preset": "ddv", "heart_ten_second_beats_first": True}, **DULLE)
DULLE_LAST = dict(fixed=NORMAL, tail={0: ["TH"], 1: ["TH"]}, seed=39)
scen("dulle_last_trick_first_wins", "second TH beats first, but not in the last trick (default)", "?",
     rules={"preset": "ddv", "heart_ten_second_beats_first": True}, **DULLE_LAST)
scen("dulle_last_trick_second_wins", "heart_ten_first_wins_last_trick false: second TH wins the last trick",
     "?", rules={"preset": "ddv", "heart_ten_second_beats_first": True,
                 "heart_ten_first_wins_last_trick": False}, **DULLE_LAST)
SWINE = dict(fixed={0: ["AD", "AD", "QC"], 1: ["TH"], 2: ["QC"]}, seed=64,
             over={(0, 0): "AD", (0, 1): "TH"})
scen("swines_off", "ddv: AD led, TH beats it", "?", **SWINE)
scen("swines_on", "swines: seat 0 holds both AD, which beat TH", "?",
     rules={"preset": "ddv", "swines": True}, **SWINE)
POOR_AD = ["AD", "JD", "9D", "AC", "AC", "TC", "KC", "9C", "AS", "TS", "KS", "AH"]
scen("poverty_single_fox_no_swine", "poverty with swines on: the poor player's single AD (given to the "
     "taker) is no swine: it ranks below the jacks", "?",
     rules={"preset": "ddv", "poverty": True, "swines": True},
     fixed={1: POOR_AD, 3: ["QC", "9H", "9H", "KH", "JH"], 2: ["AD"]}, seed=65,
     decl=["healthy", "poverty", "healthy", "healthy"],
     poverty={"give": ["AD", "JD", "9D"], "answers": ["decline", "accept"], "ret": ["9H", "9H", "KH"]},
     over={(0, 0): "9D"} if False else {})
scen("wedding_first_non_trump", "wedding_clarification first_non_trump: trick 1 (trump led) does not "
     "count; the bride wins tricks 2-3 and plays alone", "?",
     rules={"preset": "ddv", "wedding_clarification": "first_non_trump"},
     tail={0: ["QC", "QC"]}, seed=0, decl=WED)
scen("solo_leads_soloist", "solo_leads soloist: seat 2's queens solo is led by seat 2", "?",
     rules={"preset": "ddv", "solo_leads": "soloist"}, seed=66,
     decl=["healthy", "healthy", "solo_queens", "healthy"])
scen("throw_in", "throw_in: five nines, thrown in: redeal, 0 each", "redeal on request: scores 0, no details",
     rules={"preset": "ddv", "throw_in": True},
     rounds=[dict(fixed={0: ["9C", "9C", "9S", "9S", "9H"]}, seed=67,
                  decl=["throw_in", "healthy", "healthy", "healthy"])])
refused("announcements_off", "announcements false: Re is refused", "these rules have no announcements",
        rules={"preset": "ddv", "announcements": False}, fixed=NORMAL, seed=1,
        ann=[(0, "re", 12, "refused")])
refused("wedding_off", "wedding false: the wedding reservation is refused",
        "'wedding' is not a reservation of these rules",
        rules={"preset": "ddv", "wedding": False}, fixed={0: ["QC", "QC"]}, seed=6,
        decl=[("wedding", "refused"), "healthy", "healthy", "healthy"])
scen("match_of_one_deal", "deals 1: the match is over after one deal; Kontra seats 1, 3 lead", "?",
     rules={"preset": "ddv", "deals": 1}, fixed=NORMAL, seed=1, game_over=True, winners=[1, 3])
scen("re_kontra_doubles", "re_kontra_doubles: Re and Kontra each double instead of +2", "?",
     rules={"preset": "ddv", "re_kontra_doubles": True}, fixed=NORMAL, seed=28,
     ann=[(0, "re", 12), (1, "kontra", 12)])

exp("tie_120_none", "120:120, nothing announced: K won 1 + elders 1, fox t9 K 1 => K 3", KO,
    [(W, KO, 1), ("against_the_elders", KO, 1), ("fox_caught", KO, 1)], re=120, kontra=120)
exp("tie_120_re", "120:120, Re announced (needs 121): K won 1, Re 2, elders 1, fox 1 => K 5", KO,
    [(W, KO, 1), ("announced_re", KO, 2), ("against_the_elders", KO, 1), ("fox_caught", KO, 1)],
    re=120)
exp("tie_120_kontra", "120:120, only Kontra: Re wins with 120: won 1, Kontra 2, K fox -1 => Re 2", RE,
    [(W, RE, 1), ("announced_kontra", RE, 2), ("fox_caught", KO, 1)], re=120)
exp("tie_120_both", "120:120, Re and Kontra: K won 1, Re 2, Kontra 2, elders 1, fox 1 => K 7", KO,
    [(W, KO, 1), ("announced_re", KO, 2), ("announced_kontra", KO, 2),
     ("against_the_elders", KO, 1), ("fox_caught", KO, 1)], re=120)
exp("flip_sign", "Re 134 wins 1, K caught both Re foxes (t7, t8) 2 => K ahead by 1: Re seats -1",
    RE, [(W, RE, 1), ("fox_caught", KO, 1), ("fox_caught", KO, 1)], re=134)
exp("flip_sign_no_back_door", "as flip_sign, but the winner may not end paying: net clamped to 0 "
    "(line no_back_door +1 for Re) => 0 each", RE,
    [(W, RE, 1), ("fox_caught", KO, 1), ("fox_caught", KO, 1), ("no_back_door", RE, 1)], re=134)
exp("dulle_first_wins", "Re 175 K 65: won 1, no90 1, fox t4 1 => Re 3", RE,
    [(W, RE, 1), ("no90", RE, 1), ("fox_caught", RE, 1)], re=175)
exp("dulle_second_beats_first", "seat 1 takes trick 1 (23): Re 152 K 88: won 1, no90 1, fox t6 1 "
    "=> Re 3 (card points differ from dulle_first_wins)", RE,
    [(W, RE, 1), ("no90", RE, 1), ("fox_caught", RE, 1)], re=152)
exp("dulle_last_trick_first_wins", "t12 TH(0) TH(1): first wins in the last trick: Re 135: won 1, "
    "fox t1 Re 1, fox t6 K -1, Doppelkopf t12 Re 1 => Re 2", RE,
    [(W, RE, 1), ("fox_caught", RE, 1), ("fox_caught", KO, 1), ("doppelkopf", RE, 1)], re=135)
exp("dulle_last_trick_second_wins", "t12 goes to seat 1: Re 95 K 145: K won 1, elders 1, fox t6 1, "
    "Doppelkopf t12 1, Re fox t1 -1 => K 3", KO,
    [(W, KO, 1), ("against_the_elders", KO, 1), ("fox_caught", KO, 1), ("doppelkopf", KO, 1),
     ("fox_caught", RE, 1)], re=95)
exp("swines_off", "TH beats the led AD (fox caught by K): Re 167 K 73: won 1, no90 1, "
    "Doppelkopf t4 (42) 1, fox -1 => Re 2", RE,
    [(W, RE, 1), ("no90", RE, 1), ("doppelkopf", RE, 1), ("fox_caught", KO, 1)], re=167)
exp("swines_on", "the swine AD beats TH: Re 206 K 34: won 1, no90 1, no60 1 => Re 3", RE,
    [(W, RE, 1), ("no90", RE, 1), ("no60", RE, 1)], re=206)
exp("poverty_single_fox_no_swine", "AD (seat 2) loses to QC t1, AD (seat 3) to QS t10: Re (1,3) 74 "
    "K 166: K won 1, no90 1, elders 1, fox t10 1, Re fox t1 -1 => K 3", KO,
    [(W, KO, 1), ("no90", KO, 1), ("against_the_elders", KO, 1), ("fox_caught", KO, 1),
     ("fox_caught", RE, 1)], re=74)
exp("wedding_first_non_trump", "no qualifying trick won by another in 1-3: bride alone, 84 vs 156: "
    "K won 1, no90 1 => bride -6", KO, [(W, KO, 1), ("no90", KO, 1)], re=84, contract="wedding")
exp("solo_leads_soloist", "soloist 0 points, 0 tricks: K won 1, no90/60/30 3, black 1 => -15", KO,
    [(W, KO, 1), ("no90", KO, 1), ("no60", KO, 1), ("no30", KO, 1), ("black", KO, 1)],
    re=0, tricks_re=0)
exp("match_of_one_deal", "as normal_plain: K 2; deals 1 => game over, winners seats 1 and 3", KO,
    [(W, KO, 1), ("no90", KO, 1), ("against_the_elders", KO, 1), ("fox_caught", RE, 1)], re=67)
exp("re_kontra_doubles", "Re 150 K 90, Re and Kontra: won 1, doubled by Re (+1) and by Kontra (+2) "
    "=> Re 4 (ddv would give 5)", RE,
    [(W, RE, 1), ("announced_re", RE, 1), ("announced_kontra", RE, 2)], re=150)
