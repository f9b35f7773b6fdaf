// The table page: the server's messages become a queue of steps shown one after another with
// short, consistent pacing (static/js/table/settings.js): a played card flies in front of its
// player, a completed trick stays with its winner named and then goes to the winner, a finished
// deal opens its result over the table. The prompt and the legal cards of a turn appear only
// when every step before it has been shown (data-my-turn on [data-zone=prompt]). One table
// component draws every game (static/js/table/view.js); the game's parts come from its plugin
// (static/js/games/*.js). Everything is drawn from the seat's own view, text via textContent.
import {Socket} from "./socket.js";
import {showNotice, showStoodIn, stoodInSummary} from "./notices.js";
import {t} from "./i18n.js";
import {goTo} from "./navigate.js";
import {label, levelName, playerName} from "./words.js";
import {bindKeys, rememberFocus, restoreFocus} from "./table/keyboard.js";
import {fadeOut, flyFrom, sweepTo, wait} from "./table/motion.js";
import {bindSettings, timings} from "./table/settings.js";
import {play as playSound, unlockAudio} from "./table/sound.js";
import {renderSheet} from "./table/scoresheet.js";
import {buildPanels, explainLeave} from "./table/panels.js";
import {Dialogs} from "./table/dialogs.js";
import {TableView, bottomSeat} from "./table/view.js";
import {tickClocks} from "./table/seats.js";
import {trickFigures} from "./table/trickzone.js";
import {PLUGINS} from "./games/index.js";

const page = document.getElementById("table-page");
const tableId = Number(page.dataset.table);
const $ = (id) => document.getElementById(id);

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

let received = null;   // the newest state from the server
let shown = null;      // the step on the table now: {state, events, at}
let seq = 0;
let caughtUp = true;   // the table shows the newest state (interactive)
const queue = [];
let pumping = false;
let generation = 0;    // bumped by a snapshot: a step in progress stops
let dealWaiters = [];  // resolve() of "the next deal has arrived"
// read-only access for debugging and browser tests: the newest state, its seq, the shown one
window.doppelrunde = {get state() { return received; }, get seq() { return seq; },
  get shown() { return shown && shown.state; }, get idle() { return caughtUp; },
  get socket() { return socket; }};
const plugin = await PLUGINS[page.dataset.game]();

function seatName(seat) {
  const info = received && received.table.seats.find((s) => s.seat === seat);
  return info ? playerName(info) : t("Seat %(number)s", {number: seat + 1});
}

/** A seat's name for narrow places (the score sheet beside the table): a computer player
 * abbreviated, without its level ("Comp. 2"); the whole name is the header's title. */
function shortName(seat) {
  const info = received && received.table.seats.find((s) => s.seat === seat);
  if (info && info.bot) return t("Comp. %(number)s", {number: seat + 1});
  return seatName(seat);
}

function context(step) {
  return {state: step.state, view: step.state.view, you: step.state.you, events: step.events || [],
    at: step.at, seatName, send, latest: () => received, rerender: redraw,
    roundWord: plugin.roundWord || "deal",
    lowestWins: plugin.game === "doppio"};
}

// one move per state: a double click or a second key press before the server answers is not
// sent again (and refused as "not allowed")
let sentFrom = null;

function send(action) {
  const room = ["next_deal", "rematch", "back"].includes(action.type);
  if (!room) {
    if (sentFrom !== null && sentFrom === seq) return;
    sentFrom = seq;
  }
  const copy = {...action};
  delete copy.seat;
  hint("");
  socket.send({type: "action", action: copy});
}

let hintTimer = null;
let hintedAt = null;  // {state: the newest state, behind: the table was still catching up}
/** A line under the prompt: why a card cannot be played, or the server's refusal. It is about
 * the moment it was given: once the table has moved on (or caught up) to the player's turn,
 * it goes ("One moment: the table is still showing the last moves." included). */
function hint(text) {
  $("error").textContent = text;
  hintedAt = text ? {state: received, behind: !caughtUp} : null;
  clearTimeout(hintTimer);
  if (text) hintTimer = setTimeout(() => { $("error").textContent = ""; }, 5000);
}

const view = new TableView(plugin, {
  onCard(item, button, playable) {
    if (playable) {
      const action = item.press ? item.press() : item.action;
      if (action) { button.classList.add("sending"); send(action); } else redraw();
    } else if (caughtUp && item.selectable && item.toggle) {
      item.toggle();
      redraw();
    } else if (received && received.view) {
      // why not, by the newest state: the table may still be showing the moves before it
      const now = context({state: received, events: [], at: performance.now()});
      hint(!caughtUp && plugin.myTurn(now) ? t("One moment: the table is still showing the last moves.")
        : plugin.whyNot(now, item.code));
    }
  },
  onAction(spec) {
    if (spec.action && !spec.onClick) send(spec.action);
    if (spec.onClick) spec.onClick();
    if (spec.afterSend) spec.afterSend();
    if (spec.onClick) redraw();
  },
  onHint: hint,
});

