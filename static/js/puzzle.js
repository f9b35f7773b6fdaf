// A puzzle (app/analysis/puzzles.py): the position of a real match from the deciding player's
// view, drawn by the table component (static/js/table/view.js) with the game's plugin; the
// player's legal cards and buttons answer it (POST /api/puzzles/{id}/answer). The answer shows
// whether it was a good one, the best action, every action's expected score, why (the
// analysis' reason in the page's language) and a link to the moment in the game's replay.
import {t} from "./i18n.js";
import {actionWords, playerName} from "./words.js";
import {TableView} from "./table/view.js";
import {PLUGINS} from "./games/index.js";
import {el} from "./games/common.js";

const root = document.getElementById("puzzle");
const $ = (id) => document.getElementById(id);
const puzzle = JSON.parse($("puzzle-data").textContent);
const plugin = await PLUGINS[puzzle.game]();
const UNITS = {"game points": t("game points"), "golden coins": t("golden coins"), points: t("points"),
  "penalty points": t("penalty points")};

const state = {
  table: {id: 0, game: puzzle.game, players: puzzle.seats.length, status: "playing", end: puzzle.end,
    seats: puzzle.seats.map((s) => ({...s, connected: true, autoplay: false}))},
  you: puzzle.seat, view: puzzle.view, scores: {end: puzzle.end, current: puzzle.deal}, result: null,
  timers: [], pause: null, rematch: null,
};
const answered = {solution: puzzle.answered};
window.doppelrunde = {puzzle: answered};

function seatName(seat) {
  const info = puzzle.seats.find((s) => s.seat === seat);
  return info ? playerName(info) : t("Seat %(number)s", {number: seat + 1});
}

function context() {
  return {state, view: state.view, you: state.you, events: [], at: performance.now(), seatName,
    replay: false, send: answer, latest: () => state, rerender: render, roundWord: plugin.roundWord || "deal"};
}

function csrf() {
  return document.querySelector("meta[name=csrf-token]").content;
}

const view = new TableView(plugin, {
  onCard(item, _button, playable) {
    if (answered.solution || !playable) return;
    const action = item.press ? item.press() : item.action;
    if (action) answer(action); else render();  // a navy card waits for its suit
  },
  onAction(spec) {
    if (answered.solution) return;
    if (spec.onClick) { spec.onClick(); render(); return; }
    if (spec.action) answer(spec.action);
  },
  onHint: (text) => { $("error").textContent = text; },
});

/** The action of a key, in words ("play:KC" → "King of clubs"). */
function keyWords(key, solution) {
  if (key === solution.best) return actionWords(plugin, solution.best_action, {seatName});
  const legal = puzzle.view.legal || puzzle.view.legal_actions || [];
  const action = legal.find((a) => keyOf(a) === key);
  return action ? actionWords(plugin, action, {seatName}) : key;
}

/** The analysis' name of an action (app.analysis.estimators.action_key). */
function keyOf(action) {
  const parts = [action.type];
  for (const field of ["card", "suit", "value", "partner", "position", "cards"]) {
    if (action[field] != null) parts.push(Array.isArray(action[field]) ? [...action[field]].map(String).sort().join(",") : String(action[field]));
  }
  return parts.join(":");
}

async function answer(action) {
  const copy = {...action};
  delete copy.seat;
  $("error").textContent = "";
  const response = await fetch(`/api/puzzles/${puzzle.id}/answer`, {method: "POST",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf()}, body: JSON.stringify({action: copy})});
  const body = await response.json().catch(() => ({}));
  if (response.status === 401) {
    $("error").textContent = t("Log in or play as a guest to answer.");
    return;
  }
  if (!response.ok) {
    $("error").textContent = typeof body.detail === "string" ? body.detail : t("The answer could not be sent.");
    return;
  }
  answered.solution = body;
  render();
}

function number(value) {
  return value.toLocaleString(document.documentElement.lang || undefined, {minimumFractionDigits: 1, maximumFractionDigits: 1});
}

/** The solution under the table. */
function showSolution(solution) {
  const box = $("puzzle-answer");
  box.hidden = false;
  const unit = UNITS[solution.unit] || solution.unit;
  root.dataset.correct = String(solution.correct);
  $("puzzle-verdict").textContent = solution.correct ? t("Well found: that is one of the best choices.")
    : t("Not quite: %(best)s was better.", {best: keyWords(solution.best, solution)});
  $("puzzle-best").textContent = t("In the match %(taken)s was played; it cost about %(cost)s %(unit)s.",
    {taken: actionWords(plugin, solution.taken, {seatName}), cost: number(solution.cost), unit});
  $("puzzle-why").textContent = solution.why || "";
  const list = $("puzzle-values");
  list.replaceChildren();
  const lower = puzzle.unit === "penalty points";
  const ranked = Object.entries(solution.values).sort((a, b) => (lower ? a[1] - b[1] : b[1] - a[1]));
  for (const [key, value] of ranked) {
    const item = el("li", {"data-key": key}, t("%(action)s: %(value)s %(unit)s expected", {action: keyWords(key, solution), value: number(value), unit}));
    if (solution.good.includes(key)) item.classList.add("good");
    if (key === solution.answer) item.append(el("span", {class: "chosen-mark"}, t("your answer")));
    list.append(item);
  }
  const source = solution.source;
  $("puzzle-source").href = `/tables/${source.table}/replay?round=${source.round}&frame=${source.index}`;
}

function render() {
  const ctx = context();
  const solution = answered.solution;
  let mark = null;
  if (solution) {
    // the card answered: green when it is a good answer, else red beside the best one in green
    const legal = puzzle.view.legal || puzzle.view.legal_actions || [];
    const chosen = legal.find((a) => keyOf(a) === solution.answer);
    const card = chosen && chosen.card != null ? String(chosen.card) : null;
    const best = solution.best_action.card != null ? String(solution.best_action.card) : null;
    mark = {text: solution.correct ? t("Well found.") : t("Not quite."),
      better: solution.correct ? card : best, taken: solution.correct ? null : card};
  }
  view.render(ctx, {interactive: !solution, mark,
    prompt: solution ? null : t("Your move: what is the best choice here?")});
  if (solution) showSolution(solution);
}

render();
