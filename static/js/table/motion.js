// Motion that helps follow the play (Web Animations API): a played card flies from its
// player's seat into the trick; a completed trick stays in the middle for a pause, then moves
// to the winner's seat. Under reduced motion nothing moves (the pause stays: it is time to see).
import {timings} from "./settings.js";

function seatBox(seat) {
  return document.querySelector(`#seats [data-seat="${seat}"]`);
}

function centre(rect) {
  return {x: rect.left + rect.width / 2, y: rect.top + rect.height / 2};
}

/** Fly the trick's figure of ``card`` (played by ``seat``) in from the seat's box. */
export function flyIn(seat, card) {
  const {fly} = timings();
  const figures = [...document.querySelectorAll(`#trick figure[data-card="${card}"]`)];
  const figure = figures[figures.length - 1];
  const from = seatBox(seat);
  if (!fly || !figure || !from || !figure.animate) return;
  const a = centre(from.getBoundingClientRect());
  const b = centre(figure.getBoundingClientRect());
  figure.animate([
    {transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(.6)`, opacity: 0.4},
    {transform: "none", opacity: 1},
  ], {duration: fly, easing: "ease-out"});
}

let held = null;  // {plays, winner, timer, caption}

/** Keep a completed trick in view for the pause, then sweep it to the winner's seat.
 * plays: [{seat, card}]; figure(play) draws one played card; done() re-renders after it. */
export function holdTrick(plays, winner, figure, caption, done) {
  releaseTrick();
  const {pause} = timings();
  held = {plays, winner, figure, caption};
  held.timer = setTimeout(() => sweep(done), pause);
}

/** Whether a completed trick is being held in view. */
export function holding() { return held !== null; }

/** Draw the held trick into the trick region (over a next trick that began meanwhile: its
 * cards appear when the pause is over); call after every render. */
export function drawHeld() {
  const trick = document.getElementById("trick");
  if (!held || !trick) return;
  trick.replaceChildren();
  for (const play of held.plays) {
    const fig = held.figure(play);
    fig.classList.add("held-play");
    trick.appendChild(fig);
  }
  const note = document.createElement("p");
  note.className = "trick-winner";
  note.textContent = held.caption;
  trick.appendChild(note);
}

/** Stop holding (a new deal began): the held cards disappear at the next render. */
export function releaseTrick() {
  if (held) clearTimeout(held.timer);
  held = null;
}

function sweep(done) {
  const current = held;
  if (!current) return;
  const {fly} = timings();
  const target = seatBox(current.winner);
  const figures = [...document.querySelectorAll("#trick figure.held-play")];
  if (!fly || !target || !figures.length || !figures[0].animate) { releaseTrick(); done(); return; }
  const b = centre(target.getBoundingClientRect());
  const runs = figures.map((fig) => {
    const a = centre(fig.getBoundingClientRect());
    return fig.animate([{transform: "none", opacity: 1},
      {transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(.4)`, opacity: 0}],
    {duration: fly, easing: "ease-in", fill: "forwards"}).finished;
  });
  Promise.allSettled(runs).then(() => { if (held === current) { releaseTrick(); done(); } });
}
