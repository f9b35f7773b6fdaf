// The lobby: the open tables list updated live over the WebSocket, and the New Game form's
// rules presets following the chosen game.
import {Socket} from "./socket.js";
import {ngettext, t} from "./i18n.js";
import {endText, playerName} from "./words.js";
import {showNotice} from "./notices.js";
import {goTo} from "./navigate.js";
import {startClocks} from "./countdown.js";
import {seatTakenOffer} from "./seat_taken.js";

const body = document.getElementById("tables-body");
// the New Game data with the words of the page's language (app/i18n/names.py)
const games = JSON.parse(document.getElementById("games-data").textContent);
const OPPONENTS = {any: t("Anyone"), friend: t("Friends"), invited: t("Invited players")};
const MODES = {duel: t("duel mode"), tournament: t("tournament mode")};

function gameLabel(name) {
  const info = games.find((g) => g.name === name);
  return info ? info.label : name;
}

function presetLabel(name, preset) {
  const info = games.find((g) => g.name === name);
  return (info && info.preset_labels[preset]) || preset || "";
}

function optionLabel(info, name) {
  return (info && info.option_labels && info.option_labels[name]) || name.replaceAll("_", " ");
}
const status = document.getElementById("lobby-status");

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text;
  row.appendChild(td);
  return td;
}

// the table of open tables, or (none open) the empty state inviting a New Game
const tablesTable = document.getElementById("tables");
const tablesEmpty = document.getElementById("tables-empty");
function renderTables(tables) {
  body.replaceChildren();
  tablesTable.hidden = !tables.length;
  tablesEmpty.hidden = Boolean(tables.length);
  for (const table of tables) {
    const row = document.createElement("tr");
    row.dataset.table = table.id;
    cell(row, gameLabel(table.game));
    const mode = MODES[table.mode];
    cell(row, presetLabel(table.game, table.preset) + (mode ? ` · ${mode}` : "")
      + (table.end ? ` · ${endText(table.end)}` : ""));
    cell(row, OPPONENTS[table.opponents] || table.opponents);
    cell(row, `${table.players - table.free}/${table.players}`);
    const names = cell(row, "");
    table.seats.forEach((seat, i) => {
      const name = document.createElement("span");
      name.className = "seat-name";
      name.textContent = playerName(seat) + (i < table.seats.length - 1 ? "," : "");
      names.append(name, " ");
    });
    const link = document.createElement("a");
    link.href = `/tables/${table.id}`;
    link.textContent = table.mine ? t("Open") : t("Join");
    cell(row, "").appendChild(link);
    body.appendChild(row);
  }
}

// "You are playing at table N — return": the running table where this person plays
const banner = document.getElementById("playing-banner");
// a refused New Game (POST /tables) already offers Return / Leave it (#seat-taken): one offer,
// not two, and the address is the lobby's again (a reload must not send the form again)
const refusedSeat = document.getElementById("seat-taken");
if (refusedSeat && location.pathname !== "/") history.replaceState(null, "", "/");
function renderPlaying(table) {
  if (!banner) return;
  banner.hidden = !table || Boolean(refusedSeat);
  if (!table) return;
  const link = banner.querySelector("a");
  link.href = `/tables/${table}`;
  link.textContent = t("You are playing at table %(table)s — return", {table});
}

const socket = new Socket({type: "hello", table: null}, (msg) => {
  if (msg.type === "lobby") { renderTables(msg.tables); renderPlaying(msg.playing); }
  if (msg.type === "friend_online") friendOnline(msg.name);
  showNotice(msg, gameLabel);
  if (msg.type === "play_now") goTo(`/tables/${msg.table}`);
}, (text, ok) => { status.textContent = ok ? "" : text; });
socket.connect();

function fill(select, values, selectLast, labels) {
  select.replaceChildren();
  values.forEach((value, i) => {
    const item = document.createElement("option");
    item.value = value;
    item.textContent = (labels && labels[value]) || value;
    if (selectLast && i === values.length - 1) item.selected = true;
    select.appendChild(item);
  });
}

