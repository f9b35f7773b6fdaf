// Doppio's table: six cards around the divider (L3 L2 L1 | R1 R2 R3) with their pairs matched,
// the hand value (its owner only), the discard flying to the middle, the catch window with its
// countdown, held caught cards face up beside their holders, the Doppio button (enabled at 10
// or less), the round's penalties and the running totals. Everything from the seat's own view.
import {el, svgEl} from "./common.js";
import {t} from "../i18n.js";

const ANSWERS = {catch: t("catch"), pass: t("pass")};

/** A Doppio card in words: "7", or "bonus card" for B. */
function cardWord(code) { return code === "B" ? t("bonus card") : String(code); }

const POSITIONS = ["L3", "L2", "L1", "R1", "R2", "R3"];
const PAIRS = [["L1", "R1"], ["L2", "R2"], ["L3", "R3"]];

/** A Doppio card (3..13 or B, the bonus card worth -2) as SVG. */
export function doppioCard(code) {
  const bonus = code === "B";
  const n = bonus ? 0 : Number(code);
  const tone = bonus ? "bonus" : n <= 5 ? "low" : n <= 9 ? "mid" : "high";
  const svg = svgEl("svg", {viewBox: "0 0 60 90", class: `card-svg doppio ${tone}`, role: "img",
    "aria-label": bonus ? t("bonus card (-2)") : t("card %(number)s", {number: code})});
  svg.appendChild(svgEl("rect", {x: 1, y: 1, width: 58, height: 88, rx: 6, class: "card-face"}));
  svg.appendChild(svgEl("rect", {x: 7, y: 20, width: 46, height: 50, rx: 10, class: "band"}));
  svg.appendChild(svgEl("text", {x: 5, y: 16, class: "corner"}, bonus ? "★" : code));
  svg.appendChild(svgEl("text", {x: 30, y: 54, class: "number", "text-anchor": "middle"},
    bonus ? "★" : code));
  if (bonus) svg.appendChild(svgEl("text", {x: 30, y: 84, class: "corner", "text-anchor": "middle"}, "-2"));
  return svg;
}

function cardValue(code) { return code === "B" ? -2 : Number(code); }

/** A pair's score: 0 for two equal cards (or two bonus cards), else the sum of its values. */
export function pairValue(a, b) { return a === b ? 0 : cardValue(a) + cardValue(b); }

let windowTimer = null;
let windowEndsAt = 0;
let windowKey = null;
let lastEvents = [];

function stopCountdown() {
  if (windowTimer) clearInterval(windowTimer);
  windowTimer = null;
}

function secondsLeft() { return Math.max(0, (windowEndsAt - performance.now()) / 1000); }

function tickCountdown() {
  const left = secondsLeft();
  const text = left.toFixed(1) + " s";
  for (const node of document.querySelectorAll("[data-countdown]")) node.textContent = text;
  const bar = document.getElementById("catch-bar");
  if (bar) bar.style.width = `${Math.min(100, 100 * left / (bar.dataset.total || 1))}%`;
  if (left <= 0) {
    for (const button of document.querySelectorAll("#choices button[data-type=catch], #choices button[data-type=pass]")) {
      button.disabled = true;
    }
    stopCountdown();
  }
}

export function onMessage(msg) {
  lastEvents = msg.type === "event" ? msg.events || [] : [];
}

function seatPanel(ctx, seat) {
  const {state} = ctx;
  const view = state.view;
  const info = state.table.seats.find((s) => s.seat === seat);
  const div = el("div", {class: "seat", "data-seat": seat});
  if (seat === state.you) div.classList.add("you");
  const window = view && view.catch_window;
  if (view && !window && view.turn === seat) div.classList.add("to-move");
  div.appendChild(el("strong", {}, info ? ctx.seatName(seat) : t("(free)")));
  const notes = [];
  if (info && info.bot) notes.push(t("computer"));
  if (info && !info.connected) notes.push(t("away"));
  if (view && view.dealer === seat) notes.push(t("dealer"));
  notes.push(t("total %(points)s", {points: state.scores.totals[seat] ?? 0}));
  if (window) {
    if (window.discarder === seat) notes.push(t("discarded"));
    else if (window.answered.includes(seat)) notes.push(t("answered"));
    else if (window.eligible.includes(seat)) notes.push(t("may catch"));
  }
  div.appendChild(el("small", {}, notes.join(" · ")));
  const held = view && view.held ? view.held[seat] : null;
  if (held) {
    const fig = el("figure", {class: "held", "data-card": held});
    fig.appendChild(doppioCard(held));
    fig.appendChild(el("figcaption", {}, t("caught")));
    div.appendChild(fig);
  }
  return div;
}

