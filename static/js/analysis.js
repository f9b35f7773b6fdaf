// The post-game analysis on the replay page (docs/analysis.md): a player asks for the analysis
// of their own seat, sees its progress, then the accuracy per deal and match, what was
// analysed, and the costliest decisions ("Trick 7: Ace of hearts cost about 1.2 game points;
// King of clubs was better here"). A costly decision is also marked on the table (the same
// table view, opts.mark) at the moment it was made and right after; clicking a listed decision
// goes there. Only the person who played the seat sees its analysis (the API says so too).
import {t} from "./i18n.js";
import {label} from "./words.js";
import {el} from "./games/common.js";

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

/** An action in words: a card's name, "Re", "a bid of 3", "discarding L2". */
function actionWords(plugin, action) {
  if (action.card != null) {
    const suit = action.suit ? ` (${label(action.suit)})` : "";
    return plugin.cardName(String(action.card)) + suit;
  }
  if (action.type === "bid") return t("a bid of %(bid)s", {bid: action.value});
  if (action.type === "discard") return t("discarding %(position)s", {position: action.position});
  if (action.type === "announce") return t("announcing %(value)s", {value: label(action.value)});
  if (action.value != null) return label(action.value);
  return label(action.type);
}

/** Where a decision was: "Trick 7", "Turn 4" (Doppio), "Reservations" / "Bidding". */
function where(game, entry) {
  if (entry.trick == null) return game === "doppelganger_tricks" ? t("Bidding") : t("Reservations");
  if (game === "doppio") return t("Turn %(number)s", {number: entry.trick});
  return t("Trick %(number)s", {number: entry.trick});
}

export class AnalysisPanel {
  /** root: the #analysis section; plugin: the game plugin; go(round, frame): show a frame. */
  constructor(root, plugin, {game, tableId, go}) {
    this.root = root;
    this.plugin = plugin;
    this.game = game;
    this.tableId = tableId;
    this.go = go;
    this.doc = null;
    this.round = 0;
    this.url = `/api/tables/${tableId}/analysis`;
    $("analysis-start").addEventListener("click", () => this.start());
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
      $("analysis-status").textContent = status.total
        ? t("Analysing: %(done)s of %(total)s decisions", {done: status.done, total: status.total})
        : t("Analysing…");
      setTimeout(() => this.load(), POLL_MS);
    } else if (status.status === "done") {
      this.doc = status.result;
      $("analysis-status").textContent = "";
      this.showResult();
      if (this.onReady) this.onReady();
    }
  }

  unit() {
    return UNITS[this.doc.unit] || this.doc.unit;
  }

  /** One decision as a sentence: "Trick 7: Ace of hearts cost about 1.2 game points; King of
   * clubs was better here." */
  sentence(entry) {
    return t("%(where)s: %(taken)s cost about %(cost)s %(unit)s; %(best)s was better here.", {
      where: where(this.game, entry), taken: actionWords(this.plugin, entry.action),
      cost: number(entry.cost), unit: this.unit(), best: actionWords(this.plugin, entry.best_action)});
  }

  entry(round, index) {
    return this.doc.decisions.find((d) => d.round === round && d.index === index);
  }

  showResult() {
    const doc = this.doc;
    const what = doc.what.map((w) => WHAT[w] || w).join(", ");
    $("analysis-what").textContent = t("Analysed: %(what)s, by %(method)s (%(worlds)s sampled deals per decision); values in %(unit)s.",
      {what, method: METHODS[doc.method] || doc.method, worlds: doc.worlds, unit: this.unit()});
    const list = $("analysis-costliest");
    list.replaceChildren();
    for (const mark of doc.costliest) {
      const entry = this.entry(mark.round, mark.index);
      const prefix = doc.rounds.length > 1 ? t("Deal %(number)s", {number: mark.round + 1}) + " · " : "";
      const button = el("button", {type: "button", class: "analysis-go", "data-round": String(mark.round),
        "data-index": String(mark.index)}, prefix + this.sentence(entry));
      button.addEventListener("click", () => this.go(mark.round, mark.index));
      const item = el("li");
      item.append(button);
      list.append(item);
    }
    if (!doc.costliest.length) list.append(el("li", {}, t("No decision cost more than sampling noise.")));
    this.showSummary();
  }

  /** The accuracy of the match and of the deal on the table. */
  showSummary() {
    if (!this.doc) return;
    const percent = (value) => (value == null ? "–" : `${number(value)} %`);
    const deal = this.doc.rounds[this.round] || {};
    $("analysis-summary").textContent = t("Accuracy: %(match)s in the match, %(deal)s in deal %(number)s (cost %(cost)s %(unit)s).", {
      match: percent(this.doc.match.accuracy), deal: percent(deal.accuracy), number: this.round + 1,
      cost: number(deal.cost || 0), unit: this.unit()});
  }

  /** The mark for the table at a frame of a round: at a costly decision (frame = its index,
   * before it) and right after it (index + 1). {text, taken, better} or null. */
  markAt(round, frame) {
    if (this.round !== round) { this.round = round; this.showSummary(); }
    if (!this.doc) return null;
    const entry = this.doc.decisions.find((d) => d.round === round && d.analysed && d.cost > this.doc.tolerance
      && (d.index === frame || d.index + 1 === frame));
    if (!entry) return null;
    return {text: this.sentence(entry), taken: entry.index === frame ? entry.action.card : null,
      better: entry.index === frame ? entry.best_action.card : null, cost: entry.cost};
  }
}
