// The chat box of the table and lobby pages (templates/_chat.html). It shares the page's
// socket (socket.js: Socket.current, and the "dr-message" event for every server message):
// the server puts the socket in the table's or the lobby's chat room on hello.
// Names and lines are set with textContent only, never as HTML.
import {t} from "./i18n.js";
import {personName} from "./words.js";
import {Socket} from "./socket.js";

const box = document.getElementById("chat");
const $ = (id) => document.getElementById(id);
const MAX = Number(box.dataset.max || 200);
const me = box.dataset.me || "";
const muted = new Set();
// What we sent last and have not heard back about: a refusal is shown under the chat box.
let pending = null;

const REFUSALS = {
  too_long: t("Too long: at most %(max)s characters.", {max: MAX}),
  empty: t("Nothing to send."),
  rate_limited: t("You are sending lines too fast."),
  "log in": t("Log in or play as a guest to chat."),
  muted: t("A moderator has muted you."),
  own_line: t("You cannot report your own line."),
  already_reported: t("You have reported this line already."),
  unknown_line: t("That line is gone."),
};

function showError(text) {
  $("chat-error").textContent = text;
  $("chat-status").textContent = "";
}

function showStatus(text) {
  $("chat-status").textContent = text;
  $("chat-error").textContent = "";
}

/** The chat error the server sent, in words: the refusal reason and the wait, if any. */
function refusalText(message) {
  const reason = Object.keys(REFUSALS).find((key) => message.includes(key));
  const wait = message.match(/wait ([\d.]+) s/);
  let text = reason ? REFUSALS[reason] : message;
  if (wait) text += " " + t("Wait %(seconds)s s.", {seconds: Math.ceil(Number(wait[1]))});
  return text;
}

function button(label, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `link ${cls}`;
  b.textContent = label;
  b.addEventListener("click", onClick);
  return b;
}

function addLine(line) {
  const list = $("chat-lines");
  const item = document.createElement("li");
  item.dataset.line = line.id;
  item.dataset.author = line.author;
  item.hidden = muted.has(line.author);
  const author = document.createElement("strong");
  author.className = "chat-author";
  author.textContent = personName(line.author);
  const text = document.createElement("span");
  text.className = "chat-text";
  text.textContent = line.text;
  item.append(author, ": ", text);
  if (me && line.author !== me) {
    item.append(" ", button(t("mute"), "chat-mute", () => mute(line.author)),
                " ", button(t("report"), "chat-report", () => report(line.id)));
  }
  list.appendChild(item);
  while (list.children.length > 200) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
}

function renderMuted() {
  const holder = $("chat-muted");
  holder.replaceChildren();
  if (!muted.size) return;
  holder.append(t("Muted:") + " ");
  for (const name of muted) {
    const span = document.createElement("span");
    span.className = "chat-muted-name";
    span.textContent = name;
    holder.append(span, " ", button(t("unmute"), "chat-unmute", () => unmute(name)), " ");
  }
}

function setHidden(name, hidden) {
  for (const item of $("chat-lines").children) {
    if (item.dataset.author === name) item.hidden = hidden;
  }
}

function mute(name) {
  if (!Socket.current || !Socket.current.send({type: "mute", name, on: true})) {
    showError(t("Not connected."));
    return;
  }
  pending = "mute";
  muted.add(name);
  setHidden(name, true);
  renderMuted();
  showStatus(t("You no longer see the lines of %(name)s.", {name}));
}

function unmute(name) {
  if (Socket.current) Socket.current.send({type: "mute", name, on: false});
  muted.delete(name);
  setHidden(name, false);
  renderMuted();
  showStatus(t("New lines of %(name)s are shown again.", {name}));
}

function report(lineId) {
  if (!Socket.current || !Socket.current.send({type: "report", line: lineId, reason: ""})) {
    showError(t("Not connected."));
    return;
  }
  pending = "report";
}

function updateCount() {
  const input = $("chat-input");
  const length = input.value.trim().length;
  const count = $("chat-count");
  count.textContent = `${length}/${MAX}`;
  count.classList.toggle("over", length > MAX);
}

function send(event) {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) return;
  if (text.length > MAX) {
    showError(REFUSALS.too_long);
    return;
  }
  if (!Socket.current || !Socket.current.send({type: "chat", text})) {
    showError(t("Not connected: the line was not sent."));
    return;
  }
  pending = "chat";
  input.value = "";
  updateCount();
  showError("");
}

window.addEventListener("dr-message", (event) => {
  const msg = event.detail;
  box.dataset.live = "1";  // the server answered our hello: we are in the room
  if (msg.type === "chat") {
    for (const line of msg.lines) addLine(line);
    if (pending === "chat" && msg.lines.some((l) => l.author === me)) pending = null;
  } else if (msg.type === "reported") {
    pending = null;
    showStatus(t("Thank you: the line was reported to the moderators."));
    const item = $("chat-lines").querySelector(`li[data-line="${Number(msg.line)}"] .chat-report`);
    if (item) item.disabled = true;
  } else if (msg.type === "error" && pending !== null) {
    const chatError = /^(chat line refused|cannot report|you cannot mute|log in|no such line)/;
    if (chatError.test(msg.message) || msg.code === "rate_limited") {
      showError(refusalText(msg.message));
      pending = null;
    }
  }
});

const form = $("chat-form");
if (form) {
  form.addEventListener("submit", send);
  $("chat-input").addEventListener("input", updateCount);
  updateCount();
}