// New Game: presets and seat counts follow the game; computer players at most seats - 1 - invited
const game = document.getElementById("game");
const preset = document.getElementById("preset");
const players = document.getElementById("players");
const bots = document.getElementById("bots");
// the people invited by name need seats of their own: a table the computer players fill
// would start without them
const inviteField = document.getElementById("invite");
function limitBots() {
  const invited = (inviteField?.value || "").split(/[\s,]+/).filter(Boolean).length;
  const max = Math.max(0, Number(players.value) - 1 - invited);
  for (const option of bots.options) option.disabled = Number(option.value) > max;
  if (Number(bots.value) > max) bots.value = String(max);
}

/** The [option, value] pairs of ``values`` in the order the rules core lists the options. */
function ordered(info, values) {
  const order = (info && info.option_order) || [];
  const rank = (name) => (order.includes(name) ? order.indexOf(name) : order.length);
  return Object.entries(values).sort(([a], [b]) => rank(a) - rank(b));
}

// on/off rule options of the chosen game and preset, preset values checked
function renderSwitches() {
  const box = document.getElementById("switches");
  const info = games.find((g) => g.name === game.value);
  const values = (info && info.switches[preset.value]) || {};
  box.replaceChildren();
  for (const [name, on] of ordered(info, values)) {
    const labelEl = document.createElement("label");
    labelEl.className = "switch";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.name = `opt_${name}`;
    input.id = `opt-${name}`;
    input.checked = on;
    labelEl.append(input, " " + optionLabel(info, name));
    box.appendChild(labelEl);
  }
  document.getElementById("switches-names").value = Object.keys(values).join(",");
  renderNumbers(info);
}

// number rule options of the chosen game and preset (catch window seconds, target coins, ...)
function renderNumbers(info) {
  const box = document.getElementById("numbers");
  if (!box) return;
  const values = (info && info.numbers && info.numbers[preset.value]) || {};
  box.replaceChildren();
  for (const [name, value] of ordered(info, values)) {
    const labelEl = document.createElement("label");
    const input = document.createElement("input");
    input.type = "number";
    // what the game's rules accept (Lobby.games' ranges, from its option_ranges)
    const range = ((info && info.ranges && info.ranges[preset.value]) || {})[name];
    input.step = range ? String(range.step) : "any";
    if (range) {
      input.min = String(range.min);
      input.max = String(range.max);
    }
    input.name = `opt_${name}`;
    input.id = `opt-${name}`;
    input.value = String(value);
    labelEl.append(optionLabel(info, name) + " ", input);
    box.appendChild(labelEl);
  }
  document.getElementById("numbers-names").value = Object.keys(values).join(",");
  renderNamed(info);
}

// options with named values (Doppelkopf: solo leads, wedding clarification, and with the
// GameTwist presets the table mode: standard, duel, tournament)
const OPTION_WORDS = () => ({
  table_mode: t("Table mode"), solo_leads: t("Who leads a solo"),
  wedding_clarification: t("Wedding: partner found by"),
});
const VALUE_WORDS = () => ({
  standard: t("Standard"),
  duel: t("Duel: two people opposite each other, two computer players, 4 deals"),
  tournament: t("Tournament: no card points, parties or announcements shown until the end"),
  left_of_dealer: t("The player left of the dealer"), soloist: t("The soloist"),
  any: t("The first trick won by another player"), first_non_trump: t("The first non-trump trick"),
  first_trump: t("The first trump trick"), named: t("The bride names her partner"),
});

// the table mode is a choice of its own (shown beside the rules); the other named options
// are folded with the rule options
const OWN_ROW = new Set(["table_mode"]);

function renderNamed(info) {
  const box = document.getElementById("named-options");
  const modeBox = document.getElementById("mode-options");
  if (!box) return;
  const values = (info && info.choices && info.choices[preset.value]) || {};
  const words = OPTION_WORDS();
  const valueWords = VALUE_WORDS();
  box.replaceChildren();
  if (modeBox) modeBox.replaceChildren();
  for (const [name, option] of Object.entries(values)) {
    const labelEl = document.createElement("label");
    const select = document.createElement("select");
    select.name = `opt_${name}`;
    select.id = `opt-${name}`;
    for (const value of option.values) {
      const item = document.createElement("option");
      item.value = value;
      item.textContent = valueWords[value] || value.replaceAll("_", " ");
      item.selected = value === option.value;
      select.appendChild(item);
    }
    select.addEventListener("change", () => followMode());
    labelEl.append((words[name] || name.replaceAll("_", " ")) + " ", select);
    (OWN_ROW.has(name) && modeBox ? modeBox : box).appendChild(labelEl);
  }
  document.getElementById("choices-names").value = Object.keys(values).join(",");
  followMode();
  noteChanges();
}

