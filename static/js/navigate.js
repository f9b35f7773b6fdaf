// Leaving the page for another address, once. A page that reacts to messages (a state update,
// a poll, a notice) may be told to go more than once before it has gone: a second
// `location.assign` aborts the first load and starts another (the browser reports the first as
// aborted). goTo keeps the first address asked for and ignores the rest.
let leaving = null;

/** Go to `path` (a same-site address such as "/tables/12"); later calls on this page do
 * nothing. Returns the address this page is leaving for. */
export function goTo(path) {
  if (leaving === null) {
    leaving = path;
    location.assign(path);
  }
  return leaving;
}