function renderCenter(ctx) {
  const {state, seatName} = ctx;
  const view = state.view;
  const round = (view.round ?? 0) + 1;
  const dead = view.dead || [];
  ctx.$("info").textContent = [t("Round %(number)s", {number: round}),
    t("Deck: %(count)s cards", {count: view.deck_size}), t("Dead pile: %(count)s", {count: dead.length}),
    t("Penalties: the lowest total wins")].join(" · ");
  const trick = ctx.$("trick");
  trick.replaceChildren();
  const pile = el("figure", {class: "played small dead-pile", id: "dead-pile"});
  if (dead.length) pile.appendChild(doppioCard(dead[dead.length - 1]));
  pile.appendChild(el("figcaption", {}, dead.length ? t("dead pile") : t("no dead cards")));
  trick.appendChild(pile);
  const window = view.catch_window;
  if (window) {
    const fig = el("figure", {class: "played window-card", id: "window-card", "data-card": window.card});
    const discarded = lastEvents.some((e) => e.type === "discard" && e.seat === window.discarder);
    if (discarded) fig.classList.add(window.discarder === state.you ? "from-you" : "from-other", "fly");
    fig.appendChild(doppioCard(window.card));
    fig.appendChild(el("figcaption", {}, t("discarded by %(player)s", {player: seatName(window.discarder)})));
    trick.appendChild(fig);
    const clock = el("div", {class: "countdown-box"});
    clock.appendChild(el("span", {}, t("Catch window:") + " "));
    clock.appendChild(el("strong", {id: "countdown", "data-countdown": ""}, secondsLeft().toFixed(1) + " s"));
    const track = el("div", {class: "catch-track"});
    track.appendChild(el("div", {id: "catch-bar", class: "catch-bar", "data-total": window.seconds}));
    clock.appendChild(track);
    trick.appendChild(clock);
  }
  const closed = lastEvents.find((e) => e.type === "catch_window_closed");
  const note = ctx.$("announcements");
  if (closed) {
    note.textContent = closed.caught_by == null
      ? t("Nobody caught the %(card)s: it is dead.", {card: cardWord(closed.card)})
      : closed.catchers.length > 1
        ? t("%(player)s caught the %(card)s (farthest clockwise of %(players)s).", {player: seatName(closed.caught_by),
          card: cardWord(closed.card), players: closed.catchers.map(seatName).join(", ")})
        : t("%(player)s caught the %(card)s.", {player: seatName(closed.caught_by), card: cardWord(closed.card)});
  } else if (!window) {
    note.textContent = "";
  }
}

function renderHand(ctx) {
  const {state, send} = ctx;
  const view = state.view;
  const hand = ctx.$("hand");
  hand.replaceChildren();
  if (!view.hand) return;
  const legal = view.legal || [];
  const discards = new Set(legal.filter((a) => a.type === "discard").map((a) => a.position));
  const at = Object.fromEntries(POSITIONS.map((p, i) => [p, view.hand[i]]));
  const pairOf = {};
  PAIRS.forEach(([l, r], i) => { pairOf[l] = i + 1; pairOf[r] = i + 1; });
  const row = el("div", {class: "doppio-hand"});
  POSITIONS.forEach((position, i) => {
    if (i === 3) row.appendChild(el("div", {class: "divider", role: "separator", "aria-orientation": "vertical"}));
    const card = at[position];
    const pair = pairOf[position];
    const [l, r] = PAIRS[pair - 1];
    const matched = at[l] === at[r];
    const button = el("button", {type: "button", class: `card pair-${pair}`, "data-card": card,
      "data-position": position, title: `${position}: ${card === "B" ? t("bonus (-2)") : card}`});
    if (matched) button.classList.add("matched");
    button.appendChild(doppioCard(card));
    button.appendChild(el("span", {class: "pos"}, t("%(position)s · pair %(number)s", {position, number: pair})));
    if (discards.has(position)) {
      button.classList.add("legal");
      button.addEventListener("click", () => send({type: "discard", position}));
    } else {
      button.disabled = true;
    }
    row.appendChild(button);
  });
  hand.appendChild(row);
  const pairs = el("ul", {class: "pairs", id: "pairs"});
  PAIRS.forEach(([l, r], i) => {
    const value = pairValue(at[l], at[r]);
    const item = el("li", {class: `pair-${i + 1}` + (value === 0 ? " matched" : ""), "data-pair": i + 1},
      t("Pair %(number)s (%(left)s+%(right)s): %(a)s and %(b)s → %(value)s", {number: i + 1, left: l, right: r,
        a: at[l], b: at[r], value}) + (value === 0 ? " " + t("matched") : ""));
    pairs.appendChild(item);
  });
  hand.appendChild(pairs);
  hand.appendChild(el("p", {class: "hand-value", id: "hand-value"}, t("Your hand value: %(value)s", {value: view.hand_value})));
  const held = view.held ? view.held[state.you] : null;
  if (held) {
    hand.appendChild(el("p", {class: "held-note", id: "held-note"},
      t("You hold the caught %(card)s: it fills the outer place of the side you discard from next (it cannot be refused, and it does not count until then).",
        {card: held === "B" ? t("bonus card") : held})));
  }
}

