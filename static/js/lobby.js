// The lobby: the open tables list updated live over the WebSocket, and the New Game form's
// rules presets following the chosen game.
import {Socket} from "./socket.js";

const body = document.getElementById("tables-body");
const status = document.getElementById("lobby-status");

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text;
  row.appendChild(td);
  return td;
}

function renderTables(tables) {
  body.replaceChildren();
  if (!tables.length) {
    const row = document.createElement("tr");
    row.className = "empty";
    const td = cell(row, "No open tables. Start a New Game!");
    td.colSpan = 6;
    body.appendChild(row);
    return;
  }
  for (const t of tables) {
    const row = document.createElement("tr");
    row.dataset.table = t.id;
    cell(row, t.game);
    cell(row, t.preset || "");
    cell(row, t.opponents);
    cell(row, `${t.players - t.free}/${t.players}`);
    cell(row, t.seats.map((s) => s.name).join(", "));
    const link = document.createElement("a");
    link.href = `/tables/${t.id}`;
    link.textContent = t.mine ? "Open" : "Join";
    cell(row, "").appendChild(link);
    body.appendChild(row);
  }
}

const socket = new Socket({type: "hello", table: null}, (msg) => {
  if (msg.type === "lobby") renderTables(msg.tables);
}, (text, ok) => { status.textContent = ok ? "" : text; });
socket.connect();

function fill(select, values, selectLast) {
  select.replaceChildren();
  values.forEach((value, i) => {
    const item = document.createElement("option");
    item.textContent = value;
    if (selectLast && i === values.length - 1) item.selected = true;
    select.appendChild(item);
  });
}

// New Game: presets and seat counts follow the game; computer players at most seats - 1
const game = document.getElementById("game");
const preset = document.getElementById("preset");
const players = document.getElementById("players");
const bots = document.getElementById("bots");
function limitBots() {
  const max = Number(players.value) - 1;
  for (const option of bots.options) option.disabled = Number(option.value) > max;
  if (Number(bots.value) > max) bots.value = String(max);
}
const games = JSON.parse(document.getElementById("games-data").textContent);

// on/off rule options of the chosen game and preset, preset values checked
function renderSwitches() {
  const box = document.getElementById("switches");
  const info = games.find((g) => g.name === game.value);
  const values = (info && info.switches[preset.value]) || {};
  box.replaceChildren();
  for (const [name, on] of Object.entries(values)) {
    const labelEl = document.createElement("label");
    labelEl.className = "switch";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.name = `opt_${name}`;
    input.id = `opt-${name}`;
    input.checked = on;
    labelEl.append(input, " " + name.replaceAll("_", " "));
    box.appendChild(labelEl);
  }
  document.getElementById("switches-names").value = Object.keys(values).join(",");
}

if (game && preset && players && bots) {
  preset.addEventListener("change", renderSwitches);
  game.addEventListener("change", () => {
    const option = game.selectedOptions[0];
    fill(preset, (option.dataset.presets || "").split(",").filter(Boolean), false);
    fill(players, (option.dataset.players || "").split(",").filter(Boolean), true);
    limitBots();
    renderSwitches();
  });
  players.addEventListener("change", limitBots);
  limitBots();
  renderSwitches();
}
