// The browser's share of the translation catalogue (app/i18n/<lang>/LC_MESSAGES/messages.po):
// base.html embeds the entries of the page's language as JSON (#i18n-data); t() looks a
// msgid up there and fills %(name)s placeholders from params. An entry missing from the
// catalogue shows the msgid itself (English).
const data = (() => {
  const node = document.getElementById("i18n-data");
  try { return node ? JSON.parse(node.textContent) : {}; } catch { return {}; }
})();

/** The page's language: "de" or "en". */
export const lang = data.lang || document.documentElement.lang || "en";
const messages = data.messages || {};

/**
 * Translate a msgid: t("Waiting for %(name)s…", {name: "Anna"}) → "Warten auf Anna…".
 * Only literal strings may be passed (pybabel extracts `t("...")`).
 * @param {string} msgid  the English text, as in the catalogue
 * @param {object} [params]  values for %(name)s placeholders
 * @returns {string}
 */
export function t(msgid, params) {
  const text = messages[msgid] || msgid;
  if (!params) return text;
  return text.replace(/%\((\w+)\)s/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
