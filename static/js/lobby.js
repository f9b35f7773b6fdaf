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

const game = document.getElementById("game");
const preset = document.getElementById("preset");
if (game && preset) {
  game.addEventListener("change", () => {
    const option = game.selectedOptions[0];
    preset.replaceChildren();
    for (const name of (option.dataset.presets || "").split(",").filter(Boolean)) {
      const item = document.createElement("option");
      item.textContent = name;
      preset.appendChild(item);
    }
  });
}
