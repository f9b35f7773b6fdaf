// The post-game analysis on the replay page (docs/analysis.md): a player asks for the analysis
// of their own seat, sees its progress (and the first deal's result as soon as it is there),
// then the accuracy per deal and match, the deal's curve (static/js/curve.js: the expected
// score after each decision, costly moments marked; a click goes there), what was analysed,
// and the costliest decisions with why they cost ("Trick 7: Ace of hearts cost about 1.2 game
// points; King of clubs was better here." and the reason from the sampled deals, written by
// the server in the page's language). A costly decision is also marked on the table (the same
// table view, opts.mark) at the moment it was made and right after; clicking a listed decision
// goes there. Only the person who played the seat sees its analysis (the API says so too).
import {t} from "./i18n.js";
import {actionWords, roundName} from "./words.js";
import {el} from "./games/common.js";
import {drawCurve} from "./curve.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1500;

const UNITS = {"game points": t("game points"), "golden coins": t("golden coins"), points: t("points"),
  "penalty points": t("penalty points")};
const WHAT = {reservations: t("reservations"), "wedding partners": t("wedding partners"), announcements: t("announcements"), cards: t("cards"),
  bids: t("bids"), "bonus cards": t("bonus cards"), discards: t("discards"), catches: t("catches"),
  Doppio: t("Doppio")};
const METHODS = {"expert search": t("the expert's search"), "intermediate playouts": t("playouts by the intermediate computer player")};

function csrf() {
  return document.querySelector("meta[name=csrf-token]").content;
}

function number(value) {
  return value.toLocaleString(document.documentElement.lang || undefined,
    {minimumFractionDigits: 1, maximumFractionDigits: 1});
}

/** Where a decision was: "Trick 7", "Duel 7" (Doublehead Kids), "Turn 4" (Doppio),
 * "Reservations" / "Bidding". */
function where(game, entry) {
  if (entry.trick == null) return game === "doppelganger_tricks" ? t("Bidding") : t("Reservations");
  if (game === "doppio") return t("Turn %(number)s", {number: entry.trick});
  if (game === "doublehead_kids") return t("Duel %(number)s", {number: entry.trick});
  return t("Trick %(number)s", {number: entry.trick});
}

export class AnalysisPanel {
  /** root: the #analysis section; plugin: the game plugin; go(round, frame): show a frame;
   * dealName(round): the round's counted name ("Deal 2", "Round 2"), as the replay names it;
   * seatName(seat): a player's name. */
  constructor(root, plugin, {game, tableId, go, dealName, seatName}) {
    this.root = root;
    this.plugin = plugin;
    this.game = game;
    this.tableId = tableId;
    this.go = go;
    this.dealName = dealName || ((round) => roundName(plugin, round + 1));
    this.seatName = seatName;
    this.doc = null;
    this.round = 0;
    this.chart = null;
    this.chartRound = null;
    this.url = `/api/tables/${tableId}/analysis`;
    $("analysis-start").addEventListener("click", () => this.start());
    window.addEventListener("resize", () => {
      if (this.chart) this.chart.setSize({width: Math.max(240, $("analysis-curve").clientWidth), height: this.chart.height});
    });
  }

  async load() {
    const response = await fetch(this.url);
    if (!response.ok) { this.root.hidden = true; return; }  // not logged in, or did not play
    this.root.hidden = false;
    this.show(await response.json());
  }

  async start() {
    $("analysis-start").disabled = true;
    const response = await fetch(this.url, {method: "POST", headers: {"X-CSRF-Token": csrf()}});
    const body = await response.json();
    if (!response.ok) {
      $("analysis-status").textContent = body.detail || t("The analysis cannot be started.");
      $("analysis-start").disabled = false;
      return;
    }
    this.show(body);
  }

  show(status) {
    this.root.dataset.status = status.status;
    const start = $("analysis-start");
    const bar = $("analysis-progress");
    start.hidden = !["none", "failed"].includes(status.status);
    start.disabled = false;
    bar.hidden = status.status !== "running";
    if (status.status === "none") {
      $("analysis-status").textContent = t("The computer expert can look at every decision you made in this match.");
    } else if (status.status === "failed") {
      $("analysis-status").textContent = t("The analysis failed. Try again.");
    } else if (status.status === "running") {
      bar.max = Math.max(1, status.total);
      bar.value = status.done;
      const progress = status.total
        ? t("Analysing: %(done)s of %(total)s decisions", {done: status.done, total: status.total})
        : t("Analysing…");
      // the first deal is there before the rest: shown at once, the rest follows (t() outside
      // the template literal: pybabel extracts it only there)
      const first = status.result ? t("%(deal)s is done:", {deal: this.dealName(0)}) : "";
      $("analysis-status").textContent = first ? `${progress}. ${first}` : progress;
      if (status.result && (!this.doc || this.doc.partial)) this.ready(status.result);
      setTimeout(() => this.load(), POLL_MS);
    } else if (status.status === "done") {
      $("analysis-status").textContent = "";
      this.ready(status.result);
    }
  }

  /** A document arrived (the first deal's, or the whole match's): show it. */
  ready(doc) {
    this.doc = doc;
    this.root.dataset.partial = doc.partial ? "true" : "false";
    this.showResult();
    if (this.onReady) this.onReady();
  }

  unit() {
    return UNITS[this.doc.unit] || this.doc.unit;
  }

  words(entry, which) {
    const action = which === "best" ? entry.best_action : entry.action;
    const card = which === "best" ? entry.best_card : entry.taken_card;
    return actionWords(this.plugin, action, {card, seatName: this.seatName});
  }

