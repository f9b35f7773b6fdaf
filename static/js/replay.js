// The replay viewer: steps through a finished match action by action (forwards, backwards,
// to a trick, to a deal) from the frames the server replays out of the stored event log.
// Every hand is shown: replays open only once the match is over.
import {cardSVG} from "./cards.js";

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

function option(select, value, text) {
  const item = document.createElement("option");
  item.value = String(value);
  item.textContent = text;
  select.appendChild(item);
}

function fillTricks() {
  els.trick.replaceChildren();
  const starts = view.data.rounds[view.round].trick_starts;
  starts.forEach((frame, n) => option(els.trick, frame, n === 0 ? "start" : `after trick ${n}`));
}

function render() {
  const round = view.data.rounds[view.round];
  const frame = round.frames[view.frame];
  const seats = view.data.seats;
  els.position.textContent = `action ${view.frame} of ${round.frames.length - 1}`;
  els["last-action"].textContent = frame.label
    ? `${seats[frame.seat] ?? "seat " + frame.seat}: ${frame.label}` : "Cards dealt.";
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
    name.textContent = `${seats[seat] ?? "seat " + seat} (${hand.length})`;
    row.appendChild(name);
    for (const code of hand) row.appendChild(card(String(code)));
    els.hands.appendChild(row);
  });
  els["round-scores"].textContent = round.scores && view.frame === round.frames.length - 1
    ? "Deal scores: " + round.scores.map((s, i) => `${seats[i]} ${s}`).join(", ") : "";
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
    els.position.textContent = (await response.json()).detail || "cannot load the replay";
    return;
  }
  view.data = await response.json();
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