/** Draw the shown step again (local choices changed: a selection, a navy card's suit). */
function redraw() {
  if (shown) draw(shown, {interactive: caughtUp});
}

let wasMine = false;
const baseTitle = document.title;
// where the keyboard focus was before steps that show no buttons or cards to press: it goes
// back there once the table is interactive again
let focusMemo = null;
// the player's last input: keys (the turn's first card or button gets the focus) or a pointer
let keyboardUser = false;
document.addEventListener("keydown", () => { keyboardUser = true; }, true);
document.addEventListener("pointerdown", () => { keyboardUser = false; }, true);

function draw(step, opts) {
  opts = withLingering(step, opts);
  const now = rememberFocus();
  if (now.group || !focusMemo) focusMemo = now;
  const ctx = context(step);
  view.render(ctx, opts);
  renderSheet($("scores"), {state: step.state, seatName: shortName, fullName: seatName, plugin, compact: true,
    roundWord: ctx.roundWord});
  const mine = $("prompt-zone").dataset.myTurn === "true";
  document.title = mine ? t("Your turn – Doppelrunde") : baseTitle;
  if (opts.interactive && mine && !wasMine) playSound("turn");
  if (opts.interactive) wasMine = mine;
  tickClocks($("seats"), timersOf(step));
  if (opts.interactive) {
    restoreFocus(focusMemo, mine && keyboardUser);  // a tap does not put a focus ring on a card
    focusMemo = null;
  }
  const seating = $("seating");
  if (seating && step.state.table.status !== "open") seating.hidden = true;
  // Leave: for a player of a running match (before the start the seating panel has its own)
  panels.leave.hidden = !(received && received.you != null && received.table.status === "playing" && !received.result);
  return ctx;
}

// Reduced motion: the last completed trick stays in the trick zone (held) until the next card
// of the same deal is played, as no pause shows it.
let lingering = null;

function withLingering(step, opts) {
  const view = step.state.view;
  if (opts.held || !lingering || !view || view.round !== lingering.round || plugin.trick(view).length) {
    if (!opts.held) lingering = null;
    return opts;
  }
  return {...opts, held: lingering.done};
}

function timersOf(step) {
  return (step.state.timers || []).map((timer) => ({...timer, at: step.at}));
}
setInterval(() => { if (shown) tickClocks($("seats"), timersOf(shown)); }, 250);

// --- the event queue -------------------------------------------------------------------------

function onMessage(msg) {
  if (msg.type === "snapshot") {
    generation += 1;
    queue.length = 0;
    received = msg.state;
    seq = msg.seq;
    dialogs.closeDeal();
    shown = {state: msg.state, events: [], at: performance.now()};
    caughtUp = true;
    draw(shown, {interactive: true});
    afterSnapshot();
  } else if (msg.type === "event") {
    const newDeal = received && received.view && msg.state.view && received.view.round !== msg.state.view.round;
    received = msg.state;
    seq = msg.seq;
    queue.push({state: msg.state, events: msg.events || [], action: msg.action, at: performance.now()});
    if (newDeal) {
      if (dialogs.waiting) $("board").classList.add("next-deal-held");  // see showDealResult
      dealWaiters.forEach((resolve) => resolve());
      dealWaiters = [];
    }
    dialogs.update(msg.state);
    if (msg.state.result) dialogs.rematch(context({state: msg.state}));
    pump();
  } else if (msg.type === "error") {
    sentFrom = null;  // refused: the player may choose again
    for (const b of document.querySelectorAll("#hand .sending")) b.classList.remove("sending");
    hint(ERRORS[msg.code] || msg.message);
  } else if (msg.type === "closed" && msg.reason === "taken_over") {
    showTakenOver();
  } else {
    showNotice(msg);  // a live notice: a friend, an invitation (static/js/notices.js)
  }
}

async function pump() {
  if (pumping) return;
  pumping = true;
  caughtUp = false;
  const mine = generation;
  try {
    while (queue.length && mine === generation) {
      const step = queue.shift();
      try {
        await showStep(step, mine);
      } catch (err) {
        console.error("a table step failed; drawing the state as it is", err);
        shown = step;
      }
    }
  } finally {
    pumping = false;
  }
  if (mine !== generation) return;
  caughtUp = true;
  const stale = hintedAt && (hintedAt.behind || hintedAt.state !== received);
  if (stale && shown && shown.state.view && plugin.myTurn(context(shown))) hint("");
  if (shown) draw(shown, {interactive: true});
}

function nextDealArrives() {
  return new Promise((resolve) => dealWaiters.push(resolve));
}

