// The table page: renders the seat's own view from the server (never more), lets the player
// click only legal cards and press only legal buttons, and keeps the score sheet.
import {Socket} from "./socket.js";
import {cardLabel, cardName, cardSVG} from "./cards.js";
import {t} from "./i18n.js";
import {bindKeys, rememberFocus, restoreFocus} from "./table/keyboard.js";
import {drawHeld, flyIn, holdTrick, holding, releaseTrick} from "./table/motion.js";
import {bindSettings} from "./table/settings.js";
import {play as playSound, unlockAudio} from "./table/sound.js";
import {explainValue, renderSheet} from "./table/scoresheet.js";
import {sortHand} from "./table/handsort.js";
import {buildPanels, fillLastTrick} from "./table/panels.js";
import {TYPE_LABELS, label, playerName, scoreLine, seatCounts} from "./words.js";

const page = document.getElementById("table-page");
const tableId = Number(page.dataset.table);
const $ = (id) => document.getElementById(id);

// Per-game tables (static/js/games/*.js). A renderer module exports render(ctx), which fills
// #seats, #info, #trick, #choices and #hand, and may export prompt(ctx) (the status line's text
// or null), roundResult(ctx, box) (true when it drew the deal's result itself) and
// onMessage(msg, ctx) (before the state is replaced: animations). Other games: the generic one.
const RENDERERS = {
  doppio: "./games/doppio.js",
  doppelganger_tricks: "./games/doppelganger.js",
  doublehead_kids: "./games/kids.js",
};
let renderer = null;
if (RENDERERS[page.dataset.game]) {
  try {
    renderer = await import(RENDERERS[page.dataset.game]);
  } catch (err) {
    console.error("game renderer failed to load; using the generic table", err);
  }
}

/** What a game renderer may use: the state, sending, names, labels, re-rendering. */
function context() {
  return {state, send, seatName, label, $, render, previous: previousState,
    generic: {renderSeats, renderCenter, renderChoices, renderHand}};
}

// the phases of a deal (the server's phase names) in words
const PHASES = {
  declare: t("reservations"), poverty_give: t("poverty"), poverty_answer: t("poverty"),
  poverty_return: t("poverty"), wedding_partner: t("wedding"), play: t("play"), done: t("deal over"),
};

function phaseName(phase) {
  return PHASES[phase] || phase.replaceAll("_", " ");
}

// the names of a deal's result details (app/games/*/scoring.py: outcome details)
const DETAIL_NAMES = {
  contract: t("Game"), declarer: t("Declarer"), parties: t("Parties"), card_points: t("Card points"),
  tricks: t("Tricks"), announcements: t("Announcements"), winner: t("Winner"),
  game_value: t("Game value"), score_lines: t("Score lines"), swines: t("Swines"),
  reason: t("Reason"),
};

/** The status line when it is this seat's turn: what to do now. */
function yourTurnPrompt(view) {
  const legal = view.legal || [];
  if (legal.some((a) => a.type === "declare")) {
    return t("Your turn: healthy or a reservation?");
  }
  if (legal.some((a) => a.type === "play")) return t("Your turn: play a card.");
  return t("Your turn");
}

// refusals from the server by code (app/protocol.py ErrorMessage.code), in the page's language
const ERRORS = {
  bad_message: t("The server did not understand that message."),
  illegal: t("That move is not allowed now."),
  not_seated: t("You do not sit at this table."),
  not_found: t("This table does not exist."),
  forbidden: t("You may not watch this table."),
  too_large: t("That message was too large."),
  rate_limited: t("Too many messages; please slow down."),
  server_error: t("Something went wrong on our side; nothing changed."),
};

/** A refusal's text: the translation of its code (the server's English text otherwise). */
function errorText(msg) {
  return ERRORS[msg.code] || msg.message;
}

let state = null;
let previousState = null;
let seq = 0;
let selected = [];
// read-only access for debugging and browser tests
window.doppelrunde = {get state() { return state; }, get seq() { return seq; },
  get socket() { return socket; }};

