// The browser's share of the translation catalogue (app/i18n/<lang>/LC_MESSAGES/messages.po):
// base.html embeds the entries of the page's language as JSON (#i18n-data); t() looks a
// msgid up there and fills %(name)s placeholders from params; ngettext() does the same for a
// count ("1 deal" / "3 deals", "1 Spiel" / "3 Spiele"; a plural entry is [singular, plural]).
// An entry missing from the catalogue shows the msgid itself (English).
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
  return fill(typeof text === "string" ? text : msgid, params);
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/%\((\w+)\)s/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// which of a plural entry's forms a count takes: German and English alike have two
// (the catalogues' Plural-Forms: nplurals=2; plural=(n != 1))
const pluralForm = (n) => (n === 1 ? 0 : 1);

/**
 * A text with a count, in the right number: ngettext("%(num)s deal", "%(num)s deals", 3) →
 * "3 Spiele". %(num)s is the count; other placeholders come from params. Only literal strings
 * may be passed (pybabel extracts `ngettext("...", "...", n)` as a plural entry).
 * @param {string} singular  the English text for one
 * @param {string} plural  the English text for another number
 * @param {number} n  the count
 * @param {object} [params]  values for further %(name)s placeholders
 * @returns {string}
 */
export function ngettext(singular, plural, n, params) {
  const entry = messages[singular];
  const forms = Array.isArray(entry) ? entry : [singular, plural];
  return fill(forms[pluralForm(n)] || (n === 1 ? singular : plural), {num: n, ...params});
}
