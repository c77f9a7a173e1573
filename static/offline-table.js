// The table page with no network, loaded by table.js when it is needed: a saved hand waits in the outbox
// (outbox.js), the page shows it as "waiting to be sent", the totals as last known plus the waiting hands,
// and the next hand from what the server worked out while online (the offline facts, see
// scorekeeper/views/app_shell.py). Back online, the hands go in order and the page says how many went.
import * as outbox from "./outbox.js";
import * as conflicts from "./conflict.js";
import { _, ngettext, total as shownTotal } from "./words.js";
import { nextAfter as nextNumber } from "./hand-life.js";
import * as hands from "./offline-hands.js";

var SAID_FOR = 5000; // ms "2 hands sent" stays up
var table; // the page, as table.js hands it over: its addresses, renumber(number), sent(), words()
var game; // the game's id and addresses, for the outbox
var facts, names, short, rules;
var settling = null; // the conflict on screen: nothing more is sent until the person chooses

// The connection banner: offline, or online with hands still to send. (Plain, like the three below.)
function waitingWords(count, online) {
  if (!count) return online ? _("not sent yet") : _("offline");
  if (online) return ngettext("not sent yet · %(num)d hand waiting", "not sent yet · %(num)d hands waiting", count);
  return ngettext("offline · %(num)d hand waiting", "offline · %(num)d hands waiting", count);
}
function sentWords(count) {
  return ngettext("%(num)d hand sent", "%(num)d hands sent", count);
}

function lookup() {
  facts = JSON.parse(document.getElementById("offline-facts").textContent);
  names = facts.players;
  var form = document.getElementById("hand-form");
  rules = JSON.parse(form.dataset.rules); // the cards and their points
  short = JSON.parse(form.dataset.short); // the names as the page shows them where room is short
}

// The hand form's preview while offline: a moon's options when they are known (offline-hands.js), nothing else.
function preview(hand) {
  return Promise.resolve(hands.preview(facts, hand, outbox.waiting(game).length === 0));
}