function seatName(seat) {
  const info = state.table.seats.find((s) => s.seat === seat);
  return info ? playerName(info) : t("Seat %(number)s", {number: seat + 1});
}

function turnOf(view) {
  if ("to_move" in view) return view.to_move;
  return (view.to_act || [null])[0];
}

// the seq of the state a move was sent from: one move per state, so a double click or a
// second key press before the server answers is not sent again (and refused as "not allowed")
let sentFrom = null;

function send(action) {
  if (sentFrom !== null && sentFrom === seq) return;
  sentFrom = seq;
  const copy = {...action};
  delete copy.seat;
  $("error").textContent = "";
  socket.send({type: "action", action: copy});
}

function renderSeats() {
  const view = state.view;
  const box = $("seats");
  box.replaceChildren();
  for (let seat = 0; seat < state.table.players; seat++) {
    const info = state.table.seats.find((s) => s.seat === seat);
    const div = document.createElement("div");
    div.className = "seat";
    div.dataset.seat = seat;
    if (seat === state.you) div.classList.add("you");
    if (view && turnOf(view) === seat) div.classList.add("to-move");
    if (view && turnOf(view) === seat) {
      const turn = document.createElement("span");
      turn.className = "turn-badge";
      turn.textContent = seat === state.you ? t("Your turn") : t("to play");
      div.appendChild(turn);
    }
    const name = document.createElement("strong");
    name.textContent = info ? playerName(info) : t("(free)");
    div.appendChild(name);
    const notes = [];
    if (seat === state.you) notes.push(t("you"));
    if (info && info.bot) notes.push(t("computer"));
    if (info && !info.connected) notes.push(t("away"));
    if (view && view.dealer === seat) notes.push(t("dealer"));
    if (view && view.parties && view.parties[seat]) {
      notes.push(t("party: %(party)s", {party: label(view.parties[seat])}));
      div.dataset.party = view.parties[seat];
    }
    notes.push(...seatCounts(view, seat));
    const small = document.createElement("small");
    small.textContent = notes.join(" · ");
    div.appendChild(small);
    box.appendChild(div);
  }
}

function playedCard(play, cls) {
  const fig = document.createElement("figure");
  fig.className = cls;
  fig.dataset.card = play.card;
  fig.dataset.seat = play.seat;
  fig.appendChild(cardSVG(play.card));
  const cap = document.createElement("figcaption");
  cap.textContent = seatName(play.seat);
  fig.appendChild(cap);
  return fig;
}

function renderCenter() {
  const view = state.view;
  const info = [];
  if (view.contract) {
    info.push(view.declarer != null
      ? t("Game: %(contract)s (%(player)s)", {contract: label(view.contract), player: seatName(view.declarer)})
      : t("Game: %(contract)s", {contract: label(view.contract)}));
  }
  if (view.phase) info.push(t("Phase: %(phase)s", {phase: phaseName(view.phase)}));
  info.push(t("Deal %(number)s of %(deals)s", {number: state.scores.played + (view.phase === "done" ? 0 : 1),
    deals: state.scores.deals}));
  $("info").textContent = info.join(" · ");
  const trick = $("trick");
  trick.replaceChildren(...(view.trick || []).map((p) => playedCard(p, "played")));
  $("last-trick").replaceChildren();  // shown on demand: the Last trick button (key L)
  const anns = (view.announcements || []).map((a) => typeof a === "object"
    ? `${seatName(a.seat)}: ${label(a.value)}` : t("%(player)s announced", {player: seatName(a)}));
  const decl = (view.declarations || []).map((d, seat) => d ? `${seatName(seat)}: ${label(d)}` : null)
    .filter(Boolean);
  $("announcements").textContent = [...decl, ...anns].join(" · ");
}

