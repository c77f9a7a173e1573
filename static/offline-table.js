// The table page with no network: Save keeps the hand in the outbox (static/outbox.js), the page shows
// it as "waiting to be sent", the totals as last known plus the waiting hands, and the next hand from
// what the server worked out while online (the offline facts, see scorekeeper/views/app_shell.py).
// Online with nothing waiting, the page's own save runs untouched; a save that finds no server can hand
// its hand over with OfflineTable.queue(hand).
(function () {
  "use strict";
  var facts, game, names, form, rules, banner, box;

  // The page's own save may swap in a fresh copy of the page: find everything again each time.
  function lookup() {
    var source = document.getElementById("offline-facts");
    form = document.getElementById("hand-form");
    if (!source || !form) return false;
    facts = JSON.parse(source.textContent);
    game = facts.game;
    names = facts.players;
    rules = JSON.parse(form.dataset.rules); // the hand's cards and points, from the rules core

    banner = document.getElementById("connection");
    box = document.getElementById("conflict");
    return true;
  }
  if (!window.Outbox || !lookup()) return;

  function chosen(name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input && input.value !== "" ? input.value : null;
  }
  function seat(name) { var value = chosen(name); return value === null ? null : Number(value); }

  // table.js's reading of the rules (window.HandRules): it runs before the page's first render below.
  function shooter(hand) { return window.HandRules.shooter(rules, hand); }

  // The one sum the page does without the server: a hand's raw points, the hearts and each penalty card
  // at the points the form carries (table.js). Moons, the sun, resets and the end of the game stay with
  // the rules core: a moon hand recorded offline shows "moon: scored when back online" and adds nothing.
  function rawPoints(hand) { return window.HandRules.rawPoints(rules, hand); }

  function nextNumber(queue) { return queue.length ? queue[queue.length - 1].number + 1 : facts.ahead[0].number; }

  function handFromForm(number) {
    var hand = { number: number, hearts: names.map(function (_, at) { return seat("hearts-" + at); }) };
    rules.cards.forEach(function (card) { hand[card.key] = seat(card.key); });
    hand.all_tricks = form.querySelector('input[name="all_tricks"]') ? seat("all_tricks") : null;
    var option = chosen("moon_option");
    if (option) hand.moon_option = option;
    return hand;
  }

  function element(tag, text, className) {
    var made = document.createElement(tag);
    if (text !== undefined) made.textContent = text;
    if (className) made.className = className;
    return made;
  }

  function showTotals(queue) {
    var totals = facts.totals.slice();
    queue.forEach(function (hand) {
      if (shooter(hand) === null) rawPoints(hand).forEach(function (points, at) { totals[at] += points; });
    });
    totals.forEach(function (total, at) {
      var shown = document.querySelector('[data-total="' + at + '"]');
      if (shown) shown.textContent = total;
    });
    // Who leads and who is closest to the target is the rules core's to say: not until back online.
    document.querySelectorAll(".scoreboard li").forEach(function (seat) { seat.classList.remove("leader", "closest"); });
    document.querySelectorAll(".scoreboard .tag").forEach(function (tag) { tag.textContent = ""; });
  }

  function handsTable() {
    var body = document.querySelector(".hands tbody");
    if (body) return body;
    var section = element("section", undefined, "hands");
    section.appendChild(element("h2", "Hands so far"));
    var table = section.appendChild(element("table"));
    body = table.appendChild(element("tbody"));
    form.after(section);
    return body;
  }

  function showWaiting(queue) {
    document.querySelectorAll("tr.waiting, tr.waiting-note").forEach(function (row) { row.remove(); });
    if (!queue.length) return;
    var body = handsTable();
    queue.forEach(function (hand) {
      var row = element("tr", undefined, "waiting");
      row.appendChild(element("th", String(hand.number))).scope = "row";
      var moon = shooter(hand);
      rawPoints(hand).forEach(function (points, at) {
        var words = moon === null ? (points ? (points > 0 ? "+" : "") + points : "0") : at === moon ? "moon: scored when back online" : "";
        row.appendChild(element("td", words));
      });
      row.appendChild(element("td"));
      var note = element("tr", undefined, "waiting-note");
      note.appendChild(element("td", "Hand " + hand.number + ": waiting to be sent")).colSpan = names.length + 2;
      body.prepend(row);
      body.prepend(note);
    });
  }

  function showNextHand(number) {
    var section = document.querySelector(".next-hand");
    var ahead = facts.ahead.filter(function (hand) { return hand.number === number; })[0];
    if (!section) return;
    section.replaceChildren(element("h1", "Hand " + number));
    if (!ahead) { section.appendChild(element("p", "Who deals and passes shows again when back online.")); return; }
    var deals = section.appendChild(element("p"));
    deals.append(element("strong", names[ahead.dealer]), " deals. The holder of " + facts.leads + " leads.");
    if (facts.removed.length) deals.append(" Remove the " + facts.removed.join(" and ") + ".");
    section.appendChild(element("p", ahead.pass, "pass")); // "Pass 3 cards across", in the rules' words
    var list = section.appendChild(element("ul", undefined, "passes"));
    ahead.passes.forEach(function (pair) { list.appendChild(element("li", names[pair[0]] + " → " + names[pair[1]])); });
    var title = form.querySelector("h2");
    if (title) title.textContent = "Record hand " + number;
  }

  function showBanner(queue) {
    var count = queue.length ? " · " + queue.length + (queue.length === 1 ? " hand" : " hands") + " waiting" : "";
    banner.textContent = (navigator.onLine ? "not sent yet" : "offline") + count;
    banner.hidden = navigator.onLine && !queue.length;
  }

  function render() {
    if (!lookup()) return;
    var queue = Outbox.waiting(game);
    showBanner(queue);
    if (!queue.length) return;
    showTotals(queue);
    showWaiting(queue);
    showNextHand(nextNumber(queue));
  }

  function describe(hand) {
    var words = names.map(function (name, at) { return name + " " + hand.hearts[at] + "♥"; }).join(", ");
    rules.cards.forEach(function (card) {
      if (hand[card.key] !== null && hand[card.key] !== undefined) words += " · " + card.name + " " + names[hand[card.key]];
    });
    return words;
  }

  function showConflict(found) {
    var number = found.hand.number;
    box.replaceChildren(element("h2", "Hand " + number + ": two versions"));
    box.appendChild(element("p", found.theirs ? "Another phone recorded hand " + number + " while this one was offline."
      : found.message));
    if (found.theirs) box.appendChild(element("p", "On the server: " + describe(found.theirs)));
    box.appendChild(element("p", "On this phone: " + describe(found.hand)));
    var keep = box.appendChild(element("button", found.theirs ? "Keep the server's hand " + number
      : "Drop this phone's hand " + number));
    keep.type = "button";
    keep.addEventListener("click", function () { settle(Outbox.keepTheirs(game)); });
    if (found.theirs) {
      var mine = box.appendChild(element("button", "Use this phone's hand " + number, "primary"));
      mine.type = "button";
      mine.addEventListener("click", function () { settle(Outbox.useMine(game)); });
    }
    box.hidden = false;
    box.scrollIntoView({ block: "start" }); // whoever holds the phone is likely down at the form
  }

  var sentSome = false;
  function settle(result) {
    return result.then(function (outcome) {
      if (!lookup()) return;
      box.hidden = !outcome.conflict;
      if (outcome.conflict) showConflict(outcome);
      else if (outcome === "saved" && sentSome) location.reload(); // the server's page: the scores it worked out
      render();
    });
  }
  function flush() {
    if (!lookup() || !Outbox.waiting(game).length || !box.hidden) return;
    sentSome = true;
    settle(Outbox.flush(game));
  }

  function queue(hand) {
    sentSome = true;
    settle(Outbox.send(game, hand));
    form.reset();
    var first = form.querySelector('input[type="radio"]:checked');
    if (first) first.dispatchEvent(new Event("change", { bubbles: true })); // the live check starts over
    render();
  }

  // Capture, on the document: it runs before the page's own save, which it replaces while offline.
  document.addEventListener("submit", function (event) {
    if (event.target.id !== "hand-form" || !lookup()) return;
    var waiting = Outbox.waiting(game);
    if (navigator.onLine && !waiting.length) return; // the page's own save
    event.preventDefault(); // no plain form post with no network: it would end on the browser's error page
    var hand = handFromForm(nextNumber(waiting));
    var count = hand.hearts.reduce(function (sum, hearts) { return sum + (hearts || 0); }, 0);
    // Incomplete: the page's own save and live check say what is missing.
    if (count !== rules.hearts || rules.cards.some(function (card) { return hand[card.key] === null; })) return;
    if (shooter(hand) !== null && form.querySelector('input[name="moon_option"]') && !hand.moon_option) return;
    event.stopImmediatePropagation();
    queue(hand);
  }, true);
  window.OfflineTable = { queue: function (hand) { if (lookup()) queue(hand); } };
  window.addEventListener("online", flush);
  window.addEventListener("offline", render);
  setInterval(flush, 5000); // the Wi-Fi may be up while the server was away: ask again now and then
  // Loaded early (offline, or hands waiting), this script may run before the page's own deferred table.js,
  // which has always run by DOMContentLoaded.
  function start() { render(); flush(); }
  if (window.HandRules) start();
  else document.addEventListener("DOMContentLoaded", start);
})();