  /** One decision as a sentence: "Trick 7: Ace of hearts cost about 1.2 game points; King of
   * clubs was better here." */
  sentence(entry) {
    return t("%(where)s: %(taken)s cost about %(cost)s %(unit)s; %(best)s was better here.", {
      where: where(this.game, entry), taken: this.words(entry, "taken"),
      cost: number(entry.cost), unit: this.unit(), best: this.words(entry, "best")});
  }

  entry(round, index) {
    return this.doc.decisions.find((d) => d.round === round && d.index === index);
  }

  /** The costliest decisions (of the match, or of the first deal while the rest is analysed),
   * each with why it cost. */
  showResult() {
    const doc = this.doc;
    const what = doc.what.map((w) => WHAT[w] || w).join(", ");
    $("analysis-what").textContent = t("Analysed: %(what)s, by %(method)s (%(worlds)s sampled deals per decision); values in %(unit)s.",
      {what, method: METHODS[doc.method] || doc.method, worlds: doc.worlds, unit: this.unit()});
    $("analysis-legend").textContent = this.legend();
    const list = $("analysis-costliest");
    list.replaceChildren();
    for (const mark of doc.costliest) {
      const entry = this.entry(mark.round, mark.index);
      const prefix = doc.rounds.length > 1 ? this.dealName(mark.round) + " · " : "";
      const button = el("button", {type: "button", class: "analysis-go", "data-round": String(mark.round),
        "data-index": String(mark.index)}, prefix + this.sentence(entry));
      button.addEventListener("click", () => this.go(mark.round, mark.index));
      const item = el("li");
      item.append(button);
      if (entry.why && entry.why.text) item.append(el("p", {class: "analysis-why", "data-kind": entry.why.kind}, entry.why.text));
      list.append(item);
    }
    if (!doc.costliest.length) list.append(el("li", {}, t("No decision cost more than sampling noise.")));
    this.showSummary();
  }

  /** What the figures and abbreviations of this game's analysis mean. */
  legend() {
    const parts = [t("A decision costs what the best choice is expected to score more than the one made, over the sampled deals; up to %(tolerance)s %(unit)s is sampling noise and counts as accurate.",
      {tolerance: this.doc.tolerance.toLocaleString(document.documentElement.lang || undefined), unit: this.unit()})];
    if (this.doc.lower_is_better) parts.push(t("Penalty points: lower is better."));
    if (this.game === "doppio") parts.push(t("L3 L2 L1 | R1 R2 R3: the places of your six cards, left (L) and right (R) of the divider, 1 next to it; L1 and R1, L2 and R2, L3 and R3 are pairs."));
    return parts.join(" ");
  }

  /** The accuracy of the match and of the deal on the table, and the deal's curve. */
  showSummary() {
    if (!this.doc) return;
    const percent = (value) => (value == null ? "–" : `${number(value)} %`);
    const deal = this.doc.rounds[this.round] || {};
    const dealWords = this.dealName(this.round);
    $("analysis-summary").textContent = this.doc.partial
      ? t("Accuracy in %(deal)s: %(accuracy)s (cost %(cost)s %(unit)s).", {deal: dealWords,
        accuracy: percent(deal.accuracy), cost: number(deal.cost || 0), unit: this.unit()})
      : t("Accuracy: %(match)s in the match, %(accuracy)s in %(deal)s (cost %(cost)s %(unit)s).", {
        match: percent(this.doc.match.accuracy), accuracy: percent(deal.accuracy), deal: dealWords,
        cost: number(deal.cost || 0), unit: this.unit()});
    this.showCurve();
  }

  /** The curve of the deal on the table (drawn again when the deal or the document changes). */
  async showCurve() {
    const deal = this.doc.rounds[this.round];
    const curve = deal && deal.curve ? deal.curve : [];
    const box = $("analysis-curve-box");
    box.hidden = curve.length < 2;
    $("analysis-curve-title").textContent = t("%(deal)s: your expected score after each decision", {deal: this.dealName(this.round)});
    const key = `${this.round}:${this.doc.partial ? "p" : "d"}`;
    if (box.hidden || this.chartRound === key) return;
    this.chartRound = key;
    const target = $("analysis-curve");
    target.setAttribute("aria-label", t("The expected final score (%(unit)s) after each of your decisions in %(deal)s; costly moments are marked.",
      {unit: this.unit(), deal: this.dealName(this.round)}));
    if (this.chart) { this.chart.destroy(); this.chart = null; }
    const round = this.round;
    this.chart = await drawCurve(target, curve, {
      unit: this.unit(),
      lowerIsBetter: this.doc.lower_is_better, number,
      where: (point) => where(this.game, point),
      pick: (point) => this.go(round, point.index),
    });
  }

  /** The mark for the table at a frame of a round: at a costly decision (frame = its index,
   * before it) and right after it (index + 1). {text, taken, better} or null. The reason of
   * that decision goes under the curve (#analysis-moment). */
  markAt(round, frame) {
    if (this.round !== round) { this.round = round; this.showSummary(); }
    if (!this.doc) return null;
    const entry = this.doc.decisions.find((d) => d.round === round && d.analysed && d.cost > this.doc.tolerance
      && (d.index === frame || d.index + 1 === frame));
    const moment = $("analysis-moment");
    moment.hidden = !entry;
    if (!entry) return null;
    moment.replaceChildren(el("strong", {}, this.sentence(entry)));
    if (entry.why && entry.why.text) moment.append(" ", el("span", {class: "analysis-why"}, entry.why.text));
    return {text: this.sentence(entry), taken: entry.index === frame ? entry.action.card : null,
      better: entry.index === frame ? entry.best_action.card : null, cost: entry.cost};
  }
}
