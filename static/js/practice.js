// "Play from here" (app/lobby/practice.py): on the replay page, a dialog that opens a private
// table at the moment shown (the player's seat, the computer players' level); on that table's
// page (#practice-bar, templates/table.html), where it came from and, once the deal is over,
// the player's score there beside the one in the match — also in the match's result dialog,
// with "Try again from there" (the Rematch of a practice is another practice of that moment).
import {t} from "./i18n.js";
import {el} from "./games/common.js";

const $ = (id) => document.getElementById(id);

function csrf() {
  return document.querySelector("meta[name=csrf-token]").content;
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

/** Open a practice table at ``moment`` of table ``tableId``: resolves to its id, or throws an
 * Error with the server's words. */
async function startPractice(tableId, moment) {
  const response = await fetch(`/api/tables/${tableId}/practice`, {method: "POST",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf()},
    body: JSON.stringify(moment)});
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(typeof body.detail === "string" ? body.detail : t("The table could not be opened."));
    error.table = body.table;
    throw error;
  }
  return body.table;
}

export class PlayFromHere {
  /** The replay's button and dialog. opts: {tableId, players, seatName(seat), seat() (the
   * seat drawn at the bottom), moment() → {round, index, over, words}}. */
  constructor(opts) {
    this.opts = opts;
    this.dialog = $("practice-dialog");
    $("play-from-here").addEventListener("click", () => this.open());
    $("practice-cancel").addEventListener("click", () => this.dialog.close());
    $("practice-start").addEventListener("click", () => this.start());
    const seats = $("practice-seat");
    for (let seat = 0; seat < opts.players; seat++) seats.append(el("option", {value: String(seat)}, opts.seatName(seat)));
    this.update();
  }

  /** The button follows the moment shown: nothing is left to play once a deal is over. */
  update() {
    const button = $("play-from-here");
    const over = this.opts.moment().over;
    button.setAttribute("aria-disabled", over ? "true" : "false");
    button.title = over ? t("Nothing is left to play at this moment: go back to a moment before the end.")
      : t("Play on from this moment at a new table");
  }

  open() {
    const moment = this.opts.moment();
    if (moment.over) {
      $("prompt").textContent = t("Nothing is left to play at this moment: go back to a moment before the end.");
      return;
    }
    $("practice-moment").textContent = t("From: %(moment)s", {moment: moment.words});
    $("practice-seat").value = String(this.opts.seat());
    $("practice-error").textContent = "";
    $("practice-start").disabled = false;
    this.dialog.showModal();
  }

  async start() {
    const moment = this.opts.moment();
    $("practice-start").disabled = true;
    try {
      const id = await startPractice(this.opts.tableId, {round: moment.round, index: moment.index,
        seat: Number($("practice-seat").value), level: $("practice-level").value});
      location.assign(`/tables/${id}`);
    } catch (error) {
      const box = $("practice-error");
      box.replaceChildren(error.message);
      if (error.table) box.append(" ", el("a", {href: `/tables/${error.table}`}, t("Return to table %(table)s", {table: error.table})));
      $("practice-start").disabled = false;
    }
  }
}

/** The practice table's page: where it came from, and the two scores once the deal is over. */
async function watchPractice(bar) {
  const url = `/api/tables/${bar.dataset.table}/practice`;
  let info = null;
  const refresh = async () => {
    const response = await fetch(url);
    if (!response.ok) return;
    info = await response.json();
    const result = $("practice-result");
    result.textContent = info.played == null
      ? t("In the match you scored %(happened)s.", {happened: signed(info.happened)})
      : t("Here you scored %(played)s; in the match %(happened)s.", {played: signed(info.played), happened: signed(info.happened)});
    result.dataset.played = info.played == null ? "" : String(info.played);
    const dialog = $("match-result-dialog");
    if (dialog && dialog.open && info.played != null) compareInDialog(dialog, info);
  };
  // the deal's end opens a dialog: then the score is there
  new MutationObserver(() => refresh()).observe(document.body, {subtree: true, attributes: true, attributeFilter: ["open"]});
  await refresh();
}

/** In the match result: the comparison, "Try again from there" and the replay of the moment. */
function compareInDialog(dialog, info) {
  const rematch = dialog.querySelector("#rematch");
  if (rematch) rematch.hidden = true;  // a practice's rematch is another practice of the moment
  if (dialog.querySelector("#practice-compare")) return;
  const box = el("div", {class: "practice-compare", id: "practice-compare"});
  const better = info.played > info.happened;
  box.append(el("p", {class: "practice-scores"}, t("Here you scored %(played)s; in the match %(happened)s.",
    {played: signed(info.played), happened: signed(info.happened)}) + " " + (better ? t("Better than in the match.")
    : info.played === info.happened ? t("The same as in the match.") : t("Not as good as in the match."))));
  const again = el("button", {type: "button", class: "primary", id: "practice-again"}, t("Try again from there"));
  again.addEventListener("click", async () => {
    again.disabled = true;
    try {
      location.assign(`/tables/${await startPractice(info.source, {round: info.round, index: info.index,
        seat: info.seat, level: info.level})}`);
    } catch (error) {
      box.append(el("p", {class: "hint", role: "alert"}, error.message));
    }
  });
  const replay = el("a", {href: `/tables/${info.source}/replay?round=${info.round}&frame=${info.index}`,
    id: "practice-replay"}, t("Back to the replay of the match"));
  box.append(again, " ", replay);
  dialog.querySelector(".dialog-body").prepend(box);
}

const bar = $("practice-bar");
if (bar) watchPractice(bar);
