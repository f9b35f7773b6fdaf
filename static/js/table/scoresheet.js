// The score sheet as Doppelkopf players keep it: one row per deal with the game (contract and
// declarer), the announcements, the game value and each player's running total (the deal's
// score beside it). Games whose deals have no game value keep their own columns (deal, scores,
// running totals); a game plugin with its own sheet (Doublehead Kids) draws it itself.
import {t} from "../i18n.js";
import {endText, label, matchProgress} from "../words.js";

function cell(row, text, cls) {
  const td = row.insertCell();
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

/** The sheet's head row: ``columns`` (words), then each player's name from ``ctx.seatName``
 * (short beside the table: "Comp. 2"), whole in its title (``ctx.fullName``) where a narrow
 * column cuts it ("Guest-…"). */
export function sheetHeader(table, columns, ctx) {
  const players = ctx.state.table.players;
  const names = Array.from({length: players}, (_, s) => ctx.seatName(s));
  const titles = Array.from({length: players}, (_, s) => (ctx.fullName || ctx.seatName)(s));
  const head = table.createTHead().insertRow();
  for (const [i, text] of [...columns, ...names].entries()) {
    const th = document.createElement("th");
    th.scope = "col";
    if (i >= columns.length) {  // a name may be cut short ("…") in a narrow column: whole in the title
      th.dataset.seat = String(i - columns.length);
      th.title = titles[i - columns.length];
      const name = document.createElement("span");
      name.className = "seat-head";
      name.textContent = text;
      th.appendChild(name);
    } else {  // a narrow column may cut the word too ("Su…"): whole in the title
      th.textContent = text;
      th.title = text;
    }
    head.appendChild(th);
  }
}

/** "Value 4" on a line of its own in the game type's cell (the value in <span class="value">). */
function gameValue(value) {
  const line = document.createElement("small");
  line.className = "game-value";
  const number = document.createElement("span");
  number.className = "value";
  number.textContent = value;
  line.append(`${t("Value")} `, number);
  return line;
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

/** The match's end condition above the score sheet (<p id="sheet-end">): "Match: 8 deals." */
export function renderSheetEnd(node, state) {
  if (!node) return;
  const {end} = matchProgress(state);
  if (!end) return;
  node.dataset.end = end.kind;
  node.textContent = t("Match: %(end)s.", {end: endText(end)});
}

/** A score-sheet row's deal number: redeals keep the number of the deal they replace. */
export function dealLabel(round, i) {
  const n = round.deal ?? i + 1;
  return round.redeal ? t("%(n)s (redeal)", {n}) : String(n);
}

/** Fill <table id="scores">. ctx: {state, seatName, plugin}. */
export function renderSheet(table, ctx) {
  const {state, seatName, plugin} = ctx;
  renderSheetEnd(document.getElementById("sheet-end"), state);
  if (plugin && plugin.sheet) { plugin.sheet(table, ctx); return; }
  const rounds = state.scores.rounds;
  const players = state.table.players;
  const valued = rounds.some((r) => r.details && "game_value" in r.details);
  table.replaceChildren();
  // without a game column the Total row's word has the first column alone (table.css)
  table.classList.toggle("valued", valued);
  const caption = table.createCaption();
  caption.textContent = ctx.roundWord === "round" ? t("Score sheet: one row per round, running totals per player")
    : t("Score sheet: one row per deal, running totals per player");
  caption.className = "visually-hidden";
  // beside the table (ctx.compact) without the announcements (the deal results list them), and
  // the game value under the game type: a column of its own left the game type too narrow for
  // "Normalspiel" or "Damensolo"
  const anns = valued && !ctx.compact;
  const ownValue = valued && !ctx.compact;
  // a row is a deal or a round: the game's word, as on the table, the replay and the analysis
  const rowWord = ctx.roundWord === "round" ? t("Round") : t("Deal");
  sheetHeader(table, valued ? [rowWord, t("Game type"), ...(anns ? [t("Announcements")] : []),
    ...(ownValue ? [t("Value")] : [])] : [rowWord], ctx);
  const body = table.createTBody();
  const running = Array(players).fill(0);
  rounds.forEach((round, i) => {
    const row = body.insertRow();
    row.dataset.deal = String(i + 1);
    cell(row, dealLabel(round, i));
    if (valued) {
      const d = round.details || {};
      // a name may hold brackets itself ("Computer 2 (beginner)"): none around it
      const game = !d.contract ? "" : d.declarer != null && d.contract !== "normal"
        ? t("%(contract)s: %(player)s", {contract: label(d.contract), player: seatName(d.declarer)}) : label(d.contract);
      const gameCell = cell(row, game, "game");
      if (anns) cell(row, (d.announcements || []).map((a) => `${seatName(a.seat)}: ${label(a.value)}`).join(", "), "anns");
      const value = d.game_value != null ? String(d.game_value) : "";
      if (ownValue) cell(row, value, "value");
      else if (value) gameCell.append(gameValue(value));
    }
    round.scores.forEach((score, s) => {
      running[s] += score;
      const td = cell(row, "", "running");
      const total = document.createElement("strong");
      total.textContent = String(running[s]);
      const change = document.createElement("small");
      change.textContent = ` (${signed(score)})`;
      td.append(total, change);
    });
  });
  const total = table.createTFoot().insertRow();
  const first = cell(total, t("Total"));
  first.title = first.textContent;  // whole where a narrow column cuts it ("Su…")
  if (valued) first.colSpan = 2 + (anns ? 1 : 0) + (ownValue ? 1 : 0);
  for (const score of state.scores.totals) cell(total, String(score));
}
