// A tournament's page (templates/tournament.html): its standings, rounds, tables and
// duplicate deals live over the WebSocket ({"type": "hello", "tournament": id}: the server
// sends {"type": "tournament", "tournament": {...}} now and on every change, app/tournaments/hub.py),
// the start countdown, the person's notices, and "Go to my table" when their table is seated.
import {Socket} from "./socket.js";
import {ngettext, t} from "./i18n.js";
import {label, playerName} from "./words.js";
import {showNotice} from "./notices.js";
import {startClocks} from "./countdown.js";

const root = document.getElementById("tournament");
const me = Number(root.dataset.user) || null;
const STATUS = {scheduled: t("Upcoming"), running: t("Running"), finished: t("Finished"), cancelled: t("Cancelled")};

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function standings(data) {
  const body = document.getElementById("standings-body");
  body.replaceChildren();
  if (!data.players.length) {
    const row = el("tr", "empty");
    const cell = el("td", "", t("Nobody has registered yet."));
    cell.colSpan = 5;
    row.append(cell);
    body.append(row);
    return;
  }
  for (const p of data.players) {
    const row = el("tr", p.user_id === me ? "me" : "");
    row.dataset.user = p.user_id;
    const name = el("td", "", p.name);
    if (p.status === "paused") name.append(" ", el("span", "mark paused", t("not seated")));
    if (p.absent) {
      const mark = el("span", "mark absent", ngettext("absent %(num)s×", "absent %(num)s×", p.absent));
      mark.title = t("absent at the start; a computer played the seat");
      name.append(" ", mark);
    }
    row.append(el("td", "", p.played ? String(p.rank) : "–"), name, el("td", "score", String(p.score)),
      el("td", "opt", String(p.tables_won)), el("td", "opt", String(p.played)));
    body.append(row);
  }
}

function tableList(tables, visibility) {
  const list = el("ul", "tourney-tables");
  for (const table of tables) {
    const item = el("li", table.finished ? "finished" : "playing");
    item.dataset.table = table.id;
    const seats = el("span", "table-seats");
    for (const s of table.seats) {
      const seat = el("span", "seat" + (s.bot ? " bot" : "") + (s.user_id === me ? " me" : ""),
        playerName(s) + (s.absent ? "*" : "") + " ");
      seat.append(el("b", "", String(s.score)));
      seats.append(seat);
    }
    // the table's own number (the table page's "Table 14"), a link to it where one may watch;
    // a private tournament's tables are their players' only (Invited tables)
    const open = visibility === "public" || table.seats.some((s) => s.user_id === me);
    const number = el("span", "table-no");
    const label = t("Table %(number)s", {number: table.id});
    if (open) {
      const to = el("a", "", label);
      to.href = `/tables/${table.id}`;
      number.append(to);
    } else number.textContent = label;
    item.append(number, seats);
    if (open) {
      const link = el("a", "watch", table.finished ? t("Replay") : t("Watch"));
      link.href = table.finished ? `/tables/${table.id}/replay` : `/tables/${table.id}`;  // the replay offers the analysis
      item.append(link);
    }
    list.append(item);
  }
  return list;
}

function rounds(data) {
  const box = document.getElementById("rounds");
  box.replaceChildren();
  if (data.format === "arena") {
    if (data.tables.length) box.append(tableList(data.tables, data.visibility));
    else box.append(el("p", "empty", t("No match yet.")));
    return;
  }
  if (!data.schedule.length) {
    box.append(el("p", "empty", ngettext("%(num)s round; round 1 is drawn at the start.",
      "%(num)s rounds; round 1 is drawn at the start.", data.rounds)));
    return;
  }
  for (const r of data.schedule) {
    const head = el("h3", "", t("Round %(num)s of %(rounds)s", {num: r.number, rounds: data.rounds}) + " · ");
    head.append(el("span", "round-status", r.status === "done" ? t("finished") : t("playing")));
    box.append(head, tableList(r.tables, data.visibility));
  }
}

/** How a table played a duplicate deal, in words: "Queens solo (seat 2) · Re 98 : Kontra 142". */
function played(row) {
  const p = row.played || {};
  const parts = [];
  if (p.contract) {
    parts.push(label(p.contract) + (p.declarer !== undefined && p.declarer !== null && p.contract !== "normal"
      ? " " + t("(seat %(seat)s)", {seat: p.declarer + 1}) : ""));
  }
  if (p.card_points) parts.push(`Re ${p.card_points.re} : Kontra ${p.card_points.kontra}`);
  return parts.join(" · ");
}