function renderChoices() {
  const view = state.view;
  const legal = view.legal || [];
  const box = $("choices");
  box.replaceChildren();
  for (const action of legal) {
    if (action.type === "play" || action.cards) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.type = action.type;
    button.dataset.value = action.value ?? "";
    button.textContent = action.partner != null
      ? t("Choose %(player)s as partner", {player: seatName(action.partner)}) : label(action.value ?? action.type);
    button.addEventListener("click", () => send(action));
    box.appendChild(button);
  }
  const withCards = legal.filter((a) => a.cards);
  if (withCards.length) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = "submit-cards";
    button.dataset.type = withCards[0].type;
    const want = [...selected].sort().join(",");
    const match = withCards.find((a) => [...a.cards].sort().join(",") === want);
    button.textContent = TYPE_LABELS[withCards[0].type] || label(withCards[0].type);
    button.disabled = !match;
    button.addEventListener("click", () => { if (match) { selected = []; send(match); } });
    box.appendChild(button);
  }
}

function renderHand() {
  const view = state.view;
  const legal = view.legal || [];
  const playable = new Set(legal.filter((a) => a.type === "play").map((a) => a.card));
  const choosing = legal.some((a) => a.cards);
  const hand = $("hand");
  hand.replaceChildren();
  const counts = {};
  for (const card of sortHand(view.hand || [], view.trumps)) {
    const index = (counts[card] = (counts[card] || 0) + 1) - 1;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "card";
    button.dataset.card = card;
    button.title = cardLabel(card);
    button.appendChild(cardSVG(card));
    const pick = selected.filter((c) => c === card).length > index;
    if (playable.has(card)) {
      button.classList.add("legal");
      button.addEventListener("click", () => send({type: "play", card}));
    } else if (choosing) {
      button.classList.add("selectable");
      if (pick) button.classList.add("selected");
      button.addEventListener("click", () => {
        const at = selected.indexOf(card);
        if (pick && at >= 0) selected.splice(at, 1); else selected.push(card);
        render();
      });
    } else {
      button.setAttribute("aria-disabled", "true");
    }
    hand.appendChild(button);
  }
}

function renderPrompt() {
  const view = state.view;
  const prompt = $("prompt");
  if (renderer && renderer.prompt && view && !state.result) {
    const text = renderer.prompt(context());
    if (text != null) { prompt.textContent = text; return; }
  }
  if (state.result) { prompt.textContent = t("The match is over."); return; }
  if (!view) { prompt.textContent = t("Waiting for players…"); return; }
  if (view.phase === "done") { prompt.textContent = t("The deal is over."); return; }
  const turn = turnOf(view);
  if (turn === state.you) {
    prompt.textContent = state.deadline != null
      ? t("Your turn (%(seconds)s s)", {seconds: Math.ceil(state.deadline)}) : yourTurnPrompt(view);
  } else if (turn != null) {
    prompt.textContent = t("Waiting for %(player)s…", {player: seatName(turn)});
  } else prompt.textContent = "";
}

/** A deal's outcome detail as text: seats become names, parties and reasons become words. */
function detailText(key, value) {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (key === "parties" && typeof value === "object") {
    return Object.entries(value).map(([party, seats]) =>
      `${label(party)}: ${[].concat(seats).map(seatName).join(", ")}`).join(" · ");
  }
  if (["declarer", "winner_seat", "bride", "partner"].includes(key) && typeof value === "number") {
    return seatName(value);
  }
  if (Array.isArray(value)) {
    const parts = value.map((item) => {
      if (item && typeof item === "object") {
        if ("reason" in item) return scoreLine(item);
        if ("seat" in item) return `${seatName(item.seat)}: ${label(item.value ?? item.type ?? "")}`;
        return Object.entries(item).map(([k, v]) => `${k} ${v}`).join(" ");
      }
      return String(item);
    });
    return parts.length ? parts.join(" · ") : null;
  }
  if (typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${label(k)} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(" · ");
  }
  return typeof value === "string" ? label(value) : String(value);
}

