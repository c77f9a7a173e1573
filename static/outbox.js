// The table page's outbox: a hand saved while the server cannot be reached waits here, in this phone's
// localStorage, and is sent in order as soon as the server answers again. No DOM here; the page's
// script calls:
//
//   Outbox.send(gameId, hand)  -> Promise of "saved" | "queued" | {conflict: true, hand, theirs, message}
//   Outbox.flush(gameId)       -> the same, for the hands already waiting (call it when the network returns)
//   Outbox.waiting(gameId)     -> the hands waiting, oldest first
//   Outbox.keepTheirs(gameId) / Outbox.useMine(gameId) -> settle the conflict at the head of the queue
//
// `hand` is the API's record body and must carry its `number`: that makes a resend safe. The server
// stores a hand once (an identical resend answers 200, or 409 from a server without that rule, which
// is checked against the hand stored), and a different hand under that number is a conflict the
// person settles: never dropped silently.
(function () {
  "use strict";
  var JSON_HEADERS = { "Content-Type": "application/json" };

  function hands(gameId) { return "/api/games/" + gameId + "/hands"; }
  function storageKey(gameId) { return "outbox:" + gameId; }

  function waiting(gameId) {
    try { return JSON.parse(localStorage.getItem(storageKey(gameId))) || []; } catch (broken) { return []; }
  }
  function store(gameId, queue) {
    if (queue.length) localStorage.setItem(storageKey(gameId), JSON.stringify(queue));
    else localStorage.removeItem(storageKey(gameId));
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
  function conflict(gameId, hand, answer) {
    var reason = answer.json().catch(function () { return {}; });
    var game = fetch("/api/games/" + gameId, { credentials: "same-origin", cache: "no-store" })
      .then(function (got) { return got.ok ? got.json() : null; }).catch(function () { return null; });
    return Promise.all([reason, game]).then(function (both) {
      var theirs = both[1] ? both[1].hands[hand.number - 1] || null : null;
      if (answer.status === 409 && sameHand(theirs, hand)) return "saved"; // sent before; its answer was lost
      return { conflict: true, hand: hand, theirs: theirs, message: both[0].error || "The server refused this hand." };
    });
  }

  // One hand: "saved", "queued" (no answer, or not now: try again later) or a conflict.
  function deliver(gameId, hand) {
    if (!navigator.onLine) return Promise.resolve("queued"); // the phone knows it has no network: wait for "online"
    return call("POST", hands(gameId), hand).then(function (answer) {
      if (answer.ok) return "saved";
      if ([404, 409, 422].indexOf(answer.status) !== -1) return conflict(gameId, hand, answer);
      return "queued";
    }, function () { return "queued"; });
  }

  var running = {};
  function flush(gameId) {
    if (running[gameId]) return running[gameId];
    function next() {
      var queue = waiting(gameId);
      if (!queue.length) return Promise.resolve("saved");
      return deliver(gameId, queue[0]).then(function (result) {
        if (result !== "saved") return result;
        store(gameId, waiting(gameId).slice(1));
        return next();
      });
    }
    running[gameId] = next().finally(function () { delete running[gameId]; });
    return running[gameId];
  }

  function send(gameId, hand) {
    store(gameId, waiting(gameId).concat([hand]));
    return running[gameId] ? running[gameId].then(function () { return flush(gameId); }) : flush(gameId);
  }

  function keepTheirs(gameId) {
    store(gameId, waiting(gameId).slice(1));
    return flush(gameId);
  }

  // This phone's hand replaces the server's: a correction of that hand, then the rest of the queue.
  function useMine(gameId) {
    var hand = waiting(gameId)[0];
    return call("PUT", hands(gameId) + "/" + hand.number, hand).then(function (answer) {
      if (!answer.ok) return conflict(gameId, hand, answer);
      store(gameId, waiting(gameId).slice(1));
      return flush(gameId);
    }, function () { return "queued"; });
  }

  window.Outbox = { send: send, flush: flush, waiting: waiting, keepTheirs: keepTheirs, useMine: useMine };
})();
