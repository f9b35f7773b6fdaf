// The replay viewer: steps through a finished match action by action (forwards, backwards,
// to a trick, to a deal) from the frames the server replays out of the stored event log.
// Every hand is shown: replays open only once the match is over.
import {cardName, cardSVG} from "./cards.js";
import {t} from "./i18n.js";
import {label, playerName} from "./words.js";

const root = document.getElementById("replay");
const tableId = root.dataset.table;
const els = Object.fromEntries(["round", "first", "prev", "next", "last", "trick", "position",
  "last-action", "trick-area", "hands", "round-scores"].map((id) => [id, document.getElementById(id)]));

const view = {data: null, round: 0, frame: 0};
window.doppelrunde = {replay: view};

function card(code) {
  const span = document.createElement("span");
  span.className = "card";
  span.dataset.card = code;
  try { span.appendChild(cardSVG(code)); } catch { span.textContent = code; }
  return span;
}

function seatText(seats, seat) {
  return seats[seat] ?? t("Seat %(number)s", {number: seat + 1});
}

/** An action in words: a card's name, a declaration or announcement, a partner, cards given. */
function actionText(action, seats) {
  const parts = [];
  if (action.card != null) parts.push(cardName(String(action.card)));
  if (action.value != null) parts.push(label(action.value));
  if (action.partner != null) parts.push(t("Partner: %(player)s", {player: seatText(seats, action.partner)}));
  if (Array.isArray(action.cards)) parts.push(action.cards.map((c) => cardName(String(c))).join(", "));
  if (action.suit != null) parts.push(String(action.suit));
  return parts.length ? parts.join(" · ") : label(action.type);
}

function option(select, value, text) {
  const item = document.createElement("option");
  item.value = String(value);
  item.textContent = text;
  select.appendChild(item);
}

function fillTricks() {
  els.trick.replaceChildren();
  const starts = view.data.rounds[view.round].trick_starts;
  starts.forEach((frame, n) => option(els.trick, frame, n === 0 ? t("start") : t("after trick %(number)s", {number: n})));
}

function render() {
  const round = view.data.rounds[view.round];
  const frame = round.frames[view.frame];
  const seats = view.data.seats;
  els.position.textContent = t("action %(number)s of %(count)s", {number: view.frame, count: round.frames.length - 1});
  els["last-action"].textContent = frame.label
    ? `${seatText(seats, frame.seat)}: ${frame.action ? actionText(frame.action, seats) : frame.label}` : t("Cards dealt.");
  els["trick-area"].replaceChildren();
  for (const play of frame.trick) {
    const item = document.createElement("div");
    item.className = "play";
    item.append(seats[play.seat] ?? "", " ", card(play.card));
    els["trick-area"].appendChild(item);
  }
  els.hands.replaceChildren();
  frame.hands.forEach((hand, seat) => {
    const row = document.createElement("div");
    row.className = "hand-row";
    row.dataset.seat = seat;
    const name = document.createElement("strong");
    name.textContent = `${seatText(seats, seat)} (${hand.length})`;
    row.appendChild(name);
    for (const code of hand) row.appendChild(card(String(code)));
    els.hands.appendChild(row);
  });
  els["round-scores"].textContent = round.scores && view.frame === round.frames.length - 1
    ? t("Deal scores: %(scores)s", {scores: round.scores.map((s, i) => `${seats[i]} ${s}`).join(", ")}) : "";
  els.prev.disabled = els.first.disabled = view.frame === 0;
  els.next.disabled = els.last.disabled = view.frame === round.frames.length - 1;
  const starts = round.trick_starts;
  let current = 0;
  starts.forEach((start, n) => { if (start <= view.frame) current = n; });
  els.trick.value = String(starts[current]);
  view.tricks = frame.tricks;
}

function go(frame) {
  const count = view.data.rounds[view.round].frames.length;
  view.frame = Math.max(0, Math.min(count - 1, frame));
  render();
}

function goRound(index) {
  view.round = index;
  view.frame = 0;
  els.round.value = String(index);
  fillTricks();
  render();
}

async function load() {
  const response = await fetch(`/api/tables/${tableId}/replay`);
  if (!response.ok) {
    els.position.textContent = (await response.json()).detail || t("The replay cannot be loaded.");
    return;
  }
  view.data = await response.json();
  if (view.data.seat_info) view.data.seats = view.data.seat_info.map(playerName);
  view.data.rounds.forEach((r, i) => option(els.round, i, `${i + 1}`));
  els.round.addEventListener("change", () => goRound(Number(els.round.value)));
  els.trick.addEventListener("change", () => go(Number(els.trick.value)));
  els.first.addEventListener("click", () => go(0));
  els.prev.addEventListener("click", () => go(view.frame - 1));
  els.next.addEventListener("click", () => go(view.frame + 1));
  els.last.addEventListener("click", () => go(Infinity));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") go(view.frame + 1);
    if (event.key === "ArrowLeft") go(view.frame - 1);
  });
  goRound(0);
  view.ready = true;
}

load();
