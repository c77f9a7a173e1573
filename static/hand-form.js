// The hand form, on the table page (table.js) and the correct-a-hand page (correct.js): the chips read into an entry,
// and what hand-entry.js makes of it drawn (what it still lacks and where, the last row filled in, the live check
// above Save, what Save says). No rule is written here: the
// hearts in a hand, the penalty cards and the moon's words come with the form (data-rules, from the rules core);
// the scores, the moon and its options come from the preview the page asks for.
//
// `hooks`, each optional: preview(facts) -> a promise of the preview's answer; complete(facts), each time the hand
// on the form is complete; tapped(), on each tap; changed(), after each tap and preview (the page draws Save).
import { _ } from "./words.js";
import * as entries from "./hand-entry.js";

function handForm(form, hooks) {
  var players = JSON.parse(form.dataset.players);
  var short = form.dataset.short ? JSON.parse(form.dataset.short) : players;
  var rules = JSON.parse(form.dataset.rules);
  var live = form.querySelector("#live-check");
  var panel = form.querySelector("#moon-panel"); // none when the game plays no moon
  var button = form.querySelector(".save-bar [type=submit]");
  var touched = {};
  var lastRow = 0;
  var asked = 0;
  var shooter = null;
  var pickedByHand = false; // once the table picks a moon option, the advice no longer changes it
  var latest = null; // the latest preview, with the facts it is of
  var held = live.hasAttribute("data-refused"); // words that stay in sight until the next tap (a refusal)

  function chosen(name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input && input.value !== "" ? input.value : null;
  }
  function checked(name) {
    var value = chosen(name);
    return value === null ? null : Number(value);
  }
  function hearts(seat) { return checked("hearts-" + seat); }
  function row(seat) { return form.querySelector("#hearts-" + seat); }
  // A row shows half its counts at a time (macros.chips, halves): the half with the count the form put there.
  function turnTo(seat) {
    var turn = row(seat).querySelector(".turn input");
    var chip = row(seat).querySelector("input[type=radio]:checked");
    if (turn && chip) turn.checked = chip.parentNode.classList.contains("upper");
  }
  // A row turned away from its count shows that count on its turn chip ("9" where "7+" was): every count of the
  // hand stays in sight before Save.
  function drawTurns() {
    form.querySelectorAll(".hearts").forEach(function (field) {
      var turn = field.querySelector(".turn input");
      var chip = field.querySelector("input[type=radio]:checked");
      var held = field.querySelector(".turn .held");
      if (!turn || !held) return;
      held.textContent = chip && chip.parentNode.classList.contains("upper") !== turn.checked ? chip.value : "";
    });
  }

  // What is entered, as hand-entry.js reads it.
  function entry() {
    var cards = {};
    rules.cards.forEach(function (card) { cards[card.key] = checked(card.key); });
    return {
      hearts: players.map(function (_name, seat) { return hearts(seat); }), cards: cards,
      touched: Object.keys(touched).map(Number), option: moonOn() ? chosen("moon_option") : null
    };
  }

  // The last row left fills itself in, once, and says so beside its name. It then counts as entered: a later tap
  // on another row does not move it out of sight; the hearts no longer add up, and the line above Save says so.
  function fillLast() {
    var last = entries.lastRow(entry(), rules);
    if (!last) return;
    var chip = form.querySelector('input[name="hearts-' + last.seat + '"][value="' + last.count + '"]');
    if (!chip) return;
    chip.checked = true;
    turnTo(last.seat);
    touched[last.seat] = true;
    var note = document.createElement("span");
    note.className = "filled-note";
    note.setAttribute("aria-hidden", "true"); // the row keeps its name ("Hearts taken by Eve"); the eyes are told
    note.textContent = _("filled in");
    row(last.seat).classList.add("filled");
    row(last.seat).querySelector("legend").append(" ", note);
  }
  // A tap on the row filled in (or a new hand) makes it the player's own again.
  function unfill(seat) {
    form.querySelectorAll(seat === undefined ? ".hearts.filled" : "#hearts-" + seat + ".filled").forEach(function (field) {
      field.classList.remove("filled");
      field.querySelectorAll(".filled-note").forEach(function (note) { note.previousSibling.remove(); note.remove(); });
    });
  }

  function moonOn() {
    return Boolean(panel) && !panel.hidden && panel.querySelector('input[name="moon_option"]') !== null;
  }

  function facts() {
    var body = { hearts: players.map(function (_, seat) { return hearts(seat); }) };
    rules.cards.forEach(function (card) { body[card.key] = checked(card.key); });
    if (form.querySelector('input[name="all_tricks"]')) body.all_tricks = checked("all_tricks");
    var option = chosen("moon_option");
    if (option !== null && moonOn()) body.moon_option = option;
    return body;
  }

  // What the hand still lacks, and where: Save never sends a hand the page knows is incomplete.
  function missing() {
    return entries.missing(entry(), rules, players, lastRow, moonOn());
  }

  function say(words, kind) {
    live.textContent = words;
    live.className = "live " + (kind || "");
  }
  function hold(words, kind) {
    say(words, kind);
    held = true;
  }
  function unmark() {
    form.querySelectorAll(".missing").forEach(function (field) { field.classList.remove("missing"); });
  }
  // Say what is wrong where the player looks (the line above Save), and bring the field at fault (its key, as
  // missing() and the server name it) into sight.
  function point(key, message) {
    var field = key === "hearts" ? row(lastRow) : key === "moon_option" ? panel : key && form.querySelector("#" + key);
    unmark();
    say(message, "problem");
    if (!field) return;
    field.classList.add("missing");
    field.scrollIntoView({ block: "center" });
    var input = field.querySelector("input[type=radio]:checked") || field.querySelector("input");
    if (input) input.focus({ preventScroll: true });
  }

  function label() {
    return entries.saveLabel(button.dataset.label, rules, moonOn() ? chosen("moon_option") : null, shooter, short);
  }

  function hideMoon() {
    if (!panel || panel.hidden) return;
    panel.hidden = true;
    panel.querySelectorAll('input[name="moon_option"]').forEach(function (input) { input.checked = false; });
    pickedByHand = false;
    shooter = null;
  }

  // A moon as the preview says it, drawn by moon.js (moons are rare: it comes when one is shot).
  function showMoon(moon) {
    if (!panel || !moon) { hideMoon(); return Promise.resolve(); }
    shooter = moon.shooter;
    return import("./moon.js").then(function (module) { module.show(panel, moon, players, short, pickedByHand); });
  }

  function ask() {
    var mine = ++asked;
    hooks.preview(facts()).then(function (body) {
      if (mine !== asked) return;
      if (body.error) { hold(body.error, "problem"); return; }
      return showMoon(body.moon).then(function () {
        if (mine !== asked) return;
        latest = body.totals ? { facts: facts(), totals: body.totals } : null; // of the advice, once it is chosen
        changed();
        if (held) return;
        if (body.moon) say(_("%(name)s shot the moon: the options are above.", { name: players[body.moon.shooter] }), "ok");
        else if (body.scores) say(entries.scoresWords(body.scores, body.tie_break, rules, short), "ok");
      });
    }).catch(function () { /* no answer: the server checks the hand again on Save */ });
  }

  function check() {
    var now = entry();
    var said = entries.check(now, rules);
    latest = null;
    if (entries.counted(now) !== rules.hearts) hideMoon();
    if (!held) say(said.words, said.kind);
    if (said.complete) {
      if (hooks.preview) ask();
      if (hooks.complete) hooks.complete(facts());
    }
    drawTurns();
    changed();
  }
  function changed() {
    if (hooks.changed) hooks.changed();
  }

  // Put a hand back on the form: after an undo, a save another phone beat, or a reload (its taps() kept, with the
  // rows tapped: the last one left still fills itself in).
  function fill(hand) {
    hand.hearts.forEach(function (count, seat) {
      var chip = form.querySelector('input[name="hearts-' + seat + '"][value="' + count + '"]');
      if (chip) chip.checked = true;
      turnTo(seat);
      if (!hand.touched || hand.touched.indexOf(seat) !== -1) touched[seat] = true;
    });
    rules.cards.map(function (card) { return card.key; }).concat(["all_tricks", "moon_option"]).forEach(function (name) {
      var value = hand[name] === undefined || hand[name] === null ? "" : hand[name];
      var input = form.querySelector('input[name="' + name + '"][value="' + value + '"]');
      if (input) input.checked = true;
    });
    pickedByHand = Boolean(hand.moon_option);
    check();
  }

  // The next hand starts clean: no row filled in from the last one, no moon, nothing marked.
  function reset(number) {
    form.reset();
    form.elements.number.value = number;
    touched = {};
    lastRow = 0;
    held = false;
    unfill();
    hideMoon();
    unmark();
    check();
  }

  // Whether anything was entered on this form yet.
  function entered() {
    return Object.keys(touched).length > 0 || rules.cards.some(function (card) { return checked(card.key) !== null; });
  }

  // What was tapped so far, for fill() after a reload; null when nothing was.
  function taps() {
    if (!entered()) return null;
    var body = facts();
    body.moon_option = chosen("moon_option");
    body.touched = Object.keys(touched).map(Number);
    return body;
  }

  // A tap on the chip already chosen (0 at first) fires no change, only a click.
  function tapped(event) {
    if (event.target.type === "checkbox") drawTurns(); // a row turned: nothing entered
    if (event.target.type !== "radio") return;
    unmark();
    held = false;
    if (event.target.name === "moon_option") pickedByHand = true;
    if (hooks.tapped) hooks.tapped();
    var tappedRow = /^hearts-(\d+)$/.exec(event.target.name);
    if (tappedRow) { unfill(tappedRow[1]); touched[tappedRow[1]] = true; lastRow = Number(tappedRow[1]); fillLast(); }
    check();
  }
  form.addEventListener("click", tapped);
  form.addEventListener("change", tapped);
  // Rows tapped before this script ran (a slow first load: the plain form took the taps) count as tapped, so the
  // last row fills itself in all the same; a tap then on the chip the page came with (0) cannot be told apart.
  players.forEach(function (_name, seat) {
    var chip = row(seat).querySelector("input[type=radio]:checked");
    if (chip && !chip.defaultChecked) { touched[seat] = true; lastRow = seat; }
  });
  if (entered()) fillLast();
  check();
  form.dataset.live = "yes"; // from here on a tap is this script's (before it, the plain form's: counted just above)
  return {
    form: form, button: button, facts: facts, missing: missing, point: point, say: say, hold: hold, label: label,
    fill: fill, reset: reset, entered: entered, taps: taps, latest: function () { return latest; }
  };
}

export { handForm };