// the folded rule options say how many differ from the chosen rules
const ruleOptions = document.getElementById("rule-options");
function noteChanges() {
  const note = document.getElementById("rule-options-note");
  if (!ruleOptions || !note) return;
  const info = games.find((g) => g.name === game.value);
  const defaults = {...(info?.switches?.[preset.value] || {}), ...(info?.numbers?.[preset.value] || {})};
  for (const [name, option] of Object.entries(info?.choices?.[preset.value] || {})) defaults[name] = option.value;
  let changed = 0;
  for (const input of ruleOptions.querySelectorAll("input, select")) {
    const name = input.name.replace(/^opt_/, "");
    if (!(name in defaults)) continue;
    const value = input.type === "checkbox" ? input.checked : input.type === "number" ? Number(input.value) : input.value;
    if (value !== defaults[name]) changed += 1;
  }
  note.textContent = changed ? t("(%(count)s changed)", {count: changed}) : t("(as the rules say)");
}
if (ruleOptions) {
  ruleOptions.addEventListener("change", noteChanges);
  ruleOptions.addEventListener("input", noteChanges);
}

// the chosen game's line and the link to its rules page
function showGame() {
  const info = games.find((g) => g.name === game.value);
  const pitch = document.getElementById("game-pitch");
  const rules = document.getElementById("game-rules");
  if (!info) return;
  if (pitch) pitch.textContent = info.pitch || "";
  if (rules) {
    rules.hidden = !info.rules;  // a game without a rules page yet
    rules.href = `/rules/${info.name}`;
    rules.textContent = t("Rules of %(game)s", {game: info.label});
  }
}

// the names to invite matter only for a table of invited players
function followOpponents() {
  const box = document.getElementById("invite-box");
  const invited = document.querySelector("input[name=opponents][value=invited]");
  if (box && invited) box.hidden = !invited.checked && !document.getElementById("invite").value;
}

/** How the chosen game's match ends, stated as the table will state it (app.rooms.match):
 * Doppelkopf a number of deals, a multiple of the players (the Deals field); Doublehead Kids
 * the golden coins to win and Doppio the penalty limit (their rule options); Doppelganger
 * Tricks one round per player. The Deals field is shown only where it sets the end. */
function followEnd() {
  const info = games.find((g) => g.name === game.value);
  const note = document.getElementById("match-end-note");
  const box = document.getElementById("deals-box");
  const deals = document.getElementById("deals");
  const end = info && info.end;
  if (!end || !note || !box || !deals) return;
  const seats = Number(players.value) || 4;
  box.hidden = end.kind !== "deals";
  const range = (info.deals || {})[String(seats)];
  if (range) {
    deals.min = String(range.min);
    deals.max = String(range.max);
    deals.step = String(range.step);
  }
  const hint = document.getElementById("deals-hint");
  if (hint) hint.textContent = range && range.step > 1 ? t("(a multiple of %(count)s)", {count: range.step}) : "";
  const problem = end.kind === "deals" && range ? dealsProblem(deals.value, range) : "";
  // a number the lobby would refuse is not stated as the match: the note says why, in the
  // lobby's own words, and the form does not send it
  deals.setCustomValidity(problem);
  if (problem) {
    deals.setAttribute("aria-invalid", "true");
    deals.dataset.problem = "1";
  } else if (deals.dataset.problem) {  // its own mark only: a refusal of the server's stays
    deals.removeAttribute("aria-invalid");
    delete deals.dataset.problem;
  }
  note.classList.toggle("error", Boolean(problem));
  if (problem) {
    note.textContent = problem;
    return;
  }
  let target;
  if (end.kind === "deals") {
    target = Number(deals.value);
  } else if (end.kind === "rounds") {
    target = seats;
  } else {
    const input = document.getElementById(`opt-${end.option}`);
    target = input ? Number(input.value) : (info.numbers[preset.value] || {})[end.option];
  }
  note.textContent = t("Match: %(end)s.", {end: endText({kind: end.kind, target})});
}

