// The replay viewer: a finished match drawn by the same table component as live play
// (static/js/table/view.js) with the game's plugin, fed by the recorded frames
// (app/history/replay.py: after the deal and after each action, every hand, and the table as a
// spectator saw it). Every hand is shown, face up: the player at the bottom (the viewer's own
// seat if they played, else seat 0) in the hand zone, the others on their seat plates, each in
// the game's order. Steps: one action, one trick, to the start or end of a deal, a deal, a trick
// (the trick selector follows the steps). Keys: ← → actions, ↑ ↓ tricks, Home/End the deal.
// ``?round=R&frame=F`` opens the replay at a moment (a puzzle's "the game it came from", a
// practice table's "back to the replay"). "Play from here" opens a private table at the moment
// shown (static/js/practice.js).
import {t} from "./i18n.js";
import {actionWords, label, playerName, progressText, roundName} from "./words.js";
import {TableView} from "./table/view.js";
import {PLUGINS} from "./games/index.js";
import {icon} from "./table/icons.js";
import {el} from "./games/common.js";
import {flyFrom} from "./table/motion.js";
import {timings} from "./table/settings.js";
import {AnalysisPanel} from "./analysis.js";
import {PlayFromHere} from "./practice.js";

const root = document.getElementById("replay");
const $ = (id) => document.getElementById(id);
const tableId = Number(root.dataset.table);
const plugin = await PLUGINS[root.dataset.game]();
const view = new TableView(plugin, {onCard: () => {}, onAction: () => {}});

const replay = {data: null, round: 0, frame: 0, ready: false, analysis: null};
window.doppelrunde = {replay};

const ICONS = {first: "to-start", "prev-trick": "prev-trick", prev: "prev", next: "next", "next-trick": "next-trick", last: "to-end"};
for (const [id, name] of Object.entries(ICONS)) $(id).append(icon(name));

function seatName(seat) {
  const info = replay.data.seat_info[seat];
  return info ? playerName(info) : t("Seat %(number)s", {number: seat + 1});
}

/** The seat drawn at the bottom: the viewer's own, if they played, else seat 0. */
function bottom() {
  const me = root.dataset.me;
  const mine = replay.data.seat_info.find((s) => me && !s.bot && s.name === me);
  return mine ? mine.seat : 0;
}

/** The table's state at a frame, as a live client would have it (plus every hand). */
function stateAt(roundIndex, frameIndex) {
  const data = replay.data;
  const round = data.rounds[roundIndex];
  const frame = round.frames[frameIndex];
  const players = data.players;
  const rows = [];
  const finished = data.rounds.slice(0, roundIndex + (frameIndex === round.frames.length - 1 ? 1 : 0));
  finished.forEach((r, i) => {
    if (r.scores) rows.push({number: i, deal: dealNumber(i), dealer: r.dealer, scores: r.scores, redeal: r.redeal, details: r.details || {}});
  });
  const totals = Array(players).fill(0);
  for (const row of rows) row.scores.forEach((s, seat) => { totals[seat] += s; });
  const me = bottom();
  const v = {...frame.view, round: roundIndex, seat: me, hand: (frame.hands[me] || []).map(String),
    hand_sizes: frame.hands.map((h) => h.length), legal: []};
  if (frame.hand_values) v.hand_value = frame.hand_values[me];
  return {
    table: {id: tableId, game: data.game, players, deals: data.rounds.length, status: "finished",
      end: data.end, seats: data.seat_info.map((s) => ({...s, connected: true, autoplay: false}))},
    you: null, view: v, timers: [], result: null, pause: null, rematch: null,
    scores: {rounds: rows, totals, deals: data.rounds.length, played: rows.filter((r) => !r.redeal).length,
      end: data.end, current: dealNumber(roundIndex)},
  };
}

/** The counted number (1-based) of round ``index``: redeals do not count, so a deal dealt
 * again keeps its number (as on the table's score sheet). */
function dealNumber(index) {
  return replay.data.rounds.slice(0, index).filter((r) => !r.redeal).length + 1;
}

function context(state) {
  return {state, view: state.view, you: null, events: [], at: performance.now(), seatName, replay: true,
    send: () => {}, latest: () => state, rerender: render, roundWord: plugin.roundWord || "deal"};
}

/** Another seat's hand, face up in the game's order, for its plate. */
function faceUp(state, seat, cards) {
  const row = el("div", {class: "replay-hand", "aria-label": t("Hand of %(player)s", {player: seatName(seat)})});
  const order = plugin.sortCards ? plugin.sortCards(cards.map(String), state.view) : cards.map(String);
  // in the game's groups (Doppio: L3 L2 L1 | R1 R2 R3)
  const groups = plugin.handGroups ? plugin.handGroups(null, order) : [order];
  groups.forEach((group, i) => {
    if (i > 0) row.append(el("span", {class: "mini-divider", "aria-hidden": "true"}));
    for (const code of group) row.append(cornerCard(code));
  });
  return row;
}