function boards(data) {
  const box = document.getElementById("boards");
  if (!box) return;
  box.replaceChildren();
  if (!data.boards.length) {
    box.append(el("p", "empty", t("The deals appear here as the tables play them.")));
    return;
  }
  for (const b of data.boards) {
    const div = el("div", "board");
    div.append(el("h3", "", t("Round %(round)s, deal %(deal)s", {round: b.round, deal: b.deal})));
    if (!b.compared) div.append(el("p", "note", t("Only one table played these cards: no comparison was possible.")));
    const table = el("table", "scores board-table");
    const head = el("tr");
    head.append(el("th", "", t("Table")));
    b.tables[0].scores.forEach((_s, i) => head.append(el("th", "", t("Seat %(seat)s", {seat: i + 1}))));
    const thead = el("thead");
    thead.append(head);
    const tbody = el("tbody");
    for (const row of b.tables) {
      const tr = el("tr");
      const cell = el("td");
      const link = el("a", "", String(row.number));
      link.href = `/tables/${row.table}`;
      cell.append(link);
      tr.append(cell);
      row.scores.forEach((score, i) => {
        const td = el("td", "", playerName(row.seats[i]) + " ");
        td.append(el("b", "", String(score)));
        tr.append(td);
      });
      tbody.append(tr);
      const how = played(row);
      if (how) {  // how this table played the cards, on a line of its own under its scores
        const line = el("tr", "played-row");
        const cell = el("td", "played", how);
        cell.colSpan = row.scores.length + 1;
        line.append(cell);
        tbody.append(line);
      }
    }
    const foot = el("tfoot");
    const avg = el("tr");
    avg.append(el("td", "", t("Average")));
    b.averages.forEach((a) => avg.append(el("td", "", String(a))));
    foot.append(avg);
    table.append(thead, tbody, foot);
    div.append(table);
    box.append(div);
  }
}

function myTable(data) {
  const tables = [...data.schedule.flatMap((r) => r.tables), ...data.tables];
  const mine = [...tables].reverse().find((table) => !table.finished && table.seats.some((s) => s.user_id === me));
  const box = document.getElementById("my-table");
  box.hidden = !mine;
  if (mine) {
    document.getElementById("my-table-link").href = `/tables/${mine.id}`;
    document.getElementById("my-table-text").textContent = t("You play at table %(table)s.", {table: mine.id});
  }
}

function form(verb, text, cls, id) {
  const f = el("form", "inline");
  f.method = "post";
  f.action = `/tournaments/${root.dataset.tournament}/${verb}` + (root.dataset.key ? `?key=${encodeURIComponent(root.dataset.key)}` : "");
  const csrf = el("input");
  csrf.type = "hidden";
  csrf.name = "csrf";
  csrf.value = document.querySelector("meta[name=csrf-token]").content;
  const b = el("button", cls, text);
  b.id = id;
  f.append(csrf, b);
  return f;
}

/** The buttons as they fit now (the server's page had those of its moment): sign up,
 * unregister, leave or pause, rejoin; the owner's cancel stays while the tournament is open. */
function actions(data) {
  const box = document.getElementById("tournament-actions");
  if (!me || !box) return;
  const cancel = box.querySelector("#cancel")?.closest("form");
  const mine = data.players.find((p) => p.user_id === me);
  const parts = [];
  const open = data.status === "scheduled" || (data.status === "running" && data.format === "arena");
  if (!mine && open) {
    parts.push(data.registered < data.max_players ? form("register", t("Sign up"), "big", "register") : el("span", "badge", t("Full")));
  } else if (mine && data.status === "scheduled") {
    parts.push(el("span", "badge mine", t("Registered")), form("unregister", t("Unregister"), "secondary", "unregister"));
  } else if (mine && data.status === "running") {
    if (mine.status === "paused") {
      parts.push(el("span", "badge", t("You are not seated in the next round.")), form("resume", t("Rejoin"), "", "resume"));
    } else {
      parts.push(el("span", "badge mine", t("Registered")),
        form("unregister", data.format === "arena" ? t("Pause") : t("Leave the tournament"), "secondary", "leave"));
    }
  } else if (mine) {
    parts.push(el("span", "badge mine", t("Registered")));
  }
  if (cancel && (data.status === "scheduled" || data.status === "running")) parts.push(cancel);
  box.replaceChildren(...parts);
}

function render(data) {
  const status = document.getElementById("tournament-status");
  status.textContent = STATUS[data.status] || data.status;
  status.className = `badge status-${data.status}`;
  document.getElementById("tournament-start").dataset.status = data.status;
  document.getElementById("tournament-count").textContent =
    t("%(registered)s/%(max)s players", {registered: data.registered, max: data.max_players});
  standings(data);
  rounds(data);
  boards(data);
  if (me) myTable(data);
  actions(data);
  const next = document.getElementById("next-round");
  next.hidden = !data.next_round_at;
  if (data.next_round_at) {
    next.firstChild.textContent = t("Round %(num)s:", {num: data.current_round + 1}) + " ";
    document.getElementById("next-round-at").dataset.countdown = data.next_round_at;
  }
  document.getElementById("standings-live").hidden = data.status !== "running";
  document.getElementById("standings-word").textContent = data.status === "finished" ? t("Final standings") : t("Standings");
}

function onMessage(msg) {
  if (msg.type === "tournament") render(msg.tournament);
  else showNotice(msg);
}

startClocks();
render(JSON.parse(document.getElementById("tournament-data").textContent));
const hello = {type: "hello", tournament: Number(root.dataset.tournament)};
if (root.dataset.key) hello.key = root.dataset.key;
new Socket(hello, onMessage, () => {}).connect();
