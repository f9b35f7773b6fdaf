"""Why a decision cost (app.analysis.reasons): the reasons quote the sampled deals' own figures,
in German and English; other sampled deals give other words; the curve of each deal is the
document's own values."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from app.analysis import reasons
from app.analysis.decisions import decisions_of
from app.analysis.estimators import estimator_for
from app.analysis.report import analyse, with_words
from app.analysis.statistics import summary
from app.i18n.actions import action_words
from app.scenario import load_file
from tests.analysis.test_analyse import BLUNDER, SMALL, THROWN_AWAY
from tests.conftest import ROOT, SCENARIOS


def quoted(why: dict) -> list[str]:
    """What the words of a reason must say, from its figures: the counts of deals it is about."""
    f = why["figures"]
    t, b, kind = f["taken"], f["best"], why["kind"]
    if kind == "trick":
        return [f"in {t['trick']['of'] - t['trick']['won']} of {t['trick']['of']}",
                f"in {b['trick']['won']} of {b['trick']['of']}"]
    if kind == "win":
        return [f"in {b['won']} of {b['n']}", f"in {t['won']}"]
    if kind == "announce":
        side = t if t["gain"] is not None else b
        return [f"({side['won']} of {side['n']})"]
    if kind == "bid":
        return [f"of {t['n']})"]
    if kind == "paired":
        return [f"same {f['paired']['n']} sampled deals", f"in {f['paired']['better']} and worse in {f['paired']['worse']}"]
    if kind == "hand":
        return [f"over {min(t['n'], b['n'])} sampled deals"]
    return [f"{round(b['points'])} card points"]


@pytest.fixture(scope="module")
def documents():
    """Analyses of a deal of each game (small, reproducible by seed)."""
    cases = [("analysis/thrown_away.json", 0), ("doublehead_kids/advanced_lone_doubled.json", 1),
             ("doppelganger_tricks/shared_example.json", 1), ("doppio/deck_runs_out.json", 0)]
    return [analyse(load_file(str(SCENARIOS / path)), seat, seed=1, budget_ms=60_000, worlds=12)
            for path, seat in cases]


def test_every_costly_decision_has_a_reason_that_quotes_its_figures(documents):
    reasoned = 0
    for doc in documents:
        for lang in ("en", "de"):
            worded = with_words(doc, lang)
            for entry in worded["decisions"]:
                costly = entry["analysed"] and entry["cost"] > doc["tolerance"]
                assert ("why" in entry) == costly, (doc["game"], entry["index"])
                if not costly:
                    continue
                why = entry["why"]
                assert why["kind"] in reasons.WRITERS and why["lang"] == lang
                text = why["text"]
                assert len(text) > 30 and text == text.strip()
                if lang == "en":
                    for part in quoted(why):
                        assert part in text, (doc["game"], why["kind"], part, text)
                    reasoned += 1
                # the figures are the estimator's: the best action's mean is its value
                figures = why["figures"]
                assert figures["best"]["mean"] == pytest.approx(entry["values"][entry["best"]], abs=0.01)
                assert figures["taken"]["mean"] == pytest.approx(entry["values"][entry["taken"]], abs=0.01)
    assert reasoned >= 8


def test_the_reasons_read_in_the_readers_language(documents):
    doc = documents[0]
    english = with_words(doc, "en")["decisions"]
    german = with_words(doc, "de")["decisions"]
    pairs = [(e["why"]["text"], g["why"]["text"]) for e, g in zip(english, german, strict=True) if "why" in e]
    assert pairs
    for en, de in pairs:
        assert en != de
        assert "sampled deals" in en and "gezogene" in de and "sampled" not in de


def test_other_sampled_deals_give_other_words():
    """The blunder of thrown_away.json valued over two sets of sampled deals: each reason
    quotes the counts of its own deals, so the words differ."""
    scenario = load_file(str(THROWN_AWAY))
    decision = next(d for d in decisions_of(scenario, 0) if (d.round, d.index) == BLUNDER)
    estimator = estimator_for("doppelkopf")
    texts = []
    for seed in (3, 11):
        found = estimator.estimate(decision.view, scenario.rules, budget_ms=60_000, worlds=10 + seed,
                                   rng=random.Random(seed))
        best = max(found.values, key=found.values.get)
        taken = "play:KD"
        why = reasons.reason("doppelkopf", "play", decision.action, {"type": "play", "card": best[5:]},
                             found.facts[taken], found.facts[best], lower_is_better=False)
        deals = found.facts[best]
        assert why["figures"]["best"]["n"] == len(deals) == 10 + seed
        assert why["figures"]["best"]["won"] == sum(1 for f in deals if f["score"] > 0)
        assert why["figures"]["taken"]["won"] == sum(1 for f in found.facts[taken] if f["score"] > 0)
        text = reasons.words(why, game="doppelkopf", unit="game points", lang="en",
                             taken=decision.action, best={"type": "play", "card": best[5:]})
        for part in quoted(why):
            assert part in text
        texts.append(text)
    assert texts[0] != texts[1]


def test_a_reason_follows_its_figures_not_a_fixed_phrase():
    """The same two actions, other outcomes in the sampled deals: other words."""
    def deals(won: int, n: int, score: float) -> list[dict]:
        return [{"w": 1.0, "score": score if i < won else -score, "won": i < won, "points": 130,
                 "trick": None, "trick_points": None} for i in range(n)]

    taken, best = {"type": "play", "card": "KD"}, {"type": "play", "card": "KC"}
    first = reasons.reason("doppelkopf", "play", taken, best, deals(3, 20, 4), deals(17, 20, 4),
                           lower_is_better=False)
    second = reasons.reason("doppelkopf", "play", taken, best, deals(9, 20, 4), deals(15, 20, 4),
                            lower_is_better=False)
    assert first["kind"] == second["kind"] == "win"
    words = [reasons.words(why, game="doppelkopf", unit="game points", lang="en", taken=taken,
                           best=best) for why in (first, second)]
    assert "in 17 of 20 sampled deals, with King of diamonds in 3" in words[0]
    assert "in 15 of 20 sampled deals, with King of diamonds in 9" in words[1]
    assert summary(deals(3, 20, 4))["mean"] == pytest.approx((3 * 4 - 17 * 4) / 20)


def test_each_deals_curve_is_the_expected_score_after_each_decision(documents):
    for doc in documents:
        for summary_ in doc["rounds"]:
            own = [e for e in doc["decisions"] if e["round"] == summary_["round"] and e["analysed"]]
            assert [point["index"] for point in summary_["curve"]] == [e["index"] for e in own]
            assert [point["value"] for point in summary_["curve"]] == [e["values"][e["taken"]] for e in own]
            assert [point["costly"] for point in summary_["curve"]] == [e["cost"] > doc["tolerance"] for e in own]


def test_command_line_writes_the_reasons_in_the_language_asked():
    runs = {}
    for lang in ("de", "en"):
        run = subprocess.run(
            [sys.executable, "-m", "app", "analyse", str(THROWN_AWAY), "--seat", "0", "--seed", "1",
             "--worlds", str(SMALL["worlds"]), "--budget-ms", str(SMALL["budget_ms"]), "--quiet",
             "--lang", lang], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
        assert run.returncode == 0, run.stderr
        runs[lang] = json.loads(run.stdout)
    blunder = {lang: next(e for e in doc["decisions"] if (e["round"], e["index"]) == BLUNDER)
               for lang, doc in runs.items()}
    assert blunder["en"]["why"]["figures"] == blunder["de"]["why"]["figures"]
    assert action_words("doppelkopf", {"type": "play", "card": "KC"}) in blunder["en"]["why"]["text"]
    assert "Kreuz-König" in blunder["de"]["why"]["text"]