/** Why the lobby would refuse ``value`` deals (app.lobby.service Lobby._match_deals, the same
 * words), or "" when it accepts it. ``range``: {min, max, step} of Lobby.games' ``deals``
 * (app.rooms.match.deals_range): every multiple of step from min to max. */
function dealsProblem(value, range) {
  const deals = Number(value);
  if (value !== "" && Number.isInteger(deals) && deals > range.max && deals % range.step === 0) {
    return t("at most %(count)s deals", {count: range.max});
  }
  if (value === "" || !Number.isInteger(deals) || deals < range.min || deals > range.max || deals % range.step) {
    return t("a multiple of %(count)s, so that everyone deals equally often", {count: range.step});
  }
  return "";
}

/** Duel mode fixes the table: four deals, two computer players (seats 2 and 4). */
function followMode() {
  const mode = document.getElementById("opt-table_mode");
  const note = document.getElementById("mode-note");
  const duel = mode && mode.value === "duel";
  const deals = document.getElementById("deals");
  if (duel) {
    deals.value = "4";
    bots.value = "2";
  }
  deals.readOnly = duel;
  followEnd();
  for (const option of bots.options) option.disabled = duel ? option.value !== "2" : option.disabled;
  if (!duel) limitBots();
  if (note) {
    note.textContent = duel ? t("Duel mode: you and one other person sit opposite each other; two computer players; 4 deals.")
      : mode && mode.value === "tournament" ? t("Tournament mode: card points, parties and announcements are revealed at the end of each deal.") : "";
  }
}

// The settings of the last New Game come back with the lobby ("Back to lobby" after a match):
// kept in localStorage when the form is sent, all but the names to invite. The values the
// server put in the form win (data-given: ?game=, ?challenge=), and a refused form (shown as it
// was sent, data-restore="no") is left alone.
const SAVED = "doppelrunde.newGame";
const newGame = document.getElementById("new-game");
const NOT_KEPT = new Set(["csrf", "invite", "switches", "numbers", "choices", "key"]);

function saveSettings() {
  const kept = {};
  for (const [name, value] of new FormData(newGame)) if (!NOT_KEPT.has(name)) kept[name] = value;
  for (const box of newGame.querySelectorAll("input[type=checkbox][name^=opt_]")) kept[box.name] = box.checked;
  try { localStorage.setItem(SAVED, JSON.stringify(kept)); } catch { /* private mode: not kept */ }
}

function savedSettings() {
  if (!newGame || newGame.dataset.restore === "no") return null;
  try { return JSON.parse(localStorage.getItem(SAVED) || "null"); } catch { return null; }
}

/** Put the saved ``settings`` back into the form (after the game's presets, seats and rule
 * options are drawn for it); a value the form does not offer any more is skipped. */
function restoreSettings(settings) {
  const given = new Set((newGame.dataset.given || "").split(",").filter(Boolean));
  const set = (name, value) => {
    if (given.has(name)) return;
    for (const field of newGame.querySelectorAll(`[name="${CSS.escape(name)}"]`)) {
      if (field.type === "checkbox") field.checked = value === true;
      else if (field.type === "radio") field.checked = field.value === value;
      else if (field.tagName !== "SELECT" || [...field.options].some((o) => o.value === String(value) && !o.disabled)) field.value = String(value);
    }
  };
  if (!given.has("game") && settings.game && settings.game !== game.value
      && [...game.options].some((o) => o.value === settings.game)) {
    game.value = settings.game;
    game.dispatchEvent(new Event("change"));
  }
  set("preset", settings.preset);
  renderSwitches();
  set("players", settings.players);
  limitBots();
  for (const [name, value] of Object.entries(settings)) {
    if (!["game", "preset", "players"].includes(name)) set(name, value);
  }
  followMode();
  noteChanges();
}

if (game && preset && players && bots) {
  preset.addEventListener("change", renderSwitches);
  game.addEventListener("change", () => {
    const option = game.selectedOptions[0];
    const info = games.find((g) => g.name === game.value);
    fill(preset, (option.dataset.presets || "").split(",").filter(Boolean), false,
      info && info.preset_labels);
    fill(players, (option.dataset.players || "").split(",").filter(Boolean), true);
    limitBots();
    renderSwitches();
    showGame();
  });
  players.addEventListener("change", () => { limitBots(); followEnd(); });
  inviteField?.addEventListener("input", limitBots);
  document.getElementById("deals")?.addEventListener("input", followEnd);
  ruleOptions?.addEventListener("input", followEnd);
  for (const radio of document.querySelectorAll("input[name=opponents]")) {
    radio.addEventListener("change", followOpponents);
  }
  limitBots();
  renderSwitches();
  showGame();
  const settings = savedSettings();
  if (settings) restoreSettings(settings);
  followOpponents();
  newGame.addEventListener("submit", saveSettings);
}

