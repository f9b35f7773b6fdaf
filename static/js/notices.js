// Live notices over the page's WebSocket (app/lobby/notices.py), on every page (the lobby's,
// the table's and the tournament's own sockets; elsewhere site.js's listen()): a friend request
// (Accept), a request accepted, a friend online, the answer to one's invitation (accepted or
// declined). Invitations to a table are cards of their own (loadInvitations): the inviter,
// game and rules with Join, Decline and Later (put aside for this tab's session), announced
// (role=alert), on every page until answered, put aside or the table starts (GET /api/invitations; the notices invite / invite_over reload them). Each is a line in #notices (the lobby's; the table's bar
// under its toolbar; a bar at the top of <main> on a page that has none) with a close button;
// data-notice says its type. Tournaments (app/tournaments/director.py): a round seated for the
// player ("Your tournament starts: go to table N", one click to the seat; a page that is not a
// table goes there by itself after 1.5 s), an invitation to a
// private tournament, the final place, a cancellation.
// At the table also the moves a computer player made for the player (showStoodIn): one notice,
// data-notice="stood_in", that stays until it is closed and gathers the moves while it is open.
import {ngettext, t} from "./i18n.js";
import {goTo} from "./navigate.js";
import {seatTakenOffer} from "./seat_taken.js";
import {personName} from "./words.js";

const TYPES = ["friend_request", "friend_accepted", "friend_online", "invite_answer", "tournament_start",
  "tournament_invite", "tournament_over", "tournament_cancelled"];
// how long the notice of moves made for the player stays (unless closed, pointed at or focused)
const STOOD_IN_MS = 20000;

function box() {
  let list = document.getElementById("notices");
  if (!list) {  // a page without a place for notices: a bar at the top of its main part, in
    // the page's flow, so that it covers no control (a floating box lay over the replay's)
    list = document.createElement("div");
    list.id = "notices";
    list.className = "notices page-notices";
    list.setAttribute("role", "status");
    list.setAttribute("aria-live", "polite");
    const main = document.querySelector("main");
    if (main) main.prepend(list); else document.body.append(list);
  }
  return list;
}

// invitations put aside with "Later" in this tab's session (table ids): the lobby still lists
// their tables, and a new invitation to another table shows again
const LATER_KEY = "doppelrunde-invitations-later";

function laterTables() {
  try { return new Set(JSON.parse(sessionStorage.getItem(LATER_KEY) || "[]").map(String)); }
  catch { return new Set(); }
}

function putAside(table) {
  const later = laterTables();
  later.add(String(table));
  try { sessionStorage.setItem(LATER_KEY, JSON.stringify([...later])); } catch { /* private mode */ }
}

/** Whether this page is a live table's (a seat there must not be taken from under its player). */
function atTable() {
  return /^\/tables\/\d+\/?$/.test(location.pathname);
}

function post(path, body) {
  const csrf = document.querySelector("meta[name=csrf-token]").content;
  return fetch(path, {method: "POST", body: JSON.stringify(body || {}),
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf}});
}

