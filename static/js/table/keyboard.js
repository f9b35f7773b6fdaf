// Keyboard play on the table page. ←/→ (and Home/End) move the focus among the hand's cards or
// among the action buttons, ↑/↓ switch between the buttons and the hand, Enter/Space press the
// focused card or button (native buttons). A button's shown key is the key that works: digits
// press the button whose data-key they spell — a key that begins a longer one waits a moment
// for the next digit ("1" then "2" is 12; "1" alone, or "1" and Enter, is 1). L shows the last
// trick, S opens the settings, ? the keys, Esc closes a dialog. The hand and the buttons each
// hold one tab stop (roving tabindex).

const GROUPS = ["choices", "hand"];
/** How long a digit that begins a longer key waits for the next one (ms). */
export const DIGIT_WAIT_MS = 900;

function items(group) {
  const box = document.getElementById(group);
  return box ? [...box.querySelectorAll("button")].filter((b) => !b.hidden && b.offsetParent !== null) : [];
}

function groupOf(node) {
  return GROUPS.find((g) => document.getElementById(g)?.contains(node)) || null;
}

/** Whether a card or button can be pressed now (not disabled, not aria-disabled). */
export function pressable(button) {
  return !button.disabled && button.getAttribute("aria-disabled") !== "true";
}

/** The focus before a re-render: which group and which position in it. */
export function rememberFocus() {
  const active = document.activeElement;
  const group = groupOf(active);
  if (!group) return {group: null, onBody: !active || active === document.body};
  return {group, index: items(group).indexOf(active)};
}

/** Give each group one tab stop and put the focus back where it was (or on the first
 * pressable card when the turn came to the player and nothing else holds the focus). */
export function restoreFocus(before, yourTurn) {
  for (const group of GROUPS) {
    const list = items(group);
    const first = list.findIndex(pressable);
    list.forEach((b, i) => { b.tabIndex = i === (first < 0 ? 0 : first) ? 0 : -1; });
  }
  let target = null;
  if (before.group) {
    let list = items(before.group);
    if (!list.length) list = items(GROUPS.find((g) => g !== before.group));
    const keep = list[Math.min(Math.max(before.index, 0), list.length - 1)];
    target = keep && pressable(keep) ? keep : (list.find(pressable) || keep);
  } else if (before.onBody && yourTurn && !document.querySelector("dialog[open]")) {
    target = items("choices").find(pressable) || items("hand").find(pressable);
  }
  if (target) focusItem(target, true);  // no scrolling: the page stays where the reader is
}

function focusItem(button, quietly = false) {
  const group = groupOf(button);
  if (group) for (const b of items(group)) b.tabIndex = b === button ? 0 : -1;
  button.focus({preventScroll: quietly});
}

function move(active, key) {
  const group = groupOf(active);
  if (!group) return false;
  if (key === "ArrowUp" || key === "ArrowDown") {
    const other = items(key === "ArrowUp" ? "choices" : "hand");
    if (!other.length) return false;
    focusItem(other.find(pressable) || other[0]);
    return true;
  }
  const list = items(group);
  const at = list.indexOf(active);
  const next = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: list.length - 1}[key];
  if (next === undefined || !list.length) return false;
  focusItem(list[(next + list.length) % list.length]);
  return true;
}

function typing(node) {
  return node && (node.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(node.tagName));
}

/** The buttons with a key on the table now. */
function keyed() {
  return [...document.querySelectorAll("#choices button[data-key]")].filter((b) => !b.hidden);
}

// digits typed so far that begin a longer key: {text, timer}
let typed = null;

function pressKey(text) {
  const button = keyed().find((b) => b.dataset.key === text);
  if (button && pressable(button)) { button.click(); return true; }
  return false;
}

/** A digit: press its button at once, or wait when it begins a longer key (12 after 1). */
function digit(key, onTyping) {
  const text = (typed ? typed.text : "") + key;
  if (typed) clearTimeout(typed.timer);
  const longer = keyed().some((b) => b.dataset.key.length > text.length && b.dataset.key.startsWith(text));
  if (!longer) {
    typed = null;
    onTyping("");
    if (!pressKey(text) && text.length > 1) pressKey(key);  // "1" "9": 19 is no key, 9 is
    return;
  }
  typed = {text, timer: setTimeout(() => { typed = null; onTyping(""); pressKey(text); }, DIGIT_WAIT_MS)};
  onTyping(text);
}

/** Listen for the table's keys. actions: {lastTrick(), settings(), keys(), closeAll(),
 * typing(text): the digits typed so far ("" when done)}. */
export function bindKeys(actions) {
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const active = document.activeElement;
    if (event.key === "Escape") { if (actions.closeAll()) event.preventDefault(); return; }
    if (typing(active)) return;
    if (document.querySelector("dialog[open]:not(.result)")) return;
    if (event.key === "Enter" && typed) {
      clearTimeout(typed.timer);
      const text = typed.text;
      typed = null;
      actions.typing("");
      pressKey(text);
      event.preventDefault();
      return;
    }
    if (document.querySelector("dialog.result[open]")) return;  // Enter/Tab act in the dialog
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) {
      if (move(active, event.key)) { event.preventDefault(); return; }
      if (!groupOf(active)) {
        const first = items("hand").find(pressable) || items("choices").find(pressable) || items("hand")[0];
        if (first) { focusItem(first); event.preventDefault(); }
      }
      return;
    }
    if (/^[0-9]$/.test(event.key)) {
      if (keyed().length) { digit(event.key, actions.typing); event.preventDefault(); }
      return;
    }
    const key = event.key.toLowerCase();
    if (key === "l") { actions.lastTrick(); event.preventDefault(); }
    if (key === "s") { actions.settings(); event.preventDefault(); }
    if (key === "?") { actions.keys(); event.preventDefault(); }
  });
}
