// The table component: one view of the felt that draws live play, replays and finished deals
// alike. It knows the table's zones and nothing of any game; a game plugin (static/js/games/*)
// says what each zone holds (see docs/table.md "Game plugins"):
//
//   [data-zone=table]   the felt (#board): the seat plates around, the centre, prompt, hand
//   [data-zone=trick]   the trick in the middle; each card in front of its player
//                       (data-card, data-played-by), a completed trick until it is collected
//   [data-zone=prompt]  what to do now, with data-my-turn="true" exactly while the player acts,
//                       and the action buttons (#choices)
//   [data-zone=hand]    the player's hand (#hand): every card a button with data-card
//
// render(ctx, opts) draws a whole state; opts.interactive is false while the event queue still
// shows what led to that state (no prompt, no legal cards yet); opts.held is a completed trick
// to show instead of the state's trick. opts.mark (replays): a mark of the post-game analysis
// (static/js/analysis.js), {text, taken, better}: its text in #analysis-mark, and the hand's
// cards taken and better flagged with data-analysis="taken" / "better".
import {t} from "../i18n.js";
import {el} from "../games/common.js";
import {seatPlate, sideOf} from "./seats.js";
import {trickFigures} from "./trickzone.js";

const $ = (id) => document.getElementById(id);
/** A hand of more cards than this may lie in two rows (see TableView.splitHand). */
const TWO_ROWS_FROM = 8;

/** Where the seat at the bottom is: the player's own seat, or seat 0 for a watcher. */
export function bottomSeat(state) {
  return state.you == null ? 0 : state.you;
}

export class TableView {
  /** plugin: the game plugin; hooks: {onCard(item, button), onAction(spec)} (live play). */
  constructor(plugin, hooks = {}) {
    this.plugin = plugin;
    this.hooks = hooks;
    this.board = $("board");
  }

  /** Draw ``ctx.state``. opts: {interactive, held: {plays, winner, note, gone}|null,
   * hands: per-seat extra nodes (a replay's face-up hands), prompt: text over the plugin's}. */
  render(ctx, opts = {}) {
    const {state} = ctx;
    const view = state.view;
    this.board.dataset.players = String(state.table.players);
    this.board.dataset.phase = view ? String(view.phase ?? (view.over ? "over" : "")) : "waiting";
    this.renderSeats(ctx, opts);
    $("info").textContent = view ? this.plugin.info(ctx) : "";
    this.renderTrick(ctx, opts.held || null);
    const extra = $("centre-extra");
    extra.replaceChildren();
    if (view && this.plugin.centre) this.plugin.centre(ctx, extra, opts);
    this.renderPrompt(ctx, opts);
    this.renderHand(ctx, opts);
    this.renderMark(opts.mark || null);
  }

  /** The analysis mark of this moment (replays), or none. */
  renderMark(mark) {
    const note = $("analysis-mark");
    if (note) {
      note.hidden = !mark;
      note.textContent = mark ? mark.text : "";
    }
    if (!mark) return;
    for (const [kind, code] of [["taken", mark.taken], ["better", mark.better]]) {
      const card = code == null ? null : $("hand").querySelector(`[data-card="${CSS.escape(String(code))}"]`);
      if (card) card.dataset.analysis = kind;
    }
  }

  renderSeats(ctx, opts) {
    const {state} = ctx;
    const bottom = bottomSeat(state);
    const mover = state.view && !state.result ? this.plugin.turn(state.view) : null;
    const box = $("seats");
    box.replaceChildren();
    for (let seat = 0; seat < state.table.players; seat++) {
      box.append(seatPlate({...ctx, plugin: this.plugin}, seat, {
        side: sideOf(seat, bottom, state.table.players), mover: mover === seat,
        extra: opts.hands ? opts.hands[seat] : null}));
    }
  }