function button(text, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

/** Show ``msg`` if it is a notice; returns whether it was one. gameLabel(name): a game's
 * words (the lobby's), else the internal name. */
export function showNotice(msg, gameLabel = (name) => name) {
  if (msg.type === "invite" || msg.type === "invite_over") {
    loadInvitations();  // the invitation cards (their words in the page's language)
    return true;
  }
  if (msg.type === "friend_request_over") {  // answered on another page: its accept is stale
    for (const stale of box().querySelectorAll('[data-notice="friend_request"]')) {
      if (stale.dataset.from === msg.from) stale.remove();
    }
    return true;
  }
  if (!TYPES.includes(msg.type)) return false;
  const item = document.createElement("p");
  item.className = "notice";
  item.dataset.notice = msg.type;
  const text = document.createElement("span");
  text.className = "notice-text";
  item.append(text);
  if (msg.type === "invite_answer") {
    item.dataset.table = msg.table;
    item.dataset.answer = msg.answer;
    text.textContent = msg.answer === "accepted"
      ? t("%(name)s accepted your invitation to table %(table)s.", {name: personName(msg.from), table: msg.table})
      : t("%(name)s declined your invitation to table %(table)s.", {name: personName(msg.from), table: msg.table});
  } else if (msg.type === "friend_request") {
    item.dataset.from = msg.from;
    text.textContent = t("%(name)s asks to be your friend", {name: personName(msg.from)});
    item.append(button(t("accept"), "notice-accept", async () => {
      const answer = await post("/api/friends/accept", {name: msg.from});
      text.textContent = answer.ok ? t("You and %(name)s are friends now.", {name: msg.from})
        : ((await answer.json().catch(() => ({}))).detail || t("Not possible now."));
      item.querySelector(".notice-accept").remove();
    }));
  } else if (msg.type.startsWith("tournament_")) {
    tournamentNotice(msg, item, text);
  } else if (msg.type === "friend_accepted") {
    text.textContent = t("%(name)s accepted your friend request.", {name: msg.from});
  } else {
    text.textContent = t("%(name)s is online.", {name: msg.name});
  }
  item.append(button("✕", "link notice-close", () => item.remove()));
  item.querySelector(".notice-close").setAttribute("aria-label", t("Close"));
  box().append(item);
  return true;
}

/** A tournament's notice (see TYPES): its words and, for a seated round, the button that
 * takes the player to their seat. */
function tournamentNotice(msg, item, text) {
  item.dataset.tournament = msg.tournament;
  const link = document.createElement("a");
  if (msg.type === "tournament_start") {
    item.dataset.table = msg.table;
    link.href = `/tables/${msg.table}`;
    link.textContent = msg.round && msg.round > 1
      ? t("%(name)s, round %(round)s: go to table %(table)s", {name: msg.name, round: msg.round, table: msg.table})
      : t("Your tournament %(name)s starts: go to table %(table)s", {name: msg.name, table: msg.table});
    item.append(button(t("Go to my table"), "notice-join", () => goTo(`/tables/${msg.table}`)));
    // away from any table the player is taken to the seat (the deal starts at once); at a
    // table of their own they finish there and follow the notice's button
    if (!atTable()) setTimeout(() => goTo(`/tables/${msg.table}`), 1500);
  } else if (msg.type === "tournament_invite") {
    link.href = `/tournaments/${msg.tournament}?key=${encodeURIComponent(msg.key || "")}`;
    link.textContent = t("%(from)s invites you to the tournament %(name)s", {from: msg.from, name: msg.name});
  } else if (msg.type === "tournament_over") {
    link.href = `/tournaments/${msg.tournament}`;
    link.textContent = t("%(name)s is over: you placed %(place)s of %(of)s", {name: msg.name, place: msg.place, of: msg.of});
  } else {
    link.href = `/tournaments/${msg.tournament}`;
    link.textContent = t("A tournament you registered for was cancelled: too few players.");
  }
  text.append(link);
}

/** Tell the player what a computer player moved for them ({move, why}: their words, the
 * newest last). ``summary(moves, count)`` words the whole list and how many moves it stands
 * for: ``count`` {total, atLeast} (the server keeps only the newest moves of a long absence, and
 * counts them all: ``total`` defaults to moves.length). One notice gathers the moves while it is
 * open, so a returning player reads everything that was played for them. */
export function showStoodIn(moves, summary, count = {}) {
  let item = box().querySelector('[data-notice="stood_in"]');
  if (!item) {
    item = document.createElement("p");
    item.className = "notice stood-in";
    item.dataset.notice = "stood_in";
    item.moves = [];
    item.count = {total: 0, atLeast: false};
    const text = document.createElement("span");
    text.className = "notice-text";
    item.append(text, button("✕", "link notice-close", () => item.remove()));
    item.querySelector(".notice-close").setAttribute("aria-label", t("Close"));
    box().append(item);
  }
  item.moves.push(...moves);
  item.count.total += count.total ?? moves.length;
  item.count.atLeast = item.count.atLeast || Boolean(count.atLeast);
  item.querySelector(".notice-text").textContent = summary(item.moves, item.count);
  // it goes by itself after a while (the player has read it), not while pointed at
  clearTimeout(item.timer);
  const later = () => { item.timer = setTimeout(() => (item.matches(":hover, :focus-within") ? later() : item.remove()), STOOD_IN_MS); };
  later();
  return item;
}

// why a computer player moved for the player (app/rooms/clocks.py: the stood_in reasons)
const STOOD_IN_LISTED = 4;  // the notice names at most this many moves
const STOOD_IN_WHY = {timeout: t("your time ran out"), away: t("you were away"), left: t("you left the match")};

/** The stood-in notice's sentence: "The computer played King of clubs for you: your time ran
 * out." — or, for several moves, how many, why (the newest reason) and which (the newest few).
 * ``count``: {total, atLeast} — how many moves were made (the list may hold only the newest). */
export function stoodInSummary(moves, count = {}) {
  const why = STOOD_IN_WHY[moves[moves.length - 1].why] || STOOD_IN_WHY.timeout;
  const total = Math.max(count.total || 0, moves.length);
  const shown = moves.slice(-STOOD_IN_LISTED);
  const listed = shown.map((m) => m.move).join(", ");
  if (count.atLeast) {  // the count is unknown beyond the kept moves
    return ngettext("The computer made at least %(num)s move for you (%(why)s), the last %(listed)s: %(moves)s.",
      "The computer made at least %(num)s moves for you (%(why)s), the last %(listed)s: %(moves)s.", total, {why, moves: listed, listed: shown.length});
  }
  if (total > STOOD_IN_LISTED || total > moves.length) {  // a long absence: how many, and the newest few
    return ngettext("The computer made %(num)s move for you (%(why)s), the last %(listed)s: %(moves)s.",
      "The computer made %(num)s moves for you (%(why)s), the last %(listed)s: %(moves)s.", total, {why, moves: listed, listed: shown.length});
  }
  if (total > 1) {
    return ngettext("The computer made %(num)s move for you (%(why)s): %(moves)s.",
      "The computer made %(num)s moves for you (%(why)s): %(moves)s.", total, {why, moves: listed});
  }
  const [only] = moves;
  return only.card ? t("The computer played %(move)s for you: %(why)s.", {move: only.move, why})
    : t("The computer chose %(move)s for you: %(why)s.", {move: only.move, why});
}

/** The invitation cards: GET /api/invitations (the open tables the person is invited to and
 * has not answered), one card each (data-notice="invite", data-table), oldest gone first. */
export async function loadInvitations() {
  const response = await fetch("/api/invitations").catch(() => null);
  if (!response || !response.ok) return;
  const {invitations} = await response.json();
  const later = laterTables();
  const open = new Set(invitations.map((inv) => String(inv.table)).filter((id) => !later.has(id)));
  for (const card of document.querySelectorAll('[data-notice="invite"]')) {
    if (!open.has(card.dataset.table)) card.remove();
  }
  for (const inv of invitations.slice().reverse()) {
    if (!open.has(String(inv.table))) continue;
    if (!document.querySelector(`[data-notice="invite"][data-table="${inv.table}"]`)) invitationCard(inv);
  }
}

function invitationCard(inv) {
  const card = document.createElement("section");
  card.className = "notice invitation";
  card.dataset.notice = "invite";
  card.dataset.table = inv.table;
  card.setAttribute("role", "alert");
  const title = document.createElement("h2");
  title.className = "invitation-title";
  title.id = `invitation-${inv.table}`;
  title.textContent = t("Invitation from %(name)s", {name: inv.words.from});
  card.setAttribute("aria-labelledby", title.id);
  const text = document.createElement("p");
  text.className = "notice-text";
  text.textContent = t("%(name)s invites you to play %(game)s at table %(table)s.",
    {name: inv.words.from, game: inv.words.game, table: inv.table});
  const rules = document.createElement("p");
  rules.className = "invitation-rules";
  rules.textContent = t("Rules: %(rules)s · %(seats)s", {rules: inv.words.rules, seats: inv.words.seats});
  const actions = document.createElement("p");
  actions.className = "invitation-actions";
  const answer = (response, fallback) => response.json().catch(() => ({}))
    .then((body) => { text.textContent = body.detail || fallback; });
  actions.append(button(t("Join"), "notice-join", async () => {
    const joined = await post(`/api/tables/${inv.table}/join`);
    const body = await joined.clone().json().catch(() => ({}));
    if (joined.ok || (joined.status === 409 && !body.table)) goTo(`/tables/${inv.table}`);
    else if (body.table) {  // seated at another running table: Return to it, or Leave it and join
      text.textContent = body.detail || t("Not possible now.");
      card.querySelector(".seat-taken")?.remove();
      actions.querySelector(".notice-join").hidden = true;
      actions.after(seatTakenOffer(body.table, () => actions.querySelector(".notice-join").click(),
        (refused) => { text.textContent = refused; }));
    } else answer(joined, t("Not possible now."));
  }), button(t("Decline"), "secondary notice-decline", async () => {
    const declined = await post(`/api/tables/${inv.table}/decline`);
    if (declined.ok || declined.status === 404) card.remove();
    else answer(declined, t("Not possible now."));
  }), button(t("Later"), "link notice-later", () => {
    putAside(inv.table);  // the lobby still lists the table
    card.remove();
  }));
  card.append(title, text, rules, actions);
  box().prepend(card);
}

/** The live notices on a page without a socket of its own: a socket that says no hello (the
 * server sends every socket of a signed-in person their notices, app/lobby/hub.py). */
export function listen(attempt = 0) {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(scheme + location.host + "/ws");
  ws.onopen = () => { attempt = 0; };
  ws.onmessage = (event) => {
    try { showNotice(JSON.parse(event.data)); } catch { /* not a notice */ }
  };
  ws.onclose = () => setTimeout(() => listen(attempt + 1), Math.min(10000, 500 * 2 ** attempt));
}
