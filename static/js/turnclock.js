// Turn timers on the table page (templates/_turn_clock.html): every seat gets the running
// timers in state.timers ([{seat, remaining}]); the countdown is drawn by the mover's name
// (the seat panels in #seats, one per seat in seat order, whichever renderer drew them).
// Seats a computer player moves for (seat.autoplay) are marked; for our own seat an
// "I'm back" button sends {type: "back"}. Text only via textContent.
import {t} from "./i18n.js";
import {Socket} from "./socket.js";

let timers = [];  // [{seat, remaining, at}] with at = performance.now() when received
let state = null;

function seatPanel(seat) {
  const seats = document.getElementById("seats");
  return seats ? seats.children[seat] || null : null;
}

function badge(panel, cls) {
  let span = panel.querySelector(`:scope > .${cls}`);
  if (!span) {
    span = document.createElement("span");
    span.className = cls;
    panel.appendChild(span);
  }
  return span;
}

function draw() {
  if (!state) return;
  const now = performance.now();
  const running = new Map(timers.map((timer) => [timer.seat, timer]));
  for (let seat = 0; seat < state.table.players; seat++) {
    const panel = seatPanel(seat);
    if (!panel) continue;
    const timer = running.get(seat);
    const info = state.table.seats.find((s) => s.seat === seat);
    if (timer) {
      const left = Math.max(0, timer.remaining - (now - timer.at) / 1000);
      const span = badge(panel, "turn-clock");
      span.textContent = " " + t("%(seconds)s s left", {seconds: Math.ceil(left)});
      span.classList.toggle("low", left <= 5);
    } else {
      panel.querySelector(":scope > .turn-clock")?.remove();
    }
    if (info && info.autoplay) {
      badge(panel, "autoplay").textContent = " " + t("(computer playing)");
    } else {
      panel.querySelector(":scope > .autoplay")?.remove();
    }
  }
  const mine = state.you != null && state.table.seats.find((s) => s.seat === state.you);
  document.getElementById("turn-clock-box").hidden = !(mine && mine.autoplay);
}

window.addEventListener("dr-message", (event) => {
  const msg = event.detail;
  if (msg.type !== "snapshot" && msg.type !== "event") return;
  state = msg.state;
  const at = performance.now();
  timers = (state.timers || []).map((timer) => ({...timer, at}));
  // after the table's own renderer has redrawn the seats
  setTimeout(draw, 0);
});

document.getElementById("take-back").addEventListener("click", () => {
  if (Socket.current) Socket.current.send({type: "action", action: {type: "back"}});
});

setInterval(draw, 250);
