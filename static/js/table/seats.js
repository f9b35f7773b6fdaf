// Seats around the table: the player at the bottom, the others clockwise in seat order (the
// next seat on the left, then across, then on the right), for 2, 3 and 4 players; and the seat
// plates (name, computer level, dealer, connection, badges from the game, cards in hand, the
// mover's clock). Seat numbers are the protocol's; data-seat="N" on every plate.
import {t} from "../i18n.js";
import {cardCount, playerName} from "../words.js";
import {el} from "../games/common.js";
import {cardBack} from "../cards.js";

const LAYOUTS = {2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"]};

/** The side of the table ``seat`` sits on when ``bottom`` is drawn at the bottom. */
export function sideOf(seat, bottom, players) {
  const layout = LAYOUTS[players] || LAYOUTS[4];
  return layout[((seat - bottom) % players + players) % players] || "top";
}

const LEVEL_WORDS = {beginner: t("beginner"), intermediate: t("intermediate"), expert: t("expert")};

function initials(name) {
  const words = String(name || "?").replace(/[^\p{L}\p{N} ]/gu, " ").trim().split(/\s+/);
  return (words[0] || "?").slice(0, 2).toUpperCase();
}

/** Format seconds in the page's language: 2.8 → "2.8" / "2,8" (digits: 0 or 1). */
export function seconds(value, digits = 0) {
  const lang = document.documentElement.lang || "en";
  return new Intl.NumberFormat(lang, {minimumFractionDigits: digits, maximumFractionDigits: digits})
    .format(value);
}

/**
 * The plate of one seat. ``ctx``: {state, seatName, plugin}; ``opts``: {side, mover (bool),
 * extra (Node|null: e.g. a replay's face-up hand)}.
 */
export function seatPlate(ctx, seat, opts) {
  const {state, plugin} = ctx;
  const view = state.view;
  const sat = state.table.seats.find((s) => s.seat === seat);
  // a person who left the match: the computer player of the table's level that has the seat
  // for good is shown there (the person's name only says whom it replaces)
  const info = sat && sat.left && !sat.bot ? {...sat, bot: state.table.skill || "intermediate", autoplay: false, connected: true} : sat;
  const plate = el("section", {class: `seat side-${opts.side}`, "data-seat": String(seat),
    "aria-label": info ? playerName(info) : t("free seat")});
  if (seat === state.you) plate.classList.add("you");
  if (opts.mover) plate.classList.add("to-move");
  if (info && !info.connected) plate.classList.add("away");
  const head = el("div", {class: "plate-head"});
  const avatar = el("span", {class: "avatar" + (info && info.bot ? " bot" : ""), "aria-hidden": "true"},
    info && info.bot ? "⚙" : initials(info ? info.name : "?"));
  const name = el("span", {class: "name"});
  if (info && info.bot) {
    // a narrow plate (a phone's side seats) shows "Comp. 2": a name never breaks inside or
    // between its words; the whole name stays for screen readers and in the title
    name.append(el("span", {class: "short", "aria-hidden": "true"}, t("Comp. %(number)s", {number: seat + 1})),
      el("span", {class: "long"}, t("Computer %(number)s", {number: seat + 1})));
  } else {
    name.textContent = info ? info.name : t("(free)");
  }
  name.title = info ? playerName(info) : "";
  head.append(avatar, name);
  if (view && view.dealer === seat) {
    head.append(el("span", {class: "chip dealer", title: t("dealer")}, t("D")));
  }
  plate.append(head);
  const line = el("div", {class: "plate-line"});
  if (info && info.bot) line.append(el("span", {class: "level"}, LEVEL_WORDS[info.bot] || info.bot));
  if (seat === state.you) line.append(el("span", {class: "level"}, t("you")));
  if (info && !info.bot) {
    line.append(el("span", {class: "conn-dot" + (info.connected ? " on" : ""),
      title: info.connected ? t("connected") : t("away")}, info.connected ? "" : t("away")));
  }
  if (info && info.autoplay) line.append(el("span", {class: "badge auto"}, t("computer playing")));
  if (info !== sat) {
    plate.classList.add("left");
    plate.setAttribute("aria-label", `${playerName(info)}, ${t("for %(name)s", {name: sat.name})}`);
    line.append(el("span", {class: "replaces", title: t("%(name)s left the table", {name: sat.name})},
      t("for %(name)s", {name: sat.name})));
  }
  const clock = el("span", {class: "turn-clock", "data-clock": String(seat)});
  clock.hidden = true;
  line.append(clock);
  plate.append(line);
  const badges = el("div", {class: "badges"});
  for (const badge of view ? plugin.seatBadges(ctx, seat) : []) {
    const node = el("span", {class: `badge ${badge.cls || ""}`.trim()});
    if (badge.short) {
      // narrow plates show the short form; the whole text stays for screen readers
      node.append(el("span", {class: "short", "aria-hidden": "true"}, badge.short),
        el("span", {class: "long"}, badge.text));
      node.title = badge.text;
    } else {
      node.textContent = badge.text;
    }
    // a badge too long for its plate ends in "…": the whole text is its title
    node.title = badge.title || badge.text;
    if (badge.data) for (const [k, v] of Object.entries(badge.data)) node.dataset[k] = v;
    badges.append(node);
  }
  plate.append(badges);
  const count = view && seat !== state.you && Array.isArray(view.hand_sizes) ? view.hand_sizes[seat] : null;
  if (count != null && !opts.extra) {
    const stack = el("span", {class: "held-cards", title: cardCount(count)});
    stack.append(cardBack(), el("span", {class: "count"}, String(count)));
    plate.append(stack);
  }
  if (plugin.seatExtra) {
    const extra = plugin.seatExtra(ctx, seat);
    if (extra) plate.append(extra);
  }
  if (opts.extra) plate.append(opts.extra);
  return plate;
}

/** Keep the move clocks on the plates counting down (timers: [{seat, remaining, at}]). */
export function tickClocks(root, timers) {
  const now = performance.now();
  const running = new Map(timers.map((timer) => [timer.seat, timer]));
  for (const clock of root.querySelectorAll("[data-clock]")) {
    const timer = running.get(Number(clock.dataset.clock));
    clock.hidden = !timer;
    if (!timer) continue;
    const left = Math.max(0, timer.remaining - (now - timer.at) / 1000);
    const shown = seconds(Math.ceil(left));
    clock.textContent = t("%(seconds)s s", {seconds: shown});  // (a reservation's: "×2" after it, table.css)
    clock.classList.toggle("low", left <= 5);
    clock.classList.toggle("reservation", Boolean(timer.reservation));
    // a reservation decision has twice the time per move (app/rooms/clocks.py): said where the clock is
    clock.title = timer.reservation
      ? t("Reservation: 2× the time per move; %(seconds)s s left", {seconds: shown})
      : t("%(seconds)s s left", {seconds: shown});
    clock.setAttribute("aria-label", clock.title);
  }
}
