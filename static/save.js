// The table page's save pipeline (table.js loads it when a hand is begun): the life of a hand leaving the page
// (hand-life.js), drawn, and its effects carried out. One path for every hand: Save -> saving, the new totals of
// the latest preview on screen at once -> the server's answer -> saved (the server's page swapped in where the
// page is) | refused | conflict | failed | queued. What is needed only now and then comes when it is: a conflict
// (conflict.js), Undo (undo.js), the outbox (offline-table.js); each gets `table` below.
import * as life from "./hand-life.js";
import { _, total } from "./words.js";

var GIVE_UP = 10000; // ms: a save with no answer by then waits in the outbox (a resend of it is harmless)
var STILL_AFTER = 600; // ms the form takes no tap after it moved: longer than the gap of a double tap
var JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json" };

var page; // shared with table.js: the form's controller (page.hand), its addresses, the version shown
var state;
var shown = null; // the totals on screen before a save showed the new ones
var outbox = null; // the offline module, once it is needed

// What the modules that come later may do with the page.
var table = {
  refresh: refresh,
  say: function (words, kind) { page.hand.say(words, kind); },
  // The server's page, with this hand back on its form (after an undo, or a save the hand numbers moved under)
  restart: function (sent, words, kind) {
    return refresh(false).then(function (number) {
      run({ state: life.entering(number) });
      page.hand.fill(sent);
      page.hand.hold(words, kind);
    });
  },
  settle: function (choice, number) { run(life.settle(state, choice, number)); },
  renumber: function (number) {
    state = life.renumbered(state, number);
    page.hand.form.elements.number.value = state.number;
  },
  sent: function () {
    return refresh(page.hand.entered()).then(function (number) { run({ state: life.refreshed(state, number) }); });
  },
  words: function () {
    var data = page.hand.form.dataset;
    return { players: JSON.parse(data.players), short: JSON.parse(data.short), rules: JSON.parse(data.rules) };
  }
};

function run(step) {
  state = step.state;
  draw();
  if (step.effect) effects[step.effect]();
}

var effects = {
  send: function () { deliver("POST", page.links.hands, state.hand); },
  correct: function () { deliver("PUT", page.links.hands + "/" + state.hand.number, state.hand); },
  queue: function () {
    offline().then(function (module) {
      module.queue(state.hand);
      page.hand.reset(state.number); // the next hand starts clean
      nextHandInView();
    }, function () { run({ state: life.notQueued(state) }); });
  },
  refresh: function () {
    refresh(false).then(function (number) {
      run({ state: life.refreshed(state, number) });
      nextHandInView();
    }, function () { run(life.refreshFailed(state)); });
  },
  reset: function () { page.hand.reset(state.number); },
  compare: function () {
    var sent = state.hand;
    import("./conflict.js").then(function (conflict) { return conflict.beaten(table, sent, state.message); })
      .catch(function () { page.hand.say(_("%(problem)s Tap Save to try again.", { problem: state.message }), "problem"); });
  }
};

function submitted() {
  var hand = page.hand;
  if (life.busy(state)) return; // a second tap, or a tap before the next hand is begun: nothing
  var gap = hand.missing();
  if (gap) { hand.point(gap.key, gap.message); return; }
  var waiting = life.waitingIn(localStorage, page.links.outbox).length;
  run(life.save(state, hand.facts(), hand.latest(), !navigator.onLine || waiting > 0));
}

function tapped() {
  state = life.tapped(state);
}

// The Save button, the line above it and the totals, as the hand's state says.
function draw() {
  var hand = page.hand;
  var words = state && life.lineWords(state);
  if (!hand || !state) return;
  (life.busy(state) ? inPlace : function (change) { change(); })(function () {
    hand.button.textContent = life.buttonWords(state, hand.label());
    hand.button.setAttribute("aria-disabled", life.busy(state));
    hand.form.querySelectorAll("fieldset").forEach(function (set) { set.inert = life.inert(state); });
    drawTotals();
    if (!words) return;
    hand.say(words, state.phase === "saved" || state.phase === "queued" ? "ok" : "problem");
    if (state.phase === "saved" && !state.choice) offerUndo(state.saved, state.hand);
  });
  if (state.field) hand.point(state.field, words);
}

// Save stays where it is on the screen while the page changes around it after a tap on it: a second tap lands on
// it again. (While a hand is entered the page does not move under the finger.)
function inPlace(change) {
  var before = page.hand.button.getBoundingClientRect().top;
  var result = change();
  var moved = page.hand.button.getBoundingClientRect().top - before;
  if (moved) window.scrollBy(0, moved);
  return result;
}

// After a save the next hand's top (who deals, who passes to whom, the first row) comes into view. The form then
// lies where Save was: it takes no tap for a moment, so a stray second tap on Save enters nothing.
function nextHandInView() {
  var top = document.querySelector(".next-hand");
  if (!top) return;
  run({ state: life.moved(state) });
  top.scrollIntoView({ block: "start" });
  setTimeout(function () { run({ state: life.still(state) }); }, STILL_AFTER);
}

