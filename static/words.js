// The words the page scripts show, in the page's language. Each is a message of the catalogs, written here as
// gettext writes one (English, with named values): `make messages` extracts them from the scripts, and each page
// carries their translations in its words block (scorekeeper/script_words.py; base.html renders it). A message
// with no translation (an English page, or no page at all) is shown as written.

var given = null;

function words() {
  if (!given) {
    var block = typeof document === "undefined" ? null : document.getElementById("words");
    given = block ? JSON.parse(block.textContent) : {};
    given.messages = given.messages || {};
  }
  return given;
}

// A message's named values filled in, %(number)d and %(name)s alike: as a list of strings and nodes, for
// `element.append` (a value may be an element: a name in bold stays one; `_` with no values gives the
// message translated, its values still to fill), or as a string.
function pieces(message, values) {
  return message.split(/(%\(\w+\)[ds])/).filter(Boolean).map(function (part) {
    var name = /^%\((\w+)\)[ds]$/.exec(part);
    return name && values && name[1] in values ? values[name[1]] : part;
  });
}
function fill(message, values) {
  return pieces(message, values).map(String).join("");
}

function translated(message) {
  var said = words().messages[message];
  return typeof said === "string" ? said : message;
}

function _(message, values) {
  return fill(translated(message), values);
}

// The form for `count` (its %(num)d): which form a count takes is the server's to say, for counts up to 199 (the
// page carries the list); past that every language repeats itself each hundred. As written: English's rule.
function ngettext(singular, plural, count, values) {
  var forms = words().messages[singular];
  var filled = Object.assign({ num: count }, values);
  if (!Array.isArray(forms)) return fill(count === 1 ? singular : plural, filled);
  var rule = words().plural;
  var index = Number(rule.charAt(count < rule.length ? count : 100 + (count % 100)));
  return fill(forms[index] === undefined ? forms[forms.length - 1] : forms[index], filled);
}

// A score as the server writes it (scorekeeper/rules/i18n.py's signed and total, which tests/js/words.test.mjs
// checks these against): a total with a real minus, a change to a score with its plus too.
function total(points) {
  return points < 0 ? "\u2212" + -points : String(points);
}
function signed(points) {
  return points > 0 ? "+" + points : total(points);
}

export { _, ngettext, pieces, signed, total };