function element(tag, text, className) {
  var made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

function showTotals(queue) {
  hands.totalsAfter(facts, rules, queue).forEach(function (total, at) {
    var shown = document.querySelector('[data-total="' + at + '"]');
    if (shown) shown.textContent = shownTotal(total);
  });
  // Who leads and who is closest to the target is the rules core's to say: not until back online.
  document.querySelectorAll(".scoreboard li").forEach(function (seat) { seat.classList.remove("leader", "closest"); });
  document.querySelectorAll(".scoreboard .tag").forEach(function (tag) { tag.textContent = ""; });
}

function handsTable() {
  var body = document.querySelector(".hands tbody");
  if (body) return body;
  var section = element("section", undefined, "hands");
  section.appendChild(element("h2", _("Hands so far")));
  body = section.appendChild(element("table")).appendChild(element("tbody"));
  document.getElementById("hand-form").after(section);
  return body;
}

function showWaiting(queue) {
  document.querySelectorAll("tr.waiting, tr.waiting-note").forEach(function (row) { row.remove(); });
  if (!queue.length) return;
  var body = handsTable();
  queue.forEach(function (hand) {
    var row = element("tr", undefined, "waiting");
    row.appendChild(element("th", String(hand.number))).scope = "row";
    var shown = hands.waitingRow(facts, rules, hand);
    names.forEach(function (_name, at) { row.appendChild(element("td", shown.cells ? shown.cells[at] : "")); });
    row.appendChild(element("td"));
    var note = element("tr", undefined, "waiting-note");
    var words = _("Hand %(number)d: waiting to be sent", { number: hand.number });
    // A moon the page cannot score says so across the whole row, where the words fit
    if (shown.unscored) words += " · " + _("moon: scored when back online");
    note.appendChild(element("td", words)).colSpan = names.length + 2;
    body.prepend(row);
    body.prepend(note);
  });
}

// Each row of the hand form says to whom its player passes, as the server's page does (macros.hand_chips).
function passesInRows(passes) {
  document.querySelectorAll(".hearts .pass-to").forEach(function (note) { note.remove(); });
  passes.forEach(function (pair) {
    var legend = document.querySelector("#hearts-" + pair[0] + " legend");
    var note = legend && legend.appendChild(element("span", _("passes to %(name)s", { name: names[pair[1]] }), "pass-to"));
    if (note) note.setAttribute("aria-hidden", "true");
  });
}

function showNextHand(number) {
  var section = document.querySelector(".next-hand");
  var ahead = facts.ahead.filter(function (hand) { return hand.number === number; })[0];
  // The tab and the form's heading name the hand the form asks for, as the server's page does
  document.title = _("Hand %(number)d · %(players)s", { number: number, players: names.join(", ") });
  var record = document.getElementById("record");
  if (record) record.textContent = _("Record hand %(number)d", { number: number });
  if (!section) return;
  var heading = element("h1", _("Hand %(number)d", { number: number }));
  section.replaceChildren(heading);
  if (!ahead) {
    passesInRows([]);
    section.appendChild(element("p", _("Who deals and passes shows again when back online.")));
    return;
  }
  // The server's layout and words (templates/table/_next_hand.html), worked out while online: the box keeps its shape.
  var deal = heading.appendChild(element("span", undefined, "deal"));
  deal.append(element("span", " · ", "sep"), ahead.deals, element("span", " · ", "vh"), element("span", ahead.way, "way"));
  passesInRows(ahead.passes);
  if (ahead.passes.length) {
    var list = section.appendChild(element("ul", undefined, "passes"));
    list.setAttribute("aria-label", ahead.pass); // "Pass 3 cards across", in the rules' words
    ahead.passes.forEach(function (pair) { list.appendChild(element("li", short[pair[0]] + " → " + short[pair[1]])); });
  }
  section.appendChild(element("p", facts.lead_line, "leads"));
}

var saying = null; // "2 hands sent", until it has been up long enough
function showBanner(queue) {
  var banner = document.getElementById("connection");
  if (saying) { banner.textContent = saying; banner.hidden = false; return; }
  banner.textContent = waitingWords(queue.length, navigator.onLine);
  banner.hidden = navigator.onLine && !queue.length;
}

// Draw the page as the outbox has it; table.js calls this again after each swap of the server's page.
function render() {
  lookup();
  var queue = outbox.waiting(game);
  showBanner(queue);
  if (settling) showConflict(settling); // again, on a fresh copy of the server's page
  // The server's last hand is not the last one while hands wait here: undoing it is for when they have gone.
  document.querySelectorAll(".hands .undo").forEach(function (undo) { undo.hidden = queue.length > 0; });
  showWaiting(queue); // none left: the rows of those that were go (a hand dropped for another phone's too)
  if (!queue.length) return;
  showTotals(queue);
  var number = nextNumber(queue, queue[0].number);
  showNextHand(number);
  table.renumber(number);
}

function sent(count) {
  if (!count) return;
  saying = sentWords(count);
  setTimeout(function () { saying = null; render(); }, SAID_FOR);
}

function settle(result) {
  var chosen = settling; // a conflict the person settled: this phone's hand may be gone, not sent
  return result.then(function (done) {
    sent(done.sent);
    settling = done.outcome.conflict ? done.outcome : null;
    document.getElementById("conflict").hidden = !settling;
    // Hands went through, or a conflict was settled: the server's page, with the scores it worked out (it calls
    // render again)
    return done.sent || chosen ? table.sent() : null;
  }).then(render);
}

function showConflict(found) {
  conflicts.show(document.getElementById("conflict"), found, table.words(), {
    theirs: function () { settle(outbox.keepTheirs(game)); },
    mine: function () { settle(outbox.useMine(game)); }
  });
}

function flush() {
  if (settling || !outbox.waiting(game).length) return;
  settle(outbox.flush(game));
}

function queue(hand) {
  var result = outbox.send(game, hand);
  render();
  settle(result);
}

function start(page) {
  var links = page.links;
  table = page;
  game = { id: links.game, key: links.outbox, gameUrl: links.game_url, hands: links.hands };
  conflicts.styled(); // the banner's and the waiting rows' looks
  window.addEventListener("online", flush);
  window.addEventListener("offline", render);
  setInterval(flush, 5000); // the Wi-Fi may be up while the server was away: ask again now and then
  render();
  flush();
}

export { start, queue, preview, render, waitingWords, sentWords, nextNumber };
