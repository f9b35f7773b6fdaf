// Keyboard play on the table page. ←/→ (and Home/End) move the focus among the hand's cards or
// among the action buttons, ↑/↓ switch between the buttons and the hand, Enter/Space press the
// focused card or button (native buttons), 1-9 press the numbered action buttons
// (announcements), L shows the last trick, S opens the settings, Esc closes a dialog.
// The hand and the buttons each hold one tab stop (roving tabindex).

const GROUPS = ["choices", "hand"];

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
  } else if (before.onBody && yourTurn) {
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

/** Listen for the table's keys. actions: {lastTrick(), settings(), closeAll()}. */
export function bindKeys(actions) {
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const active = document.activeElement;
    if (event.key === "Escape") { if (actions.closeAll()) event.preventDefault(); return; }
    if (typing(active) || document.querySelector("dialog[open]")) return;
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) {
      if (move(active, event.key)) { event.preventDefault(); return; }
      if (!groupOf(active)) {
        const first = items("hand").find(pressable) || items("choices").find(pressable) || items("hand")[0];
        if (first) { focusItem(first); event.preventDefault(); }
      }
      return;
    }
    if (/^[1-9]$/.test(event.key)) {
      const button = document.querySelector(`#choices button[data-key="${event.key}"]`);
      if (button && pressable(button)) { button.click(); event.preventDefault(); }
      return;
    }
    const key = event.key.toLowerCase();
    if (key === "l") { actions.lastTrick(); event.preventDefault(); }
    if (key === "s") { actions.settings(); event.preventDefault(); }
  });
}
