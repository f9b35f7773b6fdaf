// Small line icons for the table's toolbar, drawn as SVG (no icon font, no files): the last
// trick, the score sheet, chat, the rules, the keys, leaving and the settings.
import {svgEl} from "../cards.js";

const PATHS = {
  last: ["M6 5h9v13H6z", "M9 2h9v13", "M3 13l3 3 3-3"],
  sheet: ["M5 3h14v18H5z", "M8 8h8", "M8 12h8", "M8 16h5"],
  chat: ["M4 5h16v10H11l-5 4v-4H4z"],
  rules: ["M5 4h6a3 3 0 0 1 3 3v13a2 2 0 0 0-2-2H5z", "M19 4h-5a3 3 0 0 0-3 3", "M19 4v14h-7"],
  keys: ["M3 7h18v10H3z", "M6 10h1", "M9 10h1", "M12 10h1", "M15 10h1", "M18 10h0", "M7 14h10"],
  aid: ["M9 18h6", "M10 21h4", "M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z"],
  leave: ["M10 4H5v16h5", "M14 8l4 4-4 4", "M18 12H9"],
  settings: ["M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8z", "M12 2v3", "M12 19v3", "M2 12h3", "M19 12h3",
    "M4.9 4.9l2.1 2.1", "M17 17l2.1 2.1", "M4.9 19.1L7 17", "M17 7l2.1-2.1"],
};

// filled icons (the replay's steps)
const FILLED = {
  "to-start": ["M5 5h2v14H5z", "M19 5v14L8 12z"],
  "prev-trick": ["M12 5v14L4 12z", "M20 5v14l-8-7z"],
  prev: ["M17 5v14L7 12z"],
  next: ["M7 5v14l10-7z"],
  "next-trick": ["M4 5v14l8-7z", "M12 5v14l8-7z"],
  "to-end": ["M17 5h2v14h-2z", "M5 5v14l11-7z"],
};

/** An icon (24×24, stroked with the text colour), hidden from screen readers. */
export function icon(name) {
  const svg = svgEl("svg", {viewBox: "0 0 24 24", class: "icon", "aria-hidden": "true", focusable: "false"});
  for (const d of PATHS[name] || []) svg.append(svgEl("path", {d}));
  for (const d of FILLED[name] || []) svg.append(svgEl("path", {d, class: "filled"}));
  return svg;
}
