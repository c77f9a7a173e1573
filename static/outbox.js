// The table page's outbox: a hand saved while the server cannot be reached waits here, in this phone's
// localStorage, and is sent in order as soon as the server answers again. No drawing here:
//
//   send(game, hand)  -> a promise of "saved" | "queued" | a conflict (see below), once the queue is through
//   flush(game)       -> the same, for the hands already waiting (call it when the network returns)
//   waiting(game)     -> the hands waiting, oldest first
//   keepTheirs(game) / useMine(game) -> settle the conflict at the head of the queue, then go on
//
// `game` holds the game's id, its key in this phone's storage and its addresses ({id, key, gameUrl, hands}). `hand` is the API's record body and carries
// its `number`: that makes a resend safe. The server stores a hand once (an identical resend answers 200, or 409
// from a server without that rule, checked here against the hand stored), and a different hand under that
// number is a conflict the person settles, {conflict: true, hand, theirs, game, mine, message} (conflict.js):
// never dropped silently. Each promise also says how many hands went through: result.sent.
import { waitingIn } from "./hand-life.js";
import { gather } from "./conflict.js";
import { _ } from "./words.js";

var JSON_HEADERS = { "Content-Type": "application/json" };

function waiting(game) { return waitingIn(localStorage, game.key); }
function store(game, queue) {
  if (queue.length) localStorage.setItem(game.key, JSON.stringify(queue));
  else localStorage.removeItem(game.key);
}

function call(method, url, body) {
  return fetch(url, { method: method, headers: JSON_HEADERS, body: JSON.stringify(body), credentials: "same-origin" });
}

function orNull(value) { return value === undefined ? null : value; }
// Every fact of this phone's hand as stored: the hearts, each card it names, every trick, the moon's option.
function sameHand(stored, hand) {
  return Boolean(stored) && Object.keys(hand).every(function (key) {
    if (key === "hearts") return stored.hearts.join() === hand.hearts.join();
    if (key === "moon_option") return !hand.moon_option || (stored.moon && stored.moon.option) === hand.moon_option;
    return key === "number" || orNull(stored[key]) === orNull(hand[key]);
  });
}

// A refusal, with the server's hand under that number (if any) to show beside this phone's.
function conflict(game, hand, answer) {
  return answer.json().catch(function () { return {}; }).then(function (reason) {
    var message = reason.error || _("The server refused this hand.");
    return gather(game.gameUrl, game.hands, hand, message);
  }).then(function (found) {
    if (answer.status === 409 && sameHand(found.theirs, hand)) return "saved"; // sent before; its answer was lost
    if (found.theirs) {
      found.message = _("Another phone recorded hand %(number)d while this one was offline.", { number: hand.number });
    }
    found.conflict = true;
    return found;
  }, function () { return "queued"; });
}

// One hand: "saved", "queued" (no answer, or not now: try again later) or a conflict.
function deliver(game, hand) {
  if (!navigator.onLine) return Promise.resolve("queued"); // the phone knows it has no network: wait for "online"
  return call("POST", game.hands, hand).then(function (answer) {
    if (answer.ok) return "saved";
    if ([404, 409, 422].indexOf(answer.status) !== -1) return conflict(game, hand, answer);
    return "queued";
  }, function () { return "queued"; });
}

var running = {};
function flush(game) {
  if (running[game.id]) return running[game.id];
  var sent = 0;
  function next() {
    var queue = waiting(game);
    if (!queue.length) return Promise.resolve("saved");
    return deliver(game, queue[0]).then(function (result) {
      if (result !== "saved") return result;
      store(game, waiting(game).slice(1));
      sent++;
      return next();
    });
  }
  running[game.id] = next().then(function (result) {
    delete running[game.id];
    return { outcome: result, sent: sent };
  });
  return running[game.id];
}

function send(game, hand) {
  store(game, waiting(game).concat([hand]));
  return running[game.id] ? running[game.id].then(function () { return flush(game); }) : flush(game);
}

function keepTheirs(game) {
  store(game, waiting(game).slice(1));
  return flush(game);
}

// This phone's hand replaces the server's: a correction of that hand, then the rest of the queue.
function useMine(game) {
  var hand = waiting(game)[0];
  return call("PUT", game.hands + "/" + hand.number, hand).then(function (answer) {
    if (!answer.ok) return conflict(game, hand, answer).then(function (result) { return { outcome: result, sent: 0 }; });
    store(game, waiting(game).slice(1));
    return flush(game).then(function (result) { return { outcome: result.outcome, sent: result.sent + 1 }; });
  }, function () { return { outcome: "queued", sent: 0 }; });
}

export { send, flush, waiting, keepTheirs, useMine };