function renderRoundResult() {
  const box = $("round-result");
  const view = state.view;
  const rounds = state.scores.rounds;
  const details = view && view.result ? view.result : (rounds.length ? rounds[rounds.length - 1].details : null);
  box.replaceChildren();
  if (renderer && renderer.roundResult && renderer.roundResult(context(), box)) {
    box.hidden = !box.childNodes.length;
    return;
  }
  box.hidden = !details;
  if (!details) return;
  const title = document.createElement("h2");
  title.textContent = view && view.phase === "done" ? t("This deal") : t("Last deal");
  box.appendChild(title);
  const explained = explainValue(details, {seatName, label});
  if (explained) box.appendChild(explained);
  const list = document.createElement("dl");
  for (const [key, value] of Object.entries(details)) {
    const text = detailText(key, value);
    if (text === null || text === "") continue;
    const dt = document.createElement("dt");
    dt.textContent = DETAIL_NAMES[key] || key.replaceAll("_", " ");
    const dd = document.createElement("dd");
    dd.dataset.key = key;
    dd.textContent = text;
    list.append(dt, dd);
  }
  box.appendChild(list);
}

function renderScores() {
  renderSheet($("scores"), {state, seatName, label});
  const result = $("match-result");
  result.textContent = state.result
    ? t("Winner: %(players)s", {players: state.result.winners.map(seatName).join(", ")}) : "";
}

/** Whether the player is to act now. */
function isMyTurn() {
  const view = state && state.view;
  if (!view || state.result || view.phase === "done") return false;
  if (Array.isArray(view.to_act)) return view.to_act.includes(state.you);
  return turnOf(view) === state.you;
}

/** Number the action buttons 1-9 (number keys press them; the digit shows on the button). */
function numberButtons(box) {
  let n = 0;
  for (const button of box.querySelectorAll("button")) {
    if (button.hidden || n >= 9) { button.removeAttribute("data-key"); continue; }
    n += 1;
    button.dataset.key = String(n);
    button.setAttribute("aria-keyshortcuts", String(n));
  }
}

/** Accessibility after any game's render: every card a button named after its card, cards
 * that cannot be played now aria-disabled (still focusable, so arrow keys reach them). */
function enhance() {
  for (const button of $("hand").querySelectorAll("button.card")) {
    // the name comes from the card picture (role img, "Queen of clubs"): an aria-label on the
    // button would hide the picture's visible rank and suit from speech input (axe:
    // label-content-name-mismatch)
    const svg = button.querySelector("svg[aria-label]");
    const name = svg ? svg.getAttribute("aria-label") : cardName(button.dataset.card || "");
    if (!svg) button.setAttribute("aria-label", name);
    if (button.disabled) {
      button.disabled = false;
      button.setAttribute("aria-disabled", "true");
    }
    if (button.getAttribute("aria-disabled") === "true") button.classList.add("unplayable");
  }
  numberButtons($("choices"));
  const mine = isMyTurn();
  document.title = mine ? t("Your turn – Doppelrunde") : baseTitle;
  $("board").classList.toggle("my-turn", mine);
}

const baseTitle = document.title;
let wasMyTurn = false;

let newsTimer = null;

/** Say an announcement as it is made (tournament mode lists none: this is all one sees). */
function tellEvents(events) {
  const said = (events || []).filter((e) => e && e.type === "announced" && e.seat != null)
    .map((e) => t("%(player)s announces %(announcement)s", {player: seatName(e.seat), announcement: label(e.value)}));
  if (!said.length) return;
  const news = $("table-news");
  news.textContent = said.join(" · ");
  clearTimeout(newsTimer);
  newsTimer = setTimeout(() => { news.textContent = ""; }, 6000);
}

/** Animations and sounds for a new message, after it was rendered (from the two views). */
function afterMessage(prev, next) {
  const before = prev && prev.view && Array.isArray(prev.view.trick) ? prev.view.trick : [];
  const view = next.view;
  if (!view) return;
  const lastKey = (v) => (v && v.last_trick ? JSON.stringify(v.last_trick) : "");
  const completed = prev && prev.view && lastKey(view) && lastKey(view) !== lastKey(prev.view);
  const now = Array.isArray(view.trick) ? view.trick : [];
  const fresh = completed ? [] : now.slice(before.length);
  if (completed && !renderer) {
    const last = Array.isArray(view.last_trick) ? {cards: view.last_trick} : view.last_trick;
    const plays = (last.cards || []).filter((p) => p && p.card);
    if (plays.length) {
      holdTrick(plays, last.winner, (play) => playedCard(play, "played"),
        last.winner != null ? t("%(name)s wins the trick", {name: seatName(last.winner)}) : "", render);
      drawHeld();
      for (const play of plays.slice(before.length)) flyIn(play.seat, play.card);
    }
    playSound("trick");
  } else if (now.length) {
    if (!holding()) for (const play of fresh) if (play && play.card != null) flyIn(play.seat, play.card);
    if (fresh.some((p) => p && p.seat !== state.you)) playSound("card");
  }
  const mine = isMyTurn();
  if (mine && !wasMyTurn) playSound("turn");
  wasMyTurn = mine;
}