/** A card of another seat's hand as its corner index alone (rank and suit; Kids: family, mark,
 * silver; the game's ``cornerBox`` in card units), drawn large enough to read: a hand of twelve
 * whole cards on a plate overlapped until nothing could be read. */
function cornerCard(code) {
  const [w, h] = plugin.cornerBox || [16, 31];
  const card = el("span", {class: "mini-card corner", "data-card": code});
  const svg = plugin.face(code);
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("preserveAspectRatio", "xMinYMin slice");
  card.style.setProperty("--w", String(w));
  card.style.setProperty("--h", String(h));
  card.append(svg);
  return card;
}

/** What the step's action did, in words: "Anna: Queen of clubs", "Ben bids 3". */
function actionText(frame, before) {
  const who = seatName(frame.seat);
  const action = frame.action || {};
  if (action.card != null) return `${who}: ${actionWords(plugin, action)}`;
  if (action.type === "discard") {
    const positions = ["L3", "L2", "L1", "R1", "R2", "R3"];
    const card = before.hands[frame.seat][positions.indexOf(action.position)];
    // the place in words beside its short name (L2: second place left of the divider)
    const place = action.position[0] === "L"
      ? t("%(position)s, place %(number)s left of the divider", {position: action.position, number: action.position[1]})
      : t("%(position)s, place %(number)s right of the divider", {position: action.position, number: action.position[1]});
    return t("%(player)s discards %(card)s (%(place)s)", {player: who, card: plugin.cardName(String(card)), place});
  }
  if (action.type === "bid") return t("%(player)s bids %(bid)s", {player: who, bid: action.value});
  if (action.type === "take_bonus") {
    return t("%(player)s takes the %(bonus)s", {player: who, bonus: {star: t("star"), eye: t("eye")}[action.value] || action.value});
  }
  if (action.type === "decline_bonus") return t("%(player)s plays on without a bonus card", {player: who});
  if (action.type === "catch") return t("%(player)s catches", {player: who});
  if (action.type === "pass") return t("%(player)s passes", {player: who});
  if (action.type === "doppio") return t("%(player)s declares Doppio", {player: who});
  if (action.partner != null) return `${who}: ${t("Partner: %(player)s", {player: seatName(action.partner)})}`;
  if (Array.isArray(action.cards)) return `${who}: ${label(action.type)} ${action.cards.map((c) => plugin.cardName(String(c))).join(", ")}`;
  if (action.value != null) return `${who}: ${label(action.value)}`;
  return `${who}: ${label(action.type || frame.label || "")}`;
}

function trickNumber(round, frameIndex) {
  let current = 0;
  round.trick_starts.forEach((start, n) => { if (start <= frameIndex) current = n; });
  return current;
}

let lastDrawn = null;

function render() {
  const data = replay.data;
  const round = data.rounds[replay.round];
  const frame = round.frames[replay.frame];
  const before = replay.frame > 0 ? round.frames[replay.frame - 1] : null;
  const state = stateAt(replay.round, replay.frame);
  const ctx = context(state);
  // a completed trick stays in the middle until the next card is led, as on a real table (the
  // frames count the completed tricks: their views leave the list of tricks out)
  const trickDone = frame.tricks > 0 && plugin.trick(state.view).length === 0;
  const held = trickDone ? plugin.lastTrick(state.view, ctx) : null;
  const hands = frame.hands.map((cards, seat) => (seat === bottom() ? el("span") : faceUp(state, seat, cards)));
  const prompt = replay.frame === 0 ? t("Cards dealt.") : actionText(frame, before);
  const mark = replay.analysis ? replay.analysis.markAt(replay.round, replay.frame) : null;
  view.render(ctx, {interactive: false, held, hands, prompt, replayHands: true, mark});
  // the winner's note goes with the caption: over the replay's small trick it hid its cards
  if (held && held.note) $("prompt").append(" ", el("span", {class: "replay-trick-note"}, held.note));
  const count = round.frames.length - 1;
  // t() stays outside the template literal: pybabel does not extract a call with an object
  // inside ${...}, and an unextracted msgid is never translated (tests/test_i18n.py)
  const actionWords = t("action %(number)s of %(count)s", {number: replay.frame, count});
  $("position").textContent = `${progressText(data.end, dealNumber(replay.round))} · ${actionWords}`;
  $("first").disabled = $("prev").disabled = replay.frame === 0;
  $("next").disabled = $("last").disabled = replay.frame === count;
  const trick = trickNumber(round, replay.frame);
  $("trick-select").value = String(round.trick_starts[trick]);
  $("prev-trick").disabled = replay.frame === 0;
  $("next-trick").disabled = replay.frame === count;
  replay.tricks = frame.tricks;
  showResult(ctx, round);
  // one step forward: the new card flies in from its player
  const fresh = lastDrawn && lastDrawn.round === replay.round && lastDrawn.frame === replay.frame - 1;
  if (fresh && frame.action && frame.action.card != null) {
    const fig = document.querySelector(`#trick [data-played-by="${frame.seat}"][data-card="${CSS.escape(String(frame.action.card))}"]`);
    flyFrom(fig, view.seatRect(frame.seat), timings().fly);
  }
  lastDrawn = {round: replay.round, frame: replay.frame};
  if (replay.practice) replay.practice.update();
}

