// Table settings kept in localStorage ("doppelrunde.settings"): animation speed (slow, normal,
// fast), reduced motion (default: the system's prefers-reduced-motion) and sound effects.
// The pacing of the table's event queue (static/js/table/queue.js) comes from here.
import {t} from "../i18n.js";

const KEY = "doppelrunde.settings";
// A scale for every duration (0 < scale <= 1), read from localStorage "doppelrunde.pace": the
// browser tests set it so that whole deals play in seconds. The same queue and the same steps
// run, only shorter; players never see it.
const PACE_KEY = "doppelrunde.pace";

/** Milliseconds per speed: a card flying in, a completed trick staying in view (with its
 * winner), the trick going to its winner. */
export const SPEEDS = {
  slow: {fly: 450, pause: 1600, collect: 450},
  normal: {fly: 300, pause: 1000, collect: 320},
  fast: {fly: 180, pause: 600, collect: 200},
};

function defaults() {
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  return {speed: "normal", reducedMotion: reduced, sound: true};
}

/** The current settings: {speed: "slow"|"normal"|"fast", reducedMotion: bool, sound: bool}. */
export function settings() {
  let stored = {};
  try { stored = JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch { stored = {}; }
  const merged = {...defaults(), ...stored};
  if (!SPEEDS[merged.speed]) merged.speed = "normal";
  return merged;
}

function save(values) {
  try { localStorage.setItem(KEY, JSON.stringify(values)); } catch { /* private mode: not kept */ }
}

function pace() {
  let scale = 1;
  try { scale = Number(localStorage.getItem(PACE_KEY) || 1); } catch { scale = 1; }
  return scale > 0 && scale <= 1 ? scale : 1;
}

/** Timings in ms for the current settings: {fly, pause, collect, linger}. Under reduced motion
 * nothing moves and nothing waits (fly, pause and collect 0): events follow each other without
 * pacing, and ``linger`` says that a completed trick stays in the trick zone until the next card
 * is played instead of being held for the pause. */
export function timings() {
  const now = settings();
  const speed = SPEEDS[now.speed];
  const scale = pace();
  return {
    fly: now.reducedMotion ? 0 : speed.fly * scale,
    pause: now.reducedMotion ? 0 : speed.pause * scale,
    collect: now.reducedMotion ? 0 : speed.collect * scale,
    linger: now.reducedMotion,
  };
}

/** Fill the settings dialog's form (#settings-form) and keep its changes. */
export function bindSettings(form, onChange) {
  const now = settings();
  form.querySelector(`input[name=speed][value=${now.speed}]`).checked = true;
  form.querySelector("#set-reduced-motion").checked = now.reducedMotion;
  form.querySelector("#set-sound").checked = now.sound;
  form.addEventListener("change", () => {
    const values = {
      speed: form.querySelector("input[name=speed]:checked").value,
      reducedMotion: form.querySelector("#set-reduced-motion").checked,
      sound: form.querySelector("#set-sound").checked,
    };
    save(values);
    document.documentElement.classList.toggle("reduced-motion", values.reducedMotion);
    if (onChange) onChange(values);
  });
  document.documentElement.classList.toggle("reduced-motion", now.reducedMotion);
}

export const SPEED_LABELS = () => ({slow: t("Slow"), normal: t("Normal"), fast: t("Fast")});
