// What the hand form makes of the taps, as plain functions of what is entered: no page here (but its words,
// words.js). hand-form.js reads the chips into an entry and draws what these say; Node's runner tests them alone.
//
// An entry is {hearts: [count or null, each seat], cards: {key: seat or null, each penalty card}, touched: [seats
// whose row was tapped], option: the moon option chosen or null}. `rules` are the form's (data-rules, from the rules
// core: the hearts in a hand, the penalty cards with their questions, the moon's words): no rule is written here.
import { _, ngettext, signed } from "./words.js";

// The hearts said taken so far.
function counted(entry) {
  return entry.hearts.reduce(function (sum, count) { return sum + (count || 0); }, 0);
}

// The seats whose row nobody has tapped yet, in seat order.
function open(entry) {
  return entry.hearts.map(function (_count, seat) { return seat; }).filter(function (seat) {
    return entry.touched.indexOf(seat) === -1;
  });
}

// The last row left fills itself in: its seat and the count that makes the hand's hearts, else null.
function lastRow(entry, rules) {
  var left = open(entry);
  if (left.length !== 1) return null;
  return { seat: left[0], count: rules.hearts - (counted(entry) - (entry.hearts[left[0]] || 0)) };
}

// The first penalty card nobody was said to take.
function cardMissing(entry, rules) {
  return rules.cards.filter(function (card) { return entry.cards[card.key] === null || entry.cards[card.key] === undefined; })[0] || null;
}

function heartsWords(count, rules) {
  var hearts = rules.hearts;
  var values = { count: count, hearts: hearts };
  if (count < hearts) {
    return ngettext("%(count)d of %(hearts)d hearts: %(num)d missing", "%(count)d of %(hearts)d hearts: %(num)d missing",
      hearts - count, values);
  }
  return ngettext("%(count)d of %(hearts)d hearts: %(num)d too many", "%(count)d of %(hearts)d hearts: %(num)d too many",
    count - hearts, values);
}

// What the hand still lacks, and where ({key, message}: the field as the server names it), else null. `last`, the
// row tapped last; `moonOn`, whether the moon's options are on the form.
function missing(entry, rules, players, last, moonOn) {
  var count = counted(entry);
  if (count !== rules.hearts) {
    var left = open(entry);
    var seat = count < rules.hearts && left.length ? left[0] : last;
    return { key: "hearts-" + seat, message: _("%(problem)s · check %(name)s’s row", { problem: heartsWords(count, rules), name: players[seat] }) };
  }
  var card = cardMissing(entry, rules);
  if (card) return { key: card.key, message: card.ask };
  if (moonOn && entry.option === null) return { key: "moon_option", message: _("Choose the moon option.") };
  return null;
}

// The live check above Save after each tap: {words, kind ("ok", "problem" or ""), complete (the hearts and cards
// are all said: time to ask for a preview)}.
function check(entry, rules) {
  var count = counted(entry);
  var card = cardMissing(entry, rules);
  var whole = count === rules.hearts;
  var words = count === 0 || whole ? _("%(count)d of %(hearts)d hearts", { count: count, hearts: rules.hearts }) : heartsWords(count, rules);
  if (whole && card) words += " · " + card.ask.charAt(0).toLowerCase() + card.ask.slice(1);
  return { words: words, kind: whole && !card ? "ok" : count === 0 || whole ? "" : "problem", complete: whole && !card };
}

// What Save says: `label` as the page has it, with the moon option chosen in the rules' words (with the floor,
// subtracting says each seat's own amount).
function saveLabel(label, rules, option, shooter, short) {
  if (option === null || shooter === null || !rules.moon) return label;
  var said = rules.moon[option];
  return label + " · " + (Array.isArray(said) ? said[shooter] : said).replace("{shooter}", short[shooter]);
}

// The preview's scores of the hand, seat by seat, as the line above Save says them.
function scoresWords(scores, tieBreak, rules, short) {
  var words = _("This hand: %(scores)s", { scores: scores.map(function (s, seat) {
    return short[seat] + " " + signed(s);
  }).join(", ") });
  return tieBreak ? words + " · " + rules.tie_break : words;
}

export { counted, open, lastRow, cardMissing, heartsWords, missing, check, saveLabel, scoresWords };
