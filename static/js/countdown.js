// Start times of tournaments in the reader's time zone, with a live countdown
// (templates/_tournament_row.html, tournament.html): every <time data-countdown="ISO">
// reads "Sat, 5 Dec, 20:00 · starts in 4:32" while the tournament is upcoming
// (data-status="scheduled"); an arena's end (data-status="ending") reads "ends in 12:04".
import {lang, t} from "./i18n.js";

const format = new Intl.DateTimeFormat(lang, {weekday: "short", day: "numeric", month: "short",
  hour: "2-digit", minute: "2-digit"});

/** A time span in words: "4:32", "1:05:09", "3 days". */
export function span(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));  // never "0:00" while time is left
  if (s >= 2 * 86400) return t("%(days)s days", {days: Math.floor(s / 86400)});
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

function label(node, now) {
  const at = new Date(node.dataset.countdown);
  if (Number.isNaN(at.getTime())) return;
  const status = node.dataset.status;
  let text = format.format(at);
  if (status === "scheduled") {
    text += " · " + (at - now >= 1000 ? t("starts in %(time)s", {time: span(at - now)}) : t("starting…"));
  } else if (status === "ending") {  // an arena's end: the time left, then the time it ended
    if (at - now > 0) text = t("ends in %(time)s", {time: span(at - now)});
  }
  node.textContent = text;
}

/** Keep every countdown under ``root`` up to date (once a second). */
export function startClocks(root = document) {
  const tick = () => {
    const now = new Date();
    root.querySelectorAll("time[data-countdown]").forEach((node) => label(node, now));
  };
  tick();
  return setInterval(tick, 1000);
}
