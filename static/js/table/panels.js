// The table's toolbar and dialogs, built here so every word goes through t(): the Last trick
// button (key L) and dialog, the Settings button (gear, key S) and dialog, and the help line
// with the key map. Dialogs are native <dialog> elements (Esc closes them).
import {t} from "../i18n.js";
import {SPEED_LABELS} from "./settings.js";

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function dialog(id, title) {
  const box = el("dialog", {id, class: "table-dialog", "aria-labelledby": `${id}-title`});
  const head = el("div", {class: "dialog-head"});
  head.append(el("h2", {id: `${id}-title`}, title));
  const close = el("button", {type: "button", class: "secondary close", "aria-label": t("Close")}, "✕");
  close.addEventListener("click", () => box.close());
  head.append(close);
  box.append(head, el("div", {class: "dialog-body"}));
  return box;
}

function settingsForm() {
  const form = el("form", {id: "settings-form", method: "dialog"});
  const speed = el("fieldset");
  speed.append(el("legend", {}, t("Animation speed")));
  for (const [value, text] of Object.entries(SPEED_LABELS())) {
    const label = el("label");
    label.append(el("input", {type: "radio", name: "speed", value, id: `set-speed-${value}`}), " " + text);
    speed.append(label);
  }
  const reduced = el("label");
  reduced.append(el("input", {type: "checkbox", id: "set-reduced-motion"}), " " + t("Reduced motion (no moving cards)"));
  const sound = el("label");
  sound.append(el("input", {type: "checkbox", id: "set-sound"}), " " + t("Sound effects"));
  form.append(speed, reduced, sound);
  return form;
}

/** Build the toolbar (before #board) and the two dialogs; returns their elements. */
export function buildPanels(board) {
  const bar = el("div", {class: "table-tools", id: "table-tools"});
  const last = el("button", {type: "button", id: "show-last-trick", class: "secondary",
    "aria-keyshortcuts": "L", "aria-haspopup": "dialog"}, t("Last trick"));
  const gear = el("button", {type: "button", id: "open-settings", class: "secondary",
    "aria-keyshortcuts": "S", "aria-haspopup": "dialog", "aria-label": t("Settings")}, "⚙");
  gear.title = t("Settings");
  const help = el("p", {class: "key-help", id: "key-help"},
    t("Keys: ← → choose a card or button, ↑ ↓ between buttons and hand, Enter or Space plays, 1–9 press the numbered buttons (announcements), L last trick, S settings, Esc closes."));
  // what just happened at the table (an announcement as it is made), read out politely
  const news = el("p", {class: "table-news", id: "table-news", role: "status", "aria-live": "polite"});
  bar.append(last, gear, help, news);
  board.before(bar);
  const lastDialog = dialog("last-trick-dialog", t("Last trick"));
  const settingsDialog = dialog("settings-dialog", t("Settings"));
  settingsDialog.querySelector(".dialog-body").append(settingsForm());
  document.body.append(lastDialog, settingsDialog);
  return {last, gear, lastDialog, settingsDialog};
}

/** Fill the last-trick dialog: who played what (in order; the lead first) and who won. */
export function fillLastTrick(box, trick, seatName, cardSVG, cardName) {
  const body = box.querySelector(".dialog-body");
  body.replaceChildren();
  const plays = trick ? (Array.isArray(trick) ? trick : trick.cards || []) : [];
  if (!plays.length) {
    body.append(el("p", {}, t("No trick has been completed in this deal yet.")));
    return;
  }
  const list = el("ol", {class: "last-trick-list"});
  plays.forEach((play, i) => {
    const item = el("li");
    const fig = el("figure", {class: "played", "data-card": play.card});
    fig.append(cardSVG(play.card));
    const cap = el("figcaption", {}, i === 0 ? t("%(name)s (led)", {name: seatName(play.seat)}) : seatName(play.seat));
    fig.append(cap);
    item.append(fig, el("span", {class: "visually-hidden"}, cardName(play.card)));
    list.append(item);
  });
  body.append(list);
  if (trick && !Array.isArray(trick) && trick.winner != null) {
    body.append(el("p", {class: "winner", id: "last-trick-winner"},
      t("Won by %(name)s", {name: seatName(trick.winner)})));
  }
}