/** Show one server message: fly its new cards in, hold a completed trick, open a deal's
 * result; the state is drawn without prompt and legal cards until the queue is empty. */
async function showStep(step, mine) {
  const before = shown;
  const prev = before && before.state.view;
  const next = step.state.view;
  const ctx = context(step);
  const sameDeal = prev && next && prev.round === next.round;
  const done = sameDeal ? plugin.completedTrick(prev, next, ctx) : null;
  const earlier = sameDeal ? plugin.trick(prev) : [];
  const key = (p) => `${p.seat}:${p.card}`;
  const shownBefore = new Set(earlier.map(key));
  const fresh = (done ? done.plays : plugin.trick(next || {})).filter((p) => !shownBefore.has(key(p)));
  const handRects = new Map();
  for (const button of document.querySelectorAll("#hand button.card")) {
    if (!handRects.has(button.dataset.card)) handRects.set(button.dataset.card, button.getBoundingClientRect());
  }
  shown = step;
  const {fly, pause, collect, linger} = timings();
  draw(step, {interactive: false, held: done});
  tellEvents(step.events);
  tellStoodIn(step);
  if (fresh.length) {
    const you = step.state.you;
    await Promise.all(fresh.map((p) => {
      const fig = document.querySelector(`#trick [data-played-by="${p.seat}"][data-card="${CSS.escape(p.card)}"]`);
      const from = p.seat === you ? handRects.get(p.card) || view.seatRect(p.seat) : view.seatRect(p.seat);
      return flyFrom(fig, from, fly);
    }));
    if (fresh.some((p) => p.seat !== step.state.you)) playSound("card");
  }
  if (mine !== generation) return;
  if (done && linger) {
    playSound("trick");
    lingering = {done, round: next.round};
    draw(step, {interactive: false});
  } else if (done) {
    playSound("trick");
    await wait(pause);
    if (mine !== generation) return;
    const figs = [...document.querySelectorAll("#trick .trick-card")];
    const gone = (done.gone || []).map((i) => figs[i]).filter(Boolean);
    if (gone.length) await fadeOut(gone, collect);
    const rest = figs.filter((f) => !gone.includes(f));
    if (done.winner != null) await sweepTo(rest, document.querySelector(`#seats [data-seat="${done.winner}"]`), collect);
    else await fadeOut(rest, collect);
    if (mine !== generation) return;
    draw(step, {interactive: false});
  }
  const rounds = step.state.scores.rounds;
  const ended = before && rounds.length > before.state.scores.rounds.length;
  if (ended && step.state.result) {
    dialogs.showMatch(ctx, rounds[rounds.length - 1]);
  } else if (ended) {
    await showDealResult(ctx, rounds[rounds.length - 1], step.at);
  }
}

let newsTimer = null;

/** Say an announcement as it is made (tournament mode lists none: this is all one sees), and
 * when another seat's move clock ran out and a computer moved once for them (for one's own
 * seat the notice of tellStoodIn says what was played). */
function tellEvents(events) {
  const you = received && received.you;
  const said = (events || []).filter((e) => e && e.seat != null &&
      (e.type === "announced" || (e.type === "timeout" && e.seat !== you)))
    .map((e) => e.type === "timeout"
      ? t("%(player)s's time ran out: a computer player moved for them.", {player: seatName(e.seat)})
      : t("%(player)s announces %(announcement)s", {player: seatName(e.seat), announcement: label(e.value)}));
  if (!said.length) return;
  const news = $("table-news");
  news.textContent = said.join(" · ");
  clearTimeout(newsTimer);
  newsTimer = setTimeout(() => { news.textContent = ""; }, 6000);
}

const STOOD_IN_KEPT = 16;  // the server's state keeps this many (app/rooms/clocks.py STOOD_IN_KEPT)

/** A move in words for the stood-in notice: a card's name, a bid, a contract, a partner. */
function moveWords(action) {
  if (!action) return "";
  if (action.card != null) return plugin.cardName(String(action.card));
  if (action.type === "bid") return t("bid %(bid)s", {bid: action.value});
  if (action.partner != null) return t("Partner: %(player)s", {player: seatName(action.partner)});
  if (Array.isArray(action.cards)) return action.cards.map((c) => plugin.cardName(String(c))).join(", ");
  if (action.value != null) return label(action.value);
  return label(action.type || "");
}

function stoodIn(action, why) {
  return {move: moveWords(action), card: Boolean(action && action.card != null), why};
}

/** A computer player moved for the player in this step: tell them, with the move. */
function tellStoodIn(step) {
  const you = step.state.you;
  const event = (step.events || []).find((e) => e && e.type === "stood_in" && e.seat === you);
  if (event && you != null) showStoodIn([stoodIn(step.action, event.reason)], stoodInSummary);
}

