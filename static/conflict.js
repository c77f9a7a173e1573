// Two versions of one hand: this phone's, and the one the server has because another phone recorded it first.
// The box shows the facts where they differ and the totals each choice leads to, side by side; neither choice
// is the default (two plain buttons, nothing focused, nothing decided until one is tapped). The save (table.js)
// and the outbox (offline-table.js) both use it.
import { _, total as shownTotal } from "./words.js";

var JSON_HEADERS = { "Content-Type": "application/json" };

// The facts where two versions of one hand differ, each as [what, this phone's, the server's]: the hearts of a
// seat (["hearts", seat]), a card's taker (its key), every trick, the moon's option. `theirs` is the hand as the
// API lists it, `mine` as it was sent. (Plain: no page here.)
function differences(mine, theirs, cards) {
  var found = [];
  mine.hearts.forEach(function (count, seat) {
    if (theirs.hearts[seat] !== count) found.push([["hearts", seat], count, theirs.hearts[seat]]);
  });
  cards.map(function (card) { return card.key; }).concat(["all_tricks"]).forEach(function (key) {
    var here = mine[key] === undefined ? null : mine[key];
    if (here !== theirs[key]) found.push([key, here, theirs[key]]);
  });
  var option = theirs.moon ? theirs.moon.option : null;
  if ((mine.moon_option || null) !== option && option !== "sun") found.push(["moon_option", mine.moon_option || null, option]);
  return found;
}

function post(url, body) {
  return fetch(url, { method: "POST", credentials: "same-origin", headers: JSON_HEADERS, body: JSON.stringify(body) })
    .then(function (answer) { return answer.json(); });
}

// The server's game, its hand under this number (null when it has none), and what keeping this phone's hand
// would give instead (the preview of that correction: its totals, or why the server would refuse it).
function gather(gameUrl, handsUrl, hand, message) {
  return fetch(gameUrl, { credentials: "same-origin", cache: "no-store" }).then(function (answer) {
    return answer.ok ? answer.json() : null;
  }).then(function (game) {
    var found = { hand: hand, game: game, theirs: (game && game.hands[hand.number - 1]) || null, message: message };
    if (!found.theirs) return found;
    return post(handsUrl + "/" + hand.number + "/preview", hand).then(function (mine) {
      found.mine = mine;
      return found;
    });
  });
}

// The box's looks come with it (offline.css): the table page loads app.css alone.
function styled() {
  if (document.querySelector('link[href="/static/offline.css"]')) return;
  var link = document.head.appendChild(document.createElement("link"));
  link.rel = "stylesheet";
  link.href = "/static/offline.css";
}

function element(tag, text, className) {
  var made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

// What a fact is, and its value, in the words of the table: short names, the cards' own names.
function what(key, table) {
  if (key[0] === "hearts") return "♥ " + table.short[key[1]];
  if (key === "all_tricks") return _("Every trick");
  if (key === "moon_option") return _("Moon");
  return table.rules.cards.filter(function (card) { return card.key === key; })[0].name;
}
function value(key, fact, table) {
  if (fact === null || fact === undefined) return "—";
  if (key[0] === "hearts") return String(fact);
  if (key === "moon_option") return table.rules.moon[fact].replace("{shooter}", _("shooter"));
  return table.short[fact];
}

function differencesTable(found, table) {
  var grid = element("table", undefined, "versions");
  var head = grid.appendChild(element("thead")).appendChild(element("tr"));
  ["", _("This phone"), _("Other phone")].forEach(function (words) { head.appendChild(element("th", words)).scope = "col"; });
  var body = grid.appendChild(element("tbody"));
  differences(found.hand, found.theirs, table.rules.cards).forEach(function (difference) {
    var row = body.appendChild(element("tr"));
    row.appendChild(element("th", what(difference[0], table))).scope = "row";
    row.appendChild(element("td", value(difference[0], difference[1], table)));
    row.appendChild(element("td", value(difference[0], difference[2], table)));
  });
  return grid;
}

// One choice: its button, and the totals it leads to (or why the server would not take it).
function choice(words, outcome, table, chosen) {
  var part = element("div", undefined, "choice");
  var button = part.appendChild(element("button", words));
  button.type = "button";
  button.addEventListener("click", function () {
    part.parentNode.querySelectorAll("button").forEach(function (each) { each.disabled = true; });
    chosen();
  });
  if (!outcome) return part;
  if (outcome.error) {
    part.appendChild(element("p", outcome.error, "problem"));
    button.disabled = true;
  } else {
    var totals = outcome.totals.map(function (total, seat) { return table.short[seat] + " " + shownTotal(total); }).join(" · ");
    part.appendChild(element("p", _("Totals then: %(totals)s", { totals: totals })));
  }
  return part;
}

// `choose.theirs()` keeps the server's hand (or drops this phone's, when the server has none to show),
// `choose.mine()` puts this phone's in its place.
function show(box, found, table, choose) {
  var number = { number: found.hand.number };
  styled();
  var title = element("h2", _("Hand %(number)d: two versions", number));
  title.tabIndex = -1;
  box.replaceChildren(title, element("p", found.message));
  if (found.theirs) {
    box.append(differencesTable(found, table),
      choice(_("Keep the other phone's hand %(number)d", number), found.game, table, choose.theirs),
      choice(_("Keep this phone's hand %(number)d", number), found.mine, table, choose.mine));
  } else {
    box.append(choice(_("Drop this phone's hand %(number)d", number), null, table, choose.theirs));
  }
  box.hidden = false;
  title.focus({ preventScroll: true });
  box.scrollIntoView({ block: "nearest" });
}

// A save another phone beat (409), from table.js (`table`: its page, see there): both versions side by side, or,
// when the server has no other version (the hand numbers moved: an undo elsewhere), the server's page with this
// hand back on its form. Should anything fail here, Save still takes the hand again.
function beaten(table, sent, message) {
  var links = table.links;
  return gather(links.game_url, links.hands, sent, message).then(function (found) {
    if (!found.theirs) {
      var back = _("%(problem)s Your hand is back on the form: check it and save.", { problem: found.message });
      return table.restart(sent, back, "problem");
    }
    show(document.getElementById("conflict"), found, table.words(), {
      theirs: function () { table.settle("theirs", found.game.next_hand && found.game.next_hand.number); },
      mine: function () { table.settle("mine"); }
    });
  });
}

export { gather, show, beaten, differences, styled };
