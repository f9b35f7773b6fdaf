// Live notices over the page's WebSocket (app/lobby/notices.py), in the lobby and at the table:
// a friend request (Accept), a request accepted, a friend online, an invitation to a table
// (Join: one click sits down there). Each is a line in #notices (made at the top of the page
// when the page has none) with a close button; data-notice says its type.
// At the table also the moves a computer player made for the player (showStoodIn): one notice,
// data-notice="stood_in", that stays until it is closed and gathers the moves while it is open.
import {t} from "./i18n.js";

const TYPES = ["friend_request", "friend_accepted", "friend_online", "invite"];
// how long the notice of moves made for the player stays (unless closed, pointed at or focused)
const STOOD_IN_MS = 20000;

function box() {
  let list = document.getElementById("notices");
  if (!list) {
    list = document.createElement("div");
    list.id = "notices";
    list.className = "notices floating";
    list.setAttribute("role", "status");
    list.setAttribute("aria-live", "polite");
    document.body.append(list);
  }
  return list;
}

function post(path, body) {
  const csrf = document.querySelector("meta[name=csrf-token]").content;
  return fetch(path, {method: "POST", body: JSON.stringify(body || {}),
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf}});
}

function button(text, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

/** Show ``msg`` if it is a notice; returns whether it was one. gameLabel(name): a game's
 * words (the lobby's), else the internal name. */
export function showNotice(msg, gameLabel = (name) => name) {
  if (!TYPES.includes(msg.type)) return false;
  const item = document.createElement("p");
  item.className = "notice";
  item.dataset.notice = msg.type;
  const text = document.createElement("span");
  text.className = "notice-text";
  item.append(text);
  if (msg.type === "invite") {
    item.dataset.table = msg.table;
    const link = document.createElement("a");
    link.href = `/tables/${msg.table}`;
    link.textContent = t("%(name)s invites you to table %(table)s (%(game)s)",
      {name: msg.from, table: msg.table, game: gameLabel(msg.game)});
    text.append(link);
    item.append(button(t("Join"), "notice-join", async () => {
      const joined = await post(`/api/tables/${msg.table}/join`);
      const answer = await joined.json().catch(() => ({}));
      if (joined.ok || (joined.status === 409 && !answer.table)) location.assign(`/tables/${msg.table}`);
      else text.textContent = answer.detail || t("Not possible now.");
    }));
  } else if (msg.type === "friend_request") {
    text.textContent = t("%(name)s asks to be your friend", {name: msg.from});
    item.append(button(t("accept"), "notice-accept", async () => {
      const answer = await post("/api/friends/accept", {name: msg.from});
      text.textContent = answer.ok ? t("You and %(name)s are friends now.", {name: msg.from})
        : ((await answer.json().catch(() => ({}))).detail || t("Not possible now."));
      item.querySelector(".notice-accept").remove();
    }));
  } else if (msg.type === "friend_accepted") {
    text.textContent = t("%(name)s accepted your friend request.", {name: msg.from});
  } else {
    text.textContent = t("%(name)s is online.", {name: msg.name});
  }
  item.append(button("✕", "link notice-close", () => item.remove()));
  item.querySelector(".notice-close").setAttribute("aria-label", t("Close"));
  box().append(item);
  return true;
}

/** Tell the player what a computer player moved for them ({move, why}: their words, the
 * newest last). ``summary(moves)`` words the whole list; one notice gathers the moves while it
 * is open, so a returning player reads everything that was played for them. */
export function showStoodIn(moves, summary) {
  let item = box().querySelector('[data-notice="stood_in"]');
  if (!item) {
    item = document.createElement("p");
    item.className = "notice stood-in";
    item.dataset.notice = "stood_in";
    item.moves = [];
    const text = document.createElement("span");
    text.className = "notice-text";
    item.append(text, button("✕", "link notice-close", () => item.remove()));
    item.querySelector(".notice-close").setAttribute("aria-label", t("Close"));
    box().append(item);
  }
  item.moves.push(...moves);
  item.querySelector(".notice-text").textContent = summary(item.moves);
  // it goes by itself after a while (it covers a corner of the table), not while pointed at
  clearTimeout(item.timer);
  const later = () => { item.timer = setTimeout(() => (item.matches(":hover, :focus-within") ? later() : item.remove()), STOOD_IN_MS); };
  later();
  return item;
}
