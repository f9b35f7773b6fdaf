// The table's toolbar and its panels, built here so that every word goes through t(): Last
// trick (key L; not for Doppio), Score sheet and Chat (a side panel beside the felt on wide
// screens, a drawer over it on narrow ones, so neither pushes the hand below the fold), the
// game's rules (opens /rules/<game> in a new tab), the keys (desktop only: hidden on touch
// screens), and the settings (gear, key S). Dialogs are native <dialog> elements (Esc closes).
import {t} from "../i18n.js";
import {el} from "../games/common.js";
import {SPEED_LABELS} from "./settings.js";
import {icon} from "./icons.js";

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

const KEY_HELP = () => [
  ["← →", t("choose a card or a button")],
  ["↑ ↓", t("between the buttons and the hand")],
  [t("Enter, Space"), t("play the card, press the button")],
  ["0–9", t("the button with that key (bids: 1 then 2 is 12)")],
  ["L", t("the last trick")],
  ["S", t("settings")],
  ["Esc", t("close")],
];

/** A toolbar button: its icon and its name — in full on wide screens, ``short`` under the
 * icon on narrow ones (a phone has room for one short word per tool); the full name is always
 * its aria-label and title, so ``short`` must be words of it ("Sheet" of "Score sheet",
 * "Letzter" of "Letzter Stich"): what one sees is what one may say (WCAG label in name). */
function toolButton(id, text, image, short, attrs = {}) {
  const button = el("button", {type: "button", id, class: "tool", title: text, "aria-label": text, ...attrs});
  button.append(icon(image), el("span", {class: "tool-label", "aria-hidden": "true"}, text),
    el("span", {class: "tool-short", "aria-hidden": "true"}, short));
  return button;
}

/**
 * Build the toolbar into #table-tools and the dialogs; returns their elements.
 * options: {game, hasLastTrick, rulesUrl, extra: [nodes] (game switches)}.
 */
export function buildPanels(options) {
  const bar = document.getElementById("table-tools");
  const tools = {};
  if (options.hasLastTrick) {
    tools.last = toolButton("show-last-trick", t("Last trick"), "last", t("Last"),
      {"aria-keyshortcuts": "L", "aria-haspopup": "dialog"});
  }
  tools.sheet = toolButton("show-score-sheet", t("Score sheet"), "sheet", t("Sheet"), {"aria-controls": "side-panel"});
  tools.chat = toolButton("show-chat", t("Chat"), "chat", t("Chat"), {"aria-controls": "side-panel"});
  tools.chat.append(el("span", {class: "unread", id: "chat-unread", hidden: ""}));
  const rules = el("a", {href: options.rulesUrl, id: "rules-link", class: "tool", target: "_blank", rel: "noopener",
    title: t("Rules"), "aria-label": t("Rules")});
  rules.append(icon("rules"), el("span", {class: "tool-label", "aria-hidden": "true"}, t("Rules")),
    el("span", {class: "tool-short", "aria-hidden": "true"}, t("Rules")));
  tools.keys = toolButton("show-keys", t("Keys"), "keys", t("Keys"), {"aria-keyshortcuts": "?", "aria-haspopup": "dialog"});
  tools.keys.classList.add("keys-tool");
  tools.gear = toolButton("open-settings", t("Settings"), "settings", t("Settings"),
    {"aria-keyshortcuts": "S", "aria-haspopup": "dialog"});
  // Leave (Verlassen): shown while the player holds a seat in a running match (table.js)
  tools.leave = toolButton("leave-table", t("Leave"), "leave", t("Leave"), {"aria-haspopup": "dialog", hidden: ""});
  bar.append(...[tools.last, tools.sheet, tools.chat, rules, ...(options.extra || []), tools.keys, tools.gear,
    tools.leave].filter(Boolean));
  const settingsDialog = dialog("settings-dialog", t("Settings"));
  settingsDialog.querySelector(".dialog-body").append(settingsForm());
  const keysDialog = dialog("keys-dialog", t("Keys"));
  const list = el("dl", {class: "key-help", id: "key-help"});
  for (const [key, what] of KEY_HELP()) list.append(el("dt", {}, key), el("dd", {}, what));
  keysDialog.querySelector(".dialog-body").append(list);
  const leaveDialog = leaveConfirmation();
  document.body.append(settingsDialog, keysDialog, leaveDialog);
  bindSide(tools);
  return {...tools, settingsDialog, keysDialog, leaveDialog};
}