// the empty list's "New Game" goes to the form's first choice
document.getElementById("empty-new-game")?.addEventListener("click", (event) => {
  event.preventDefault();
  game?.focus();
  game?.scrollIntoView({block: "center", behavior: "smooth"});
});

// Play now: join a queue, then go to the table it forms (told over the lobby feed; polled too)
const playNow = document.getElementById("play-now");
if (playNow) {
  const playStatus = document.getElementById("play-now-status");
  const leaveQueue = document.getElementById("play-now-leave");
  const csrf = document.querySelector("meta[name=csrf-token]").content;
  let polling = null;
  const post = (path, body) => fetch(path, {method: "POST", body: JSON.stringify(body || {}),
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf}});
  const poll = async () => {
    const response = await fetch("/api/play-now");
    if (!response.ok) return;
    const state = await response.json();
    if (state.table) goTo(`/tables/${state.table}`);
    else if (state.queued) {
      // what the seconds count to: computer players fill the free seats (app/lobby/matchmaking.py)
      playStatus.textContent = state.fill_in > 0
        ? t("Waiting for players… computer players fill the free seats in %(seconds)s s", {seconds: state.fill_in})
        : t("Waiting for players… computer players are taking the free seats");
    }
  };
  // a second live seat refused: "Return to table N" or "Leave it" (then Play now again)
  const offerReturn = (table, retry) => {
    playStatus.append(seatTakenOffer(table, () => { renderPlaying(null); retry(); },
      (text) => { playStatus.textContent = text; }));
  };
  const start = async () => {
    const response = await post("/api/play-now", {game: document.getElementById("play-now-game").value});
    const body = await response.json();
    if (!response.ok) {
      playStatus.textContent = body.detail || t("Not possible now.");
      if (body.table) offerReturn(body.table, start);
      return;
    }
    playStatus.textContent = t("Waiting for players…");
    playNow.disabled = true;
    leaveQueue.hidden = false;
    polling = setInterval(poll, 1000);
  };
  playNow.addEventListener("click", start);
  leaveQueue.addEventListener("click", async () => {
    await post("/api/play-now/leave");
    clearInterval(polling);
    playNow.disabled = false;
    leaveQueue.hidden = true;
    playStatus.textContent = "";
  });
}

startClocks(document.getElementById("lobby-tournaments") || document);  // the tournaments box

// Who is here: how many people wait in Play now per game (polled), and the friends online
// (a friend coming online is added as the notice says so)
const waitingList = document.getElementById("play-now-waiting");
async function showWaiting() {
  const response = await fetch("/api/play-now/waiting").catch(() => null);
  if (!response || !response.ok) return;
  const {waiting} = await response.json();
  for (const item of waitingList.querySelectorAll("li[data-game]")) {
    const count = item.querySelector(".waiting-count");
    const people = waiting[item.dataset.game] || 0;
    count.dataset.count = String(people);
    count.textContent = ngettext("%(num)s waiting", "%(num)s waiting", people);
  }
}
if (waitingList) setInterval(showWaiting, 10000);

function friendOnline(name) {
  const line = document.getElementById("friends-online");
  if (!line || line.querySelector(`[data-friend="${CSS.escape(name)}"]`)) return;
  if (!line.querySelector(".friend-online")) line.textContent = t("Friends online:");
  else line.append(",");
  const item = document.createElement("span");
  item.className = "friend-online";
  item.dataset.friend = name;
  const profile = document.createElement("a");
  profile.href = `/players/${encodeURIComponent(name)}`;
  profile.textContent = name;
  const challenge = document.createElement("a");
  challenge.className = "challenge";
  challenge.href = `/?challenge=${encodeURIComponent(name)}#new-game-panel`;
  challenge.textContent = t("Challenge");
  challenge.setAttribute("aria-label", t("Challenge %(name)s", {name}));
  item.append(profile, " ", challenge);
  line.append(" ", item);
}