/** After a (re)connection: a deal result or the match result still belongs on the table, and
 * the moves a computer player made for the player while they were away are told. */
function afterSnapshot() {
  const state = received;
  const missed = state.stood_in || [];
  if (missed.length && !document.querySelector('[data-notice="stood_in"]')) {
    // the server keeps the newest moves and counts them all (stood_in_total); a server without
    // the count: a full list may stand for more moves than it holds
    const known = typeof state.stood_in_total === "number";
    showStoodIn(missed.map((m) => stoodIn(m.action, m.reason)), stoodInSummary,
      {total: known ? state.stood_in_total : missed.length, atLeast: !known && missed.length >= STOOD_IN_KEPT});
  }
  const ctx = context(shown);
  const rounds = state.scores.rounds;
  if (state.result) dialogs.showMatch(ctx, rounds[rounds.length - 1]);
  else if (state.pause && rounds.length) showDealResult(ctx, rounds[rounds.length - 1], shown.at);
}

/** A deal's result over the table until the player goes on or its countdown ends. A result
 * opened on (re)connecting does not hold the table's messages back: if the next deal arrives
 * while it is up, that deal's cards stay hidden until it closes (as at a table that played on,
 * where the next deal is drawn after the result). */
function showDealResult(ctx, round, at) {
  return dialogs.showDeal(ctx, round, at, nextDealArrives()).then(() => {
    if (!dialogs.waiting) $("board").classList.remove("next-deal-held");  // not a newer result's
  });
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

// --- toolbar, dialogs, keys --------------------------------------------------------------------

const dialogs = new Dialogs(plugin, send);
const extra = plugin.toolbar ? plugin.toolbar({redraw}) : [];
const panels = buildPanels({hasLastTrick: plugin.hasLastTrick, rulesUrl: page.dataset.rules, extra});

function showLastTrick() {
  if (!plugin.hasLastTrick || !shown || !shown.state.view) return;
  const ctx = context(shown);
  const trick = plugin.lastTrick(shown.state.view, ctx);
  dialogs.showLast(trick, (held) => trickFigures(ctx, plugin, held.plays, held, bottomSeat(shown.state), true));
}
function showSettings() { if (!panels.settingsDialog.open) panels.settingsDialog.showModal(); }
function showKeys() { if (!panels.keysDialog.open) panels.keysDialog.showModal(); }
// the owner's invitation link (absolute): Copy link puts it on the clipboard
const copyLink = $("copy-link");
if (copyLink) {
  copyLink.addEventListener("click", async () => {
    const link = $("secret-link").textContent.trim();
    try {
      await navigator.clipboard.writeText(link);
    } catch {  // no clipboard (an insecure origin): select it for the keys
      getSelection().selectAllChildren($("secret-link"));
    }
    copyLink.textContent = copyLink.dataset.copied;
  });
}

// Leave (Verlassen): confirm, then a computer player takes the seat and the player goes back
// to the lobby (POST /api/tables/<id>/leave)
panels.leave.addEventListener("click", () => {
  if (!received || panels.leaveDialog.open) return;
  explainLeave(panels.leaveDialog, received, levelName(received.table.skill));
  panels.leaveDialog.showModal();
});
panels.leaveDialog.querySelector("#leave-confirm").addEventListener("click", async () => {
  const csrf = document.querySelector("meta[name=csrf-token]").content;
  const response = await fetch(`/api/tables/${tableId}/leave`, {method: "POST", body: "{}",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf}});
  if (response.ok) { goTo("/"); return; }
  const body = await response.json().catch(() => ({}));
  panels.leaveDialog.querySelector("#leave-error").textContent = body.detail || t("Not possible now.");
});
// the site's menu on a phone (templates/base.html: the header's links behind "☰ Menu")
const siteMenu = $("site-menu");
function toggleSiteMenu(open) {
  const header = siteMenu.closest("header");
  header.classList.toggle("menu-open", open);
  siteMenu.setAttribute("aria-expanded", String(header.classList.contains("menu-open")));
}
siteMenu.addEventListener("click", () => toggleSiteMenu());
if (panels.last) panels.last.addEventListener("click", showLastTrick);
panels.gear.addEventListener("click", showSettings);
panels.keys.addEventListener("click", showKeys);
bindSettings(panels.settingsDialog.querySelector("form"));
bindKeys({
  lastTrick: showLastTrick,
  settings: showSettings,
  keys: showKeys,
  typing: (text) => { $("typed-key").textContent = text ? t("Key: %(digits)s…", {digits: text}) : ""; },
  closeAll: () => {
    if (siteMenu.getAttribute("aria-expanded") === "true") { toggleSiteMenu(false); return true; }
    const open = [...document.querySelectorAll("dialog[open]:not(.result)")];
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
