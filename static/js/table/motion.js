// Motion that helps follow the play (Web Animations API, FLIP): a card is drawn where it ends
// up, then animated from where it came from (its player's seat plate, or its place in the
// hand). Every function returns a Promise that resolves when the movement is over, at once
// when the duration is 0 (reduced motion) or the element cannot animate.

function centre(rect) {
  return {x: rect.left + rect.width / 2, y: rect.top + rect.height / 2};
}

/** Animate ``node`` from the centre of ``fromRect`` (a DOMRect) to where it is drawn. */
export function flyFrom(node, fromRect, duration) {
  if (!duration || !node || !fromRect || !node.animate) return Promise.resolve();
  const a = centre(fromRect);
  const b = centre(node.getBoundingClientRect());
  const scale = fromRect.width && node.getBoundingClientRect().width
    ? Math.min(1, fromRect.width / node.getBoundingClientRect().width) : 0.6;
  return node.animate([
    {transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})`, opacity: 0.6},
    {transform: "none", opacity: 1},
  ], {duration, easing: "cubic-bezier(.2,.7,.3,1)"}).finished.catch(() => {});
}

/** Move every node in ``nodes`` to the centre of ``target`` (an element), shrinking and fading. */
export function sweepTo(nodes, target, duration) {
  if (!duration || !target || !nodes.length || !nodes[0].animate) return Promise.resolve();
  const b = centre(target.getBoundingClientRect());
  return Promise.allSettled(nodes.map((node) => {
    const a = centre(node.getBoundingClientRect());
    return node.animate([{transform: "none", opacity: 1},
      {transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(.35)`, opacity: 0}],
    {duration, easing: "ease-in", fill: "forwards"}).finished;
  }));
}

/** Fade ``nodes`` out where they are (annihilated cards leaving the trick). */
export function fadeOut(nodes, duration) {
  if (!duration || !nodes.length || !nodes[0].animate) return Promise.resolve();
  return Promise.allSettled(nodes.map((node) => node.animate(
    [{opacity: 1, transform: "none"}, {opacity: 0, transform: "scale(.8) rotate(-8deg)"}],
    {duration, easing: "ease-in", fill: "forwards"}).finished));
}

/** Wait ``ms`` milliseconds. */
export function wait(ms) {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