/** At the end of a deal: its result over the table (the same summary as live play). */
function showResult(ctx, round) {
  const box = $("replay-result");
  const end = replay.frame === round.frames.length - 1 && round.scores;
  box.hidden = !end;
  box.replaceChildren();
  if (!end) return;
  box.append(el("h2", {}, ctx.roundWord === "round" ? t("Result of the round") : t("Result of the deal")));
  box.append(plugin.dealSummary(ctx, round.details || {}, round));
  const scores = round.scores.map((s, i) => `${seatName(i)} ${s > 0 ? "+" : ""}${s}`).join(", ");
  const list = el("p", {class: "replay-scores", id: "round-scores"}, ctx.roundWord === "round"
    ? t("Round scores: %(scores)s", {scores}) : t("Deal scores: %(scores)s", {scores}));
  box.append(list);
}

function go(frame) {
  const count = replay.data.rounds[replay.round].frames.length;
  replay.frame = Math.max(0, Math.min(count - 1, frame));
  render();
}

function goTrick(step) {
  const round = replay.data.rounds[replay.round];
  const starts = round.trick_starts;
  const now = trickNumber(round, replay.frame);
  if (step < 0) go(replay.frame > starts[now] ? starts[now] : starts[Math.max(0, now - 1)]);
  else go(now + 1 < starts.length ? starts[now + 1] : round.frames.length - 1);
}

function goRound(index) {
  replay.round = index;
  replay.frame = 0;
  $("round").value = String(index);
  const select = $("trick-select");
  select.replaceChildren();
  const starts = replay.data.rounds[index].trick_starts;
  starts.forEach((frame, n) => {
    const option = el("option", {value: String(frame)},
      n === 0 ? t("start") : t("after %(trick)s %(number)s", {trick: plugin.trickWord ? plugin.trickWord() : t("trick"), number: n}));
    select.append(option);
  });
  const tricks = starts.length > 1;
  for (const id of ["prev-trick", "next-trick", "trick-select-label"]) $(id).hidden = !tricks;
  render();
}

async function load() {
  const response = await fetch(`/api/tables/${tableId}/replay`);
  if (!response.ok) {
    $("prompt").textContent = (await response.json()).detail || t("The replay cannot be loaded.");
    return;
  }
  replay.data = await response.json();
  // the counted number, as the header and the score sheet have it (a redeal keeps it)
  replay.data.rounds.forEach((r, i) => $("round").append(el("option", {value: String(i)},
    r.redeal ? `${dealNumber(i)} (${t("redeal")})` : String(dealNumber(i)))));
  $("round").addEventListener("change", () => goRound(Number($("round").value)));
  $("trick-select").addEventListener("change", () => go(Number($("trick-select").value)));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(replay.frame - 1));
  $("next").addEventListener("click", () => go(replay.frame + 1));
  $("last").addEventListener("click", () => go(Infinity));
  $("prev-trick").addEventListener("click", () => goTrick(-1));
  $("next-trick").addEventListener("click", () => goTrick(1));
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "SELECT" || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = {ArrowRight: () => go(replay.frame + 1), ArrowLeft: () => go(replay.frame - 1),
      ArrowDown: () => goTrick(1), ArrowUp: () => goTrick(-1), Home: () => go(0), End: () => go(Infinity)};
    if (keys[event.key]) { keys[event.key](); event.preventDefault(); }
  });
  openAt(new URLSearchParams(location.search));
  replay.ready = true;
  startAnalysis();
  if ($("play-from-here")) {
    replay.practice = new PlayFromHere({tableId, players: replay.data.players, seatName,
      moment: () => ({round: replay.round, index: replay.frame, over: replay.frame === replay.data.rounds[replay.round].frames.length - 1,
        words: `${roundName(plugin, dealNumber(replay.round))} · ${t("action %(number)s of %(count)s",
          {number: replay.frame, count: replay.data.rounds[replay.round].frames.length - 1})}`}),
      seat: bottom});
  }
}

/** The moment of ``?round=R&frame=F`` (0-based; out of range: the nearest there is). */
function openAt(params) {
  const round = Math.max(0, Math.min(replay.data.rounds.length - 1, Number(params.get("round")) || 0));
  goRound(round);
  if (params.has("frame")) go(Number(params.get("frame")) || 0);
}

/** The analysis of the viewer's own seat, if they played this match (static/js/analysis.js). */
function startAnalysis() {
  const me = root.dataset.me;
  if (!me || !replay.data.seat_info.some((s) => !s.bot && s.name === me)) return;
  const panel = new AnalysisPanel($("analysis"), plugin, {game: replay.data.game, tableId, seatName,
    dealName: (round) => roundName(plugin, dealNumber(round)),
    go: (round, frame) => { if (round !== replay.round) goRound(round); go(frame); }});
  panel.onReady = render;
  replay.analysis = panel;
  panel.load();
}

load();