/** The confirmation of Leave (data-dialog="leave"): what happens is filled in by
 * ``explainLeave`` when it opens; #leave-confirm leaves, #leave-cancel stays. */
function leaveConfirmation() {
  const box = dialog("leave-dialog", t("Leave the table?"));
  box.setAttribute("role", "dialog");
  box.dataset.dialog = "leave";
  const body = box.querySelector(".dialog-body");
  const actions = el("div", {class: "dialog-actions"});
  actions.append(el("button", {type: "button", id: "leave-confirm"}, t("Leave the table")),
    el("button", {type: "button", class: "secondary", id: "leave-cancel"}, t("Stay")));
  body.append(el("p", {id: "leave-what"}), el("p", {id: "leave-rated"}), el("p", {class: "error", id: "leave-error", role: "alert"}), actions);
  actions.querySelector("#leave-cancel").addEventListener("click", () => box.close());
  return box;
}

/** Say in the Leave dialog what leaving does: a computer player of the table's level
 * (``levelName``) plays the seat to the end; with two people or more the match is rated and
 * counts as left early. */
export function explainLeave(box, state, levelName) {
  box.querySelector("#leave-what").textContent = t(
    "A computer player (%(level)s) takes your seat for the rest of the match. You cannot come back to this seat.",
    {level: levelName});
  const people = state.table.seats.filter((s) => !s.bot).length;
  box.querySelector("#leave-rated").textContent = people >= 2
    ? t("This match is rated: it counts as left early in your history and profile.")
    : t("This match is not rated: leaving is not held against you.");
  box.querySelector("#leave-error").textContent = "";
}

/** The side panel (score sheet and chat): tabs; on narrow screens a drawer that the toolbar
 * buttons open and close. */
function bindSide(tools) {
  const side = document.getElementById("side-panel");
  const show = (tab) => {
    const open = side.classList.contains("open") && side.dataset.tab === tab;
    side.dataset.tab = tab;
    side.classList.toggle("open", !open || window.matchMedia("(min-width: 1200px)").matches);
    tools.sheet.setAttribute("aria-pressed", String(side.classList.contains("open") && tab === "sheet"));
    tools.chat.setAttribute("aria-pressed", String(side.classList.contains("open") && tab === "chat"));
    if (tab === "chat") {
      document.getElementById("chat-unread").hidden = true;
      side.dataset.unread = "0";
    }
  };
  tools.sheet.addEventListener("click", () => show("sheet"));
  tools.chat.addEventListener("click", () => show("chat"));
  for (const tab of side.querySelectorAll("[data-show-tab]")) {
    tab.addEventListener("click", () => show(tab.dataset.showTab));
  }
  side.querySelector("#side-close").addEventListener("click", () => side.classList.remove("open"));
  side.dataset.tab = side.dataset.tab || "sheet";
  // new chat lines of others while the chat is not in view: a count on the Chat button. The
  // room's history (said before this page joined, msg.history) and one's own lines are read.
  const me = (document.getElementById("chat") || {dataset: {}}).dataset.me || "";
  window.addEventListener("dr-message", (event) => {
    const msg = event.detail;
    if (msg.type !== "chat" || msg.history) return;
    const seen = side.classList.contains("open") && side.dataset.tab === "chat";
    const wide = window.matchMedia("(min-width: 1200px)").matches && side.dataset.tab === "chat";
    const news = msg.lines.filter((line) => line.author !== me).length;
    if (seen || wide || !news) return;
    const count = Number(side.dataset.unread || 0) + news;
    side.dataset.unread = String(count);
    const badge = document.getElementById("chat-unread");
    badge.hidden = false;
    badge.textContent = String(count);
  });
}