  /** The trick zone: the state's trick, or a completed trick being shown (held). */
  renderTrick(ctx, held) {
    const {state} = ctx;
    const zone = $("trick");
    zone.replaceChildren();
    zone.classList.toggle("held", Boolean(held));
    if (!state.view) return;
    const plays = held ? held.plays : this.plugin.trick(state.view);
    zone.append(...trickFigures(ctx, this.plugin, plays, held, bottomSeat(state)));
    // the winner's note and the learning aid's why, together under the trick (table.css)
    const notes = [];
    if (held && held.note) notes.push(el("p", {class: "trick-note", id: "trick-note"}, held.note));
    if (held && held.why) notes.push(el("p", {class: "trick-why", id: "aid-duel"}, held.why));
    if (notes.length) {
      const box = el("div", {class: "trick-notes"});
      box.append(...notes);
      zone.append(box);
    }
  }

  renderPrompt(ctx, opts) {
    const {state} = ctx;
    const zone = $("prompt-zone");
    const choices = $("choices");
    const live = opts.interactive && !ctx.replay;
    const mine = live && Boolean(state.view) && !state.result && this.plugin.myTurn(ctx);
    zone.dataset.myTurn = mine ? "true" : "false";
    this.board.classList.toggle("my-turn", mine);
    let text = opts.prompt;
    if (text == null) text = !state.view ? t("Waiting for players…") : state.result ? t("The match is over.")
      : live ? this.plugin.prompt(ctx) : this.plugin.waitingText(ctx);
    $("prompt").textContent = text || "";
    choices.replaceChildren();
    const specs = live && state.view ? this.plugin.actions(ctx) : [];
    const me = state.table.seats.find((s) => s.seat === state.you);
    if (!ctx.replay && me && me.autoplay) {  // in every step: it is about the seat, not a move
      $("prompt").textContent = t("A computer player is playing for you.");
      specs.unshift({id: "take-back", label: t("I'm back"), kind: "primary",
        onClick: () => this.hooks.onAction({action: {type: "back"}})});
    }
    const decision = specs.some((s) => s.decision);
    choices.classList.toggle("decision", decision);
    for (const spec of specs.filter((s) => !s.more)) {
      // a spec with a note is a line of text among the buttons (why these choices)
      choices.append(spec.note ? el("p", {class: "choices-note", id: "choices-note"}, spec.note) : this.button(spec));
    }
    this.renderMore(choices, specs.filter((s) => s.more));
  }

  /** The buttons a plugin folds (spec.more: e.g. the deeper announcements) behind a "More"
   * toggle at the end of the row; open, they follow it in the row. They stay in the DOM with
   * their data attributes and keys (a key presses a folded button too). */
  renderMore(choices, specs) {
    if (!specs.length) { this.moreOpen = false; return; }
    const group = el("span", {class: "more-choices", id: "more-choices"});
    group.hidden = !this.moreOpen;
    for (const spec of specs) group.append(this.button(spec));
    const names = specs.map((s) => s.label).join(", ");
    const toggle = el("button", {type: "button", class: "act more-toggle", id: "more-toggle",
      "aria-controls": "more-choices", "aria-expanded": String(Boolean(this.moreOpen)),
      title: t("More: %(choices)s", {choices: names})});
    toggle.append(el("span", {class: "label"}, this.moreOpen ? t("Less") : t("More…")));
    toggle.addEventListener("click", () => {
      this.moreOpen = !this.moreOpen;
      group.hidden = !this.moreOpen;
      toggle.setAttribute("aria-expanded", String(this.moreOpen));
      toggle.querySelector(".label").textContent = this.moreOpen ? t("Less") : t("More…");
      if (this.moreOpen) group.querySelector("button")?.focus();
    });
    choices.append(toggle, group);
  }