function renderChoices(ctx) {
  const {state, send} = ctx;
  const view = state.view;
  const legal = view.legal || [];
  const box = ctx.$("choices");
  box.replaceChildren();
  const window = view.catch_window;
  if (legal.some((a) => a.type === "catch")) {
    const catchButton = el("button", {type: "button", id: "catch-button", "data-type": "catch",
      class: "catch"}, t("Catch the %(card)s", {card: cardWord(window.card)}) + " ");
    catchButton.appendChild(el("span", {"data-countdown": ""}, secondsLeft().toFixed(1) + " s"));
    catchButton.addEventListener("click", () => send({type: "catch"}));
    const pass = el("button", {type: "button", id: "pass-button", "data-type": "pass",
      class: "secondary"}, t("Pass"));
    pass.addEventListener("click", () => send({type: "pass"}));
    box.append(catchButton, pass);
  } else if (window && view.hand && window.my_answer) {
    box.appendChild(el("span", {class: "answered"}, t("You answered: %(answer)s",
      {answer: ANSWERS[window.my_answer] || window.my_answer})));
  }
  if (view.turn === state.you && !window && view.hand) {
    const allowed = legal.some((a) => a.type === "doppio");
    const doppio = el("button", {type: "button", id: "doppio-button", "data-type": "doppio",
      title: allowed ? t("declare Doppio: your hand value is 10 or less")
        : t("Doppio needs a hand value of 10 or less (yours: %(value)s)", {value: view.hand_value})}, t("Doppio!"));
    doppio.disabled = !allowed;
    doppio.addEventListener("click", () => { if (allowed) send({type: "doppio"}); });
    box.appendChild(doppio);
  }
}

function syncCountdown(view) {
  const window = view && view.catch_window;
  if (!window) { stopCountdown(); windowKey = null; return; }
  const key = `${view.round}:${window.discarder}:${window.card}:${view.deck_size}`;
  if (key !== windowKey) {
    windowKey = key;
    windowEndsAt = performance.now() + 1000 * (window.remaining ?? window.seconds);
  }
  if (!windowTimer) windowTimer = setInterval(tickCountdown, 100);
}

export function render(ctx) {
  const {state} = ctx;
  const seats = ctx.$("seats");
  seats.replaceChildren(...Array.from({length: state.table.players}, (_, s) => seatPanel(ctx, s)));
  if (!state.view) return;
  syncCountdown(state.view);
  renderCenter(ctx);
  renderChoices(ctx);
  renderHand(ctx);
  tickCountdown();
}

export function prompt(ctx) {
  const {state, seatName} = ctx;
  const view = state.view;
  if (view.over) return t("The round is over.");
  const window = view.catch_window;
  if (window) {
    if ((view.legal || []).some((a) => a.type === "catch")) {
      return t("Catch the %(card)s? Answer before the countdown ends.", {card: cardWord(window.card)});
    }
    return t("Catch window open for the %(card)s…", {card: cardWord(window.card)});
  }
  if (view.turn === state.you) return t("Your turn: discard a card (or declare Doppio at 10 or less).");
  return view.turn != null ? t("Waiting for %(player)s…", {player: seatName(view.turn)}) : "";
}

/** The round's penalties: revealed hands, hand values, Doppio, penalties, running totals. */
export function roundResult(ctx, box) {
  const {state, seatName} = ctx;
  const rounds = state.scores.rounds;
  const view = state.view;
  let details = null;
  let scores = null;
  if (view && view.result) { details = view.result; scores = view.result.scores; } else if (rounds.length) {
    details = rounds[rounds.length - 1].details;
    scores = rounds[rounds.length - 1].scores;
  }
  if (!details || !details.hands) return true;
  box.appendChild(el("h2", {}, view && view.over ? t("This round's penalties") : t("Last round's penalties")));
  const call = details.doppio;
  box.appendChild(el("p", {id: "round-end"}, !call ? t("The deck ran out: everyone scores their hand value.")
    : call.success ? t("%(player)s declared Doppio: success (lowest hand, scores 0).", {player: seatName(call.seat)})
      : t("%(player)s declared Doppio: failed (another hand was as low: 20 + hand value).", {player: seatName(call.seat)})));
  const table = el("table", {class: "scores penalties", id: "penalties"});
  const head = table.createTHead().insertRow();
  for (const text of [t("Player"), t("Hand"), t("Hand value"), t("Penalty"), t("Total")]) head.appendChild(el("th", {}, text));
  const body = table.createTBody();
  details.hands.forEach((hand, seat) => {
    const row = body.insertRow();
    row.dataset.seat = seat;
    row.insertCell().textContent = seatName(seat);
    const cards = row.insertCell();
    cards.className = "revealed";
    hand.forEach((card, i) => {
      if (i === 3) cards.appendChild(el("span", {class: "divider-mark"}, "|"));
      cards.appendChild(doppioCard(card));
    });
    row.insertCell().textContent = String(details.hand_values[seat]);
    row.insertCell().textContent = String(scores[seat]);
    row.insertCell().textContent = String(state.scores.totals[seat]);
  });
  box.appendChild(table);
  return true;
}
