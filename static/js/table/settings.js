// Table settings kept in localStorage ("doppelrunde.settings"): animation speed (slow, normal,
// fast), reduced motion (default: the system's prefers-reduced-motion) and sound effects.
import {t} from "../i18n.js";

const KEY = "doppelrunde.settings";
/** Milliseconds per speed: how long a card flies and how long a completed trick stays. */
export const SPEEDS = {slow: {fly: 600, pause: 1800}, normal: {fly: 350, pause: 1100},
  fast: {fly: 180, pause: 500}};

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

/** Timings in ms for the current settings ({fly, pause}; fly 0 under reduced motion). */
export function timings() {
  const now = settings();
  const speed = SPEEDS[now.speed];
  return {fly: now.reducedMotion ? 0 : speed.fly, pause: speed.pause};
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