  button(spec) {
    const attrs = {type: "button", class: `act ${spec.kind || ""}`.trim()};
    if (spec.id) attrs.id = spec.id;
    const button = el("button", attrs);
    if (spec.action) {
      button.dataset.type = spec.action.type;
      const value = spec.action.value ?? spec.action.partner ?? spec.action.suit ?? "";
      button.dataset.value = String(value);
    }
    for (const [k, v] of Object.entries(spec.data || {})) button.dataset[k] = String(v);
    if (spec.key) {
      button.dataset.key = spec.key;
      if (spec.key.length === 1) button.setAttribute("aria-keyshortcuts", spec.key);
      button.append(el("kbd", {class: "key", "aria-hidden": "true"}, spec.key));
    }
    button.append(el("span", {class: "label"}, spec.label));
    if (spec.countdown) button.append(el("span", {class: "countdown", "data-countdown": ""}));
    if (spec.title) button.title = spec.title;
    if (spec.disabled) {
      button.setAttribute("aria-disabled", "true");
      button.classList.add("unavailable");
    }
    button.addEventListener("click", () => {
      if (spec.disabled) { if (spec.why && this.hooks.onHint) this.hooks.onHint(spec.why); return; }
      this.hooks.onAction(spec);
    });
    return button;
  }

  renderHand(ctx, opts) {
    const hand = $("hand");
    hand.replaceChildren();
    const {state} = ctx;
    if (!state.view) return;
    const live = opts.interactive && !ctx.replay;
    const items = this.plugin.handItems(ctx, {live});
    hand.style.setProperty("--n", String(Math.max(1, items.length)));
    const rows = this.plugin.handGroups ? this.plugin.handGroups(ctx, items) : [items];
    rows.forEach((group, i) => {
      if (i > 0) hand.append(el("span", {class: "hand-divider", role: "separator", "aria-orientation": "vertical"}));
      for (const item of group) hand.append(this.cardButton(ctx, item, live));
    });
    hand.classList.toggle("grouped", rows.length > 1);
    this.splitHand(hand, rows.length === 1 ? items.length : 0);
  }

  /** A long hand may lie in two rows (table.css does so on a phone held upright, where one
   * row leaves a finger too narrow a strip of each card): the second row starts after the
   * first half, marked by a break that only that layout shows. */
  splitHand(hand, count) {
    const many = count > TWO_ROWS_FROM;
    hand.classList.toggle("many", many);
    if (!many) return;
    const first = Math.ceil(count / 2);
    hand.style.setProperty("--row-n", String(first));
    const cards = hand.querySelectorAll(".card");
    cards[first].before(el("span", {class: "hand-break", "aria-hidden": "true"}));
    cards[first].classList.add("row-start");
    for (let i = first; i < count; i++) cards[i].classList.add("front-row");
  }

  cardButton(ctx, item, live) {
    // a replay's hand is a picture, not buttons
    const button = ctx.replay ? el("span", {class: "card", "data-card": item.code, role: "img",
      "aria-label": this.plugin.cardName(item.code)}) : el("button", {type: "button", class: "card", "data-card": item.code});
    if (item.position) button.dataset.position = item.position;
    for (const cls of item.classes || []) button.classList.add(cls);
    button.append(this.plugin.face(item.code));
    if (item.label) button.append(el("span", {class: "card-label"}, item.label));
    if (item.title) button.title = item.title;
    const playable = live && item.playable;
    if (playable) button.classList.add("legal");
    else if (live && item.selectable) button.classList.add("selectable");
    else button.setAttribute("aria-disabled", "true");
    if (ctx.replay) { button.removeAttribute("aria-disabled"); return button; }
    if (live && item.selected) button.classList.add("selected");
    if (!playable && !(live && item.selectable)) button.classList.add("unplayable");
    button.addEventListener("click", () => this.hooks.onCard && this.hooks.onCard(item, button, playable));
    return button;
  }

  /** The screen rectangle of a seat's plate (cards fly in from there). */
  seatRect(seat) {
    const plate = document.querySelector(`#seats [data-seat="${seat}"]`);
    return plate ? plate.getBoundingClientRect() : null;
  }
}
