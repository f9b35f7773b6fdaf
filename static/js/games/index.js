// The game plugins of the table component (static/js/table/view.js), by the registry's game
// names; each module's default export is the plugin (docs/table.md, "Game plugins"). A game
// without its own plugin is drawn as Doppelkopf draws a trick game.
const load = (path) => async () => (await import(path)).default;

export const PLUGINS = new Proxy({
  doppelkopf: load("./doppelkopf.js"),
  doublehead_kids: load("./kids.js"),
  doppelganger_tricks: load("./doppelganger.js"),
  doppio: load("./doppio.js"),
}, {get: (known, game) => known[game] || known.doppelkopf});
