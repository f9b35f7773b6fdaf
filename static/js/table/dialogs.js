// The dialogs over the table: the result between deals (role="dialog", data-dialog="deal-result",
// with "Next deal" and a countdown), the end of the match (data-dialog="match-result": final
// standings, the winners, "Rematch" and "Back to lobby"), and the Last trick view. Built here so
// that every word goes through t(); they are non-modal <dialog>s over the felt, so chat and the
// score sheet stay usable, and the focus moves into them.
import {t} from "../i18n.js";
import {endText, matchProgress, progressText} from "../words.js";
import {el} from "../games/common.js";
import {seconds} from "./seats.js";
import {goTo} from "../navigate.js";

/** The smallest time the deal result stays up unless the player presses Next deal (ms). */
export const MIN_RESULT_MS = 3000;

function dialog(id, title, kind) {
  const box = el("dialog", {id, class: `table-dialog ${kind || ""}`.trim(), role: "dialog",
    "aria-labelledby": `${id}-title`});
  const head = el("div", {class: "dialog-head"});
  head.append(el("h2", {id: `${id}-title`}, title));
  box.append(head, el("div", {class: "dialog-body"}));
  return box;
}

function closeButton(box) {
  const close = el("button", {type: "button", class: "secondary close", "aria-label": t("Close")}, "✕");
  close.addEventListener("click", () => box.close());
  box.querySelector(".dialog-head").append(close);
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

/** Each player's score of the deal and running total (the rows in seat order). */
function totalsTable(ctx, round) {
  const {state, seatName} = ctx;
  const table = el("table", {class: "totals", id: "deal-totals"});
  const head = table.createTHead().insertRow();
  const words = ctx.roundWord === "round" ? [t("Player"), t("This round"), t("Total")] : [t("Player"), t("This deal"), t("Total")];
  for (const text of words) head.append(el("th", {scope: "col"}, text));
  const body = table.createTBody();
  state.scores.totals.forEach((total, seat) => {
    const row = body.insertRow();
    row.dataset.seat = String(seat);
    if (seat === state.you) row.classList.add("you");
    row.insertCell().textContent = seatName(seat);
    row.insertCell().textContent = round ? signed(round.scores[seat]) : "";
    row.insertCell().textContent = String(total);
  });
  return table;
}

/** The final standings: rank, player, total; the winners marked. */
function standings(ctx) {
  const {state, seatName} = ctx;
  const winners = new Set(state.result.winners);
  const order = state.result.totals.map((total, seat) => ({seat, total}))
    .sort((a, b) => (winners.has(b.seat) - winners.has(a.seat)) || (ctx.lowestWins ? a.total - b.total : b.total - a.total));
  const table = el("table", {class: "totals standings", id: "standings"});
  const head = table.createTHead().insertRow();
  for (const text of [t("Place"), t("Player"), t("Total")]) head.append(el("th", {scope: "col"}, text));
  const body = table.createTBody();
  let place = 0;
  let last = null;
  order.forEach((entry, i) => {
    if (last === null || entry.total !== last) place = i + 1;
    last = entry.total;
    const row = body.insertRow();
    row.dataset.seat = String(entry.seat);
    if (winners.has(entry.seat)) row.classList.add("winner");
    row.insertCell().textContent = winners.has(entry.seat) ? `★ ${place}` : String(place);
    row.insertCell().textContent = seatName(entry.seat);
    row.insertCell().textContent = String(entry.total);
  });
  return table;
}

/** Centre a result dialog over the felt (#board), not over the window: on a wide screen the
 * side panel takes the right of the window, and a dialog centred in the window covered the
 * right-hand seat. table.css reads --over-x/--over-y/--over-w. */
function overTheFelt(box) {
  const felt = document.getElementById("board");
  if (!felt) return;
  const r = felt.getBoundingClientRect();
  if (!r.width) return;
  box.style.setProperty("--over-w", `${r.width}px`);
  // the felt's centre, as far as the dialog (once open, its size known) stays in the window
  const inside = (centre, size, room) => (size ? Math.min(Math.max(centre, size / 2 + 4), room - size / 2 - 4) : centre);
  box.style.setProperty("--over-x", `${inside(r.left + r.width / 2, box.offsetWidth, innerWidth)}px`);
  box.style.setProperty("--over-y", `${inside(r.top + r.height / 2, box.offsetHeight, innerHeight)}px`);
}

export class Dialogs {
  constructor(plugin, send) {
    this.plugin = plugin;
    this.send = send;
    this.deal = dialog("deal-result", "", "result");
    this.deal.dataset.dialog = "deal-result";
    this.match = dialog("match-result-dialog", t("The match is over"), "result");
    this.match.dataset.dialog = "match-result";
    this.last = dialog("last-trick-dialog", t("Last trick"));
    closeButton(this.last);
    this.last.setAttribute("aria-modal", "true");
    document.body.append(this.deal, this.match, this.last);
    const place = () => { for (const box of [this.deal, this.match]) if (box.open) overTheFelt(box); };
    addEventListener("resize", place);
    // a result that grows (its last deal unfolded) stays in the window
    if (window.ResizeObserver) for (const box of [this.deal, this.match]) new ResizeObserver(place).observe(box);
    this.waiting = null;  // the open deal result: {resolve, timer, deadline, clicked}
  }

  /**
   * Show a finished deal over the table until the player presses Next deal, or the countdown
   * ends (the server's pause, at least MIN_RESULT_MS). Resolves when the table may go on.
   * ctx: the table context of the state after the deal; round: its score-sheet row;
   * nextDeal: a Promise that resolves when the next deal's first message has arrived.
   */
  showDeal(ctx, round, at, nextDeal) {
    this.closeDeal();
    const {state} = ctx;
    const body = this.deal.querySelector(".dialog-body");
    body.replaceChildren();
    const {end} = matchProgress(state);
    this.deal.querySelector("h2").textContent = progressText(end, round.deal ?? state.scores.rounds.length);
    if (round.redeal) body.append(el("p", {class: "summary-game"}, t("Redeal: the cards are dealt again.")));
    body.append(this.plugin.dealSummary(ctx, round.details || {}, round), totalsTable(ctx, round));
    const foot = el("div", {class: "dialog-foot"});
    const rounds = ctx.roundWord === "round";
    const next = el("button", {type: "button", id: "next-deal", class: "primary"});
    next.append(el("span", {class: "label"}, rounds ? t("Next round") : t("Next deal")));
    const note = el("span", {class: "countdown-note", id: "next-deal-countdown", role: "status"});
    foot.append(next, note);
    body.append(foot);
    const serverLeft = state.pause ? state.pause.remaining * 1000 : 0;
    // the server's pause runs from the message's arrival (``at``); the 3 s from the moment the
    // dialog opens (after the last trick was shown, which may take a second or two)
    const deadline = Math.max((at || performance.now()) + serverLeft, performance.now() + MIN_RESULT_MS);
    this.deal.show();
    overTheFelt(this.deal);
    next.focus({preventScroll: true});
    this.deal.scrollTop = 0;  // the result from its top, not scrolled to the button
    return new Promise((resolve) => {
      const waiting = {resolve, deadline, clicked: false, ready: state.pause ? state.pause.ready : [], ctx};
      this.waiting = waiting;
      const finish = () => { if (this.waiting === waiting) this.closeDeal(); };
      const tick = () => {
        const left = Math.max(0, waiting.deadline - performance.now());
        note.textContent = waiting.clicked && waiting.pausing
          ? t("Waiting for the others… (%(seconds)s s)", {seconds: seconds(Math.ceil(left / 1000))})
          : rounds ? t("Next round in %(seconds)s s", {seconds: seconds(Math.ceil(left / 1000))})
            : t("Next deal in %(seconds)s s", {seconds: seconds(Math.ceil(left / 1000))});
        if (left <= 0) finish();
      };
      waiting.timer = setInterval(tick, 200);
      tick();
      next.addEventListener("click", () => {
        waiting.clicked = true;
        next.setAttribute("aria-disabled", "true");
        if (state.you == null) { finish(); return; }  // a watcher only closes the result
        this.send({type: "next_deal"});
        // the server's pause still runs for others: wait for the next deal (or the countdown)
        waiting.pausing = Boolean(ctx.latest().pause);
        if (!waiting.pausing) finish(); else tick();
      });
      // the next deal has begun on the server: go on once the player said so (else the
      // countdown, at least MIN_RESULT_MS, keeps the result up)
      nextDeal.then(() => { if (waiting.clicked) finish(); });
    });
  }

  /** A newer state arrived while the deal result is up (others said Next deal, the pause ended). */
  update(state) {
    const waiting = this.waiting;
    if (!waiting) return;
    if (waiting.clicked && !state.pause) this.closeDeal();
  }

  closeDeal() {
    const waiting = this.waiting;
    this.waiting = null;
    if (this.deal.open) this.deal.close();
    if (waiting) {
      clearInterval(waiting.timer);
      waiting.resolve();
    }
  }

  /** The end of the match: standings, winners, the last deal, Rematch and Back to lobby. */
  showMatch(ctx, round) {
    const {state, seatName} = ctx;
    const body = this.match.querySelector(".dialog-body");
    if (!this.match.open) {
      body.replaceChildren();
      const winners = state.result.winners.map(seatName).join(", ");
      const everyone = state.result.winners.length > 1 && state.result.winners.length === state.table.players;
      body.append(el("p", {class: "result", id: "match-result"}, everyone
        ? t("A draw: everyone finished level.") : t("Winner: %(players)s", {players: winners})));
      const {end} = matchProgress(state);
      if (end) body.append(el("p", {class: "match-end", id: "match-end-result", "data-end": end.kind}, t("Match: %(end)s.", {end: endText(end)})));
      body.append(standings(ctx));
      if (round) {
        const last = el("details", {class: "last-deal"});
        last.append(el("summary", {}, ctx.roundWord === "round" ? t("The last round") : t("The last deal")),
          this.plugin.dealSummary(ctx, round.details || {}, round));
        body.append(last);
      }
      const foot = el("div", {class: "dialog-foot"});
      const again = el("button", {type: "button", id: "rematch", class: "primary"}, t("Rematch"));
      const lobby = el("button", {type: "button", id: "back-to-lobby", class: "secondary"}, t("Back to lobby"));
      // a tournament's table (templates/table.html #table-tournament): back to its page
      const cup = document.getElementById("table-tournament");
      const back = cup && el("a", {href: cup.getAttribute("href"), id: "back-to-tournament", class: "button"},
        t("Back to the tournament"));
      again.addEventListener("click", () => {
        again.setAttribute("aria-disabled", "true");
        this.accepted = true;
        this.send({type: "rematch"});
      });
      lobby.addEventListener("click", () => {
        if (state.you != null) this.send({type: "rematch", accept: false});
        setTimeout(() => goTo("/"), 150);
      });
      const sheet = el("a", {href: `/tables/${state.table.id}/scores`, id: "score-sheet-link"}, t("Score sheet"));
      const replay = el("a", {href: `/tables/${state.table.id}/replay`, id: "replay-link"}, t("Replay"));
      // a watcher has no seat to play again; a table served from the stored log (its actor
      // has unloaded) offers no rematch any more (state.rematch null)
      if (state.you == null || !state.rematch) again.hidden = true;
      // the links on a line of their own below the buttons (they used to wrap there anyway)
      const links = el("p", {class: "dialog-links"});
      links.append(sheet, replay);
      foot.append(...[again, back, lobby].filter(Boolean), links);
      body.append(foot, el("p", {class: "rematch-status", id: "rematch-status", role: "status"}));
      this.match.show();
      overTheFelt(this.match);
      (again.hidden ? back || lobby : again).focus({preventScroll: true});
      this.match.scrollTop = 0;
    }
    this.rematch(ctx);
  }

  /** The rematch's state: who accepted, who declined; off to the new table once it exists. */
  rematch(ctx) {
    const {state, seatName} = ctx;
    const status = document.getElementById("rematch-status");
    const vote = state.rematch;
    if (!status) return;
    if (!vote) {
      // (a tournament's table never offers one: its page says what comes next)
      if (state.you != null && !document.getElementById("table-tournament")) {
        status.textContent = t("This match is closed: a rematch is no longer offered here.");
      }
      return;
    }
    if (vote.table) {
      if (this.accepted) {  // this page said yes: off to the new table
        status.textContent = t("Rematch: off to the new table…");
        goTo(`/tables/${vote.table}`);
      } else {
        status.replaceChildren(el("a", {href: `/tables/${vote.table}`, id: "rematch-table"},
          t("The rematch is being played: to its table")));
      }
      return;
    }
    const people = state.table.seats.filter((s) => !s.bot && s.connected).map((s) => s.seat);
    const open = people.filter((s) => !vote.accepted.includes(s) && !vote.declined.includes(s));
    // the reader is "you", never their own name: "Waiting for you and Bert…"
    const others = (seats) => seats.filter((s) => s !== state.you).map(seatName).join(", ");
    const mine = (seats) => seats.includes(state.you);
    const parts = [];
    const accepted = vote.accepted;
    if (accepted.length) {
      parts.push(!mine(accepted) ? t("Rematch accepted by %(players)s.", {players: others(accepted)})
        : accepted.length === 1 ? t("Rematch accepted by you.")
          : t("Rematch accepted by you and %(players)s.", {players: others(accepted)}));
    }
    if (vote.declined.length) parts.push(t("%(players)s declined.", {players: vote.declined.map(seatName).join(", ")}));
    if (accepted.length && open.length) {
      parts.push(!mine(open) ? t("Waiting for %(players)s…", {players: others(open)})
        : open.length === 1 ? t("Waiting for you…")
          : t("Waiting for you and %(players)s…", {players: others(open)}));
    }
    status.textContent = parts.join(" ");
  }

  /** Fill and open the Last trick view: the cards in front of their players, the winner. */
  showLast(trick, draw) {
    const body = this.last.querySelector(".dialog-body");
    body.replaceChildren();
    if (!trick) {
      body.append(el("p", {}, t("No trick has been completed in this deal yet.")));
    } else {
      body.append(draw(trick));
      body.append(el("p", {class: "winner", id: "last-trick-winner"}, trick.note));
      if (trick.why) body.append(el("p", {class: "why", id: "last-trick-why"}, trick.why));
    }
    if (!this.last.open) this.last.showModal();
  }
}