function drawTotals() {
  var totals = document.querySelectorAll("[data-total]");
  var saving = state.phase === "saving" && state.totals;
  if (saving && !shown) {
    shown = Array.prototype.map.call(totals, function (cell) { return cell.textContent; });
    totals.forEach(function (cell) { cell.textContent = total(state.totals[cell.dataset.total]); });
  } else if (!saving && shown) {
    // Not stored after all: the totals as they were (a saved hand's come with the server's page)
    if (state.phase !== "saved") totals.forEach(function (cell, at) { cell.textContent = shown[at]; });
    shown = null;
  }
  document.querySelector(".scoreboard").classList.toggle("saving", Boolean(saving));
}

// Undo is offered beside the words above Save, never where Save was, and asks before it deletes (undo.js).
function offerUndo(number, sent) {
  var offer = document.createElement("button");
  offer.type = "button";
  offer.textContent = _("Undo…");
  offer.setAttribute("aria-label", _("Undo hand %(number)d…", { number: number }));
  offer.addEventListener("click", function () {
    import("./undo.js").then(function (undo) { undo.ask(table, number, sent); });
  });
  page.hand.form.querySelector("#live-check").append(" ", offer);
}

function own(request) {
  page.busy++;
  return request.finally(function () { page.busy--; });
}

// Sends a hand (a save, or a correction that settles a conflict) and passes the answer on; status 0: none.
function deliver(method, url, body) {
  var giveUp = new AbortController();
  var timer = setTimeout(function () { giveUp.abort(); }, GIVE_UP);
  own(fetch(url, { method: method, credentials: "same-origin", headers: JSON_HEADERS, body: JSON.stringify(body),
    signal: giveUp.signal }).then(function (answer) {
    return answer.json().catch(function () { return {}; }).then(function (json) { return [answer.status, json]; });
  }, function () { return [0, {}]; })).then(function (answer) {
    clearTimeout(timer);
    run(life.answered(state, answer[0], answer[1]));
  });
}

// The server's page swapped in where the page is (no jump): its totals, next hand and form; with `keepForm`, the
// hand being entered here stays. Resolves to the server's next hand number; a game over (or gone) opens its page.
function refresh(keepForm) {
  return own(fetch(page.links.page, { credentials: "same-origin" }).then(function (answer) {
    return answer.text();
  })).then(function (html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var form = fresh.getElementById("hand-form");
    if (!form) { location.assign(page.links.page); return new Promise(function () {}); } // this page is left
    // A row the player turned to 7–13 to tap a count there (its chip chosen still below) stays turned: the next
    // tap lands on 7–13. A row turned by the count it holds (the hand just saved) starts afresh.
    var turned = Array.prototype.filter.call(document.querySelectorAll("#hand-form .hearts"), function (row) {
      return row.querySelector(".turn input:checked") && !row.querySelector(".upper input:checked");
    }).map(function (row) { return row.id; });
    inPlace(function () {
      if (keepForm) form.replaceWith(page.hand.form);
      document.querySelector("main").replaceWith(fresh.querySelector("main"));
      if (keepForm) { page.version = form.dataset.version; page.next = Number(form.elements.number.value); return; }
      turned.forEach(function (id) { form.querySelector("#" + id + " .turn input").checked = true; });
      page.begin(form);
    });
    document.title = fresh.title;
    if (outbox) outbox.then(function (module) { module.render(); });
    return page.next;
  });
}

function preview(facts) {
  var local = function () { return offline().then(function (module) { return module.preview(facts); }); };
  if (!navigator.onLine) return local();
  return fetch(page.links.preview, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(facts) })
    .then(function (answer) { return answer.json(); }, local);
}

// The outbox and its drawing, loaded once: offline, hands waiting, a save no server answered, or no service
// worker to keep the files for later.
function offline() {
  if (!outbox) {
    outbox = import("./offline-table.js").then(function (module) { module.start(table); return module; });
    outbox.catch(function () { outbox = null; });
  }
  return outbox;
}

function changedElsewhere() {
  var what = life.elsewhere(state, page.hand.entered());
  var before = page.next;
  if (!what) return;
  refresh(what === "notice").then(function (number) {
    if (what === "refresh") run({ state: life.refreshed(state, number) });
    page.hand.hold(life.changedWords(before, number, what === "notice" && state.number), "ok");
  }, function () { /* the next question tries again */ });
}

function start(shared) {
  page = shared;
  run({ state: life.entering(page.next) });
  table.links = page.links;
  var waiting = life.waitingIn(localStorage, page.links.outbox).length;
  if (!navigator.onLine || waiting || !navigator.serviceWorker) offline();
  window.addEventListener("offline", offline);
}

export { start, submitted, tapped, draw, preview, changedElsewhere };
