// A hand's life on the table page, from the tap on Save to the server's answer, as plain functions: no page
// (but its words, words.js), no network, no clock here (table.js draws each state and carries out each effect; tests call these alone).
//
//   entering --save--> saving: the totals of the latest preview shown at once, the hand marked as saving
//   saving --answer--> saved (200, 201) | refused (422, with its field) | conflict (409) | failed (another error)
//                      | queued (no answer: the outbox sends it when the server is back)
//   entering --save, offline or hands already waiting--> queued
//
// saved and queued keep Save inert until a chip of the next hand is tapped, so a second tap changes nothing;
// every other state takes the next tap on Save, so no answer and no failed refresh can leave Save dead.
// A state is {phase, number (of the hand the form records next: always the server's), hand (the one sent),
// saved (its number), totals, message, field, choice, stale (the form still shows the hand sent),
// moving (the form just moved under the finger)}. Each step
// gives back {state, effect}: the effect is what the page must do next ("send", "queue", "refresh",
// "compare", "correct", "reset"), or null.
import { _ } from "./words.js";

function noAnswer() {
  return _("The server did not answer. Your hand is kept: tap Save again.");
}

function entering(number) {
  return { phase: "entering", number: number };
}

function step(state, effect) {
  return { state: state, effect: effect || null };
}

// Waiting for an answer, or done until the next hand is begun: a tap on Save does nothing then.
function busy(state) {
  return ["saving", "saved", "queued"].indexOf(state.phase) !== -1;
}

// The form takes no tap while its hand is on its way, or stored and about to give way to the next hand's, or for
// a moment after it moved under the finger.
function inert(state) {
  return state.phase === "saving" || Boolean(state.stale) || Boolean(state.moving);
}

// The next hand was brought into view after a save: the form has moved under the finger, and a stray second tap
// on Save must not land on a chip of the next hand. still(), a moment later, lets it take taps again.
function moved(state) {
  return Object.assign({}, state, { moving: true });
}
function still(state) {
  var kept = Object.assign({}, state);
  delete kept.moving;
  return kept;
}

// Save tapped with a complete hand. `preview` is the latest preview the page holds ({facts, totals}); its totals
// are shown at once when it is of this very hand. `offline`: no network, or hands waiting to go before this one.
function save(state, facts, preview, offline) {
  if (busy(state)) return step(state);
  var hand = Object.assign({ number: state.number }, facts);
  if (offline) return step(queued(hand), "queue");
  var same = preview && JSON.stringify(preview.facts) === JSON.stringify(facts);
  return step({ phase: "saving", number: hand.number, hand: hand, totals: same ? preview.totals : null }, "send");
}

function queued(hand) {
  return { phase: "queued", number: hand.number + 1, saved: hand.number, hand: hand };
}

// The hand stays on the form, with why it was not stored; `field`, the first the server names at fault.
function held(phase, state, message, errors) {
  var field = Object.keys(errors || {})[0];
  return { phase: phase, number: state.number, hand: state.hand, message: message, field: field === "hands" ? null : field };
}

// The server's answer to a save or to a correction (`choice` "mine"): status 0 when there was none at all.
function answered(state, status, body) {
  if (state.phase !== "saving") return step(state);
  body = body || {};
  if (status === 200 || status === 201) {
    var next = body.next_hand ? body.next_hand.number : null; // the server's: null once the game is over
    var saved = { phase: "saved", number: next, saved: state.hand.number, hand: state.hand, choice: state.choice };
    saved.resent = status === 200 && !state.choice;
    saved.stale = true;
    return step(saved, "refresh");
  }
  if (status === 409) return step(held("conflict", state, body.error), "compare");
  if (status === 422) return step(held("refused", state, body.error, body.errors));
  if (!status && !state.choice) return step(queued(state.hand), "queue");
  return step(held("failed", state, body.error || noAnswer()));
}

// The outbox could not be had (no network, and its script never kept): the hand stays on the form.
function notQueued(state) {
  return state.phase === "queued" ? held("failed", { number: state.saved, hand: state.hand }, noAnswer()) : state;
}