function render() {
  if (!state) return;
  const focus = rememberFocus();
  const seating = $("seating");
  if (seating && state.table.status !== "open") seating.hidden = true;
  if (renderer) {
    renderer.render(context());
  } else {
    renderSeats();
    if (state.view) {
      renderCenter();
      renderChoices();
      renderHand();
    }
  }
  renderPrompt();
  renderRoundResult();
  renderScores();
  drawHeld();
  enhance();
  restoreFocus(focus, isMyTurn());
}

function onMessage(msg) {
  if (msg.type === "snapshot" || msg.type === "event") {
    if (state && state.view && msg.state.view && state.view.round !== msg.state.view.round) selected = [];
    if (state && state.table.status === "open" && msg.state.table.status === "playing" && $("seating")) {
      $("seating").hidden = true;
    }
    if (renderer && renderer.onMessage) renderer.onMessage(msg, context());
    previousState = state;
    state = msg.state;
    seq = msg.seq;
    if (state.view && previousState && previousState.view && state.view.phase !== previousState.view.phase
        && state.view.phase !== "play") releaseTrick();
    render();
    afterMessage(previousState, state);
    if (msg.type === "event") tellEvents(msg.events);
  } else if (msg.type === "error") {
    sentFrom = null;  // refused: the player may choose again
    $("error").textContent = errorText(msg);
  } else if (msg.type === "closed" && msg.reason === "taken_over") {
    showTakenOver();
  }
}

/** The seat moved to another tab: say so over the board and offer to play here again. */
function showTakenOver() {
  const board = $("board");
  board.classList.add("inactive");
  let banner = $("taken-over");
  if (!banner) {
    banner = document.createElement("div");
    banner.id = "taken-over";
    banner.className = "taken-over";
    banner.setAttribute("role", "alert");
    const text = document.createElement("p");
    text.textContent = t("This seat is now being played in another tab or window.");
    const button = document.createElement("button");
    button.id = "play-here";
    button.textContent = t("Play here");
    button.addEventListener("click", () => {
      banner.remove();
      board.classList.remove("inactive");
      socket.resume();
    });
    banner.append(text, button);
    board.prepend(banner);
  }
}

// toolbar, dialogs and keys
const panels = buildPanels($("board"));
function showLastTrick() {
  const view = state && state.view;
  fillLastTrick(panels.lastDialog, view ? view.last_trick : null, seatName, cardSVG, cardName);
  if (!panels.lastDialog.open) panels.lastDialog.showModal();
}
function showSettings() { if (!panels.settingsDialog.open) panels.settingsDialog.showModal(); }
panels.last.addEventListener("click", showLastTrick);
panels.gear.addEventListener("click", showSettings);
bindSettings(panels.settingsDialog.querySelector("form"));
bindKeys({
  lastTrick: showLastTrick,
  settings: showSettings,
  closeAll: () => {
    const open = [...document.querySelectorAll("dialog[open]")];
    open.forEach((d) => d.close());
    return open.length > 0;
  },
});
document.addEventListener("pointerdown", unlockAudio, {once: true});
document.addEventListener("keydown", unlockAudio, {once: true});

const socket = new Socket({type: "hello", table: tableId, key: new URLSearchParams(location.search).get("key")}, onMessage, (text, ok) => {
  const conn = $("conn");
  conn.textContent = text;
  conn.classList.toggle("bad", !ok);
  if (ok) sentFrom = null;  // (re)connected: a move lost with the old connection may be sent again
});
socket.connect();