// A chip tapped: the next hand begins, or the one held is being changed (a conflict stays until settled).
function tapped(state) {
  if (state.phase === "conflict") return Object.assign({}, state, { message: null });
  return state.phase === "saving" || state.phase === "entering" ? state : entering(state.number);
}

// The server's page is in: its form carries the number of the next hand.
function refreshed(state, number) {
  if (state.phase === "saved") return Object.assign({}, state, { number: number, stale: false });
  return state.phase === "conflict" ? state : entering(number);
}

// Hands wait on this phone: the next one is numbered after them.
function renumbered(state, number) {
  if (state.phase !== "entering" && state.phase !== "queued") return state;
  return Object.assign({}, state, { number: number });
}

// Stored, but the page could not be fetched again: the form starts the next hand by itself.
function refreshFailed(state) {
  var words = _("%(saved)s The page could not refresh: reload it to see the totals.", { saved: lineWords(state) });
  return step(Object.assign({}, state, { message: words, stale: false }), "reset");
}

// A conflict settled: "theirs" keeps the server's hand (nothing to send; `next` is the server's next hand),
// "mine" sends this phone's in its place, as a correction.
function settle(state, choice, next) {
  if (state.phase !== "conflict") return step(state);
  if (choice === "theirs") {
    return step({ phase: "saved", number: next, saved: state.hand.number, choice: choice, stale: true }, "refresh");
  }
  return step({ phase: "saving", number: state.number, hand: state.hand, choice: choice }, "correct");
}

// The game changed on another phone: show the server's page at once, unless a hand is on its way (its answer
// brings the page) or being entered here (the page keeps it and says what changed; a save of it is checked
// against the server's by its number).
function elsewhere(state, entered) {
  if (state.phase === "saving") return null;
  return entered || state.phase === "conflict" ? "notice" : "refresh";
}

// What changed, from the number of the next hand before and after; `kept`, the hand entered here.
function changedWords(before, after, kept) {
  var words = after > before ? _("Hand %(number)d was saved on another phone.", { number: after - 1 })
    : after < before ? _("Hand %(number)d was undone on another phone.", { number: after })
      : _("A hand was corrected on another phone.");
  if (!kept) return words;
  return _("%(change)s Your hand %(number)d stays on the form: Save checks it against the server's.",
    { change: words, number: kept });
}

// What the Save button says; `label`, what it says while a hand is entered.
function buttonWords(state, label) {
  if (state.phase === "saving") return _("Saving hand %(number)d…", { number: state.hand.number });
  if (state.phase === "saved") return _("Hand %(number)d saved ✓", { number: state.saved });
  if (state.phase === "queued") return _("Hand %(number)d kept ✓", { number: state.saved });
  return label;
}

// What the line above Save says after an answer; null while the live check speaks.
function lineWords(state) {
  var number = { number: state.saved };
  if (state.message) return state.message;
  if (state.phase === "queued") return _("Hand %(number)d is kept on this phone: it goes when the server answers.", number);
  if (state.phase !== "saved") return null;
  if (state.choice === "mine") return _("Hand %(number)d: this phone's kept.", number);
  if (state.choice) return _("Hand %(number)d: the other phone's kept.", number);
  return state.resent ? _("Hand %(number)d was already saved.", number) : _("Hand %(number)d saved.", number);
}

// The hands waiting on this phone, as the outbox keeps them (`storage`: the page's localStorage; `key`: the
// game's, which the page carries).
function waitingIn(storage, key) {
  try {
    return JSON.parse(storage.getItem(key)) || [];
  } catch (broken) {
    return [];
  }
}

// The number of the hand the form records next: after the hands waiting on this phone, else the server's.
function nextAfter(queue, number) {
  return queue.length ? queue[queue.length - 1].number + 1 : number;
}

export {
  entering, busy, inert, moved, still, save, answered, notQueued, tapped, refreshed, renumbered, refreshFailed, settle, elsewhere,
  changedWords, buttonWords, lineWords, waitingIn, nextAfter
};
