// Keep the follow view fresh: the server tells the page each new version of the game (Server-Sent Events), and the
// page fetches the board then, swapping it in only when it changed (ETag). A slow poll stays beside the stream, and
// takes over at a quicker pace while there is no stream (a browser without one, a proxy that holds it back), and at
// a middle one while the server has no room for it (a stream refused is asked for again a minute later).
// When the server stops answering, say since when the numbers are old instead of showing them as current.
// A phone or tablet standing on the table as its display keeps its screen on, where the browser can.
// A module that imports its words: they are in before the page counts as loaded, so a server gone a moment
// after that is still said.
import { _ } from "./words.js";

(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board) return;
  var WAIT = 4000; // a server that hangs counts as gone after this long: the banner shows within 5 s (9 s with no room)
  var TOLD = 15000; // the poll's pace while the server tells the page (it says it is alive as often)
  var ASKING = 1000; // the poll's pace while it does not
  var NO_ROOM = 5000; // while the server has no room for a stream: sixty phones asking every second slowed their table
  var AGAIN = 60000; // a stream refused is asked for again after this long
  // The version this page shows (its board's ETag): the first question is answered 304 unless the game changed
  // since, and the board is swapped only then.
  var tag = board.dataset.version ? '"' + board.dataset.version + '"' : null;
  var stream = null;
  var refused = false; // the server keeps no stream for this page now (it is full): asked again after AGAIN
  var timer = null;
  var gone = false; // the game was deleted: the page says so and asks no more (each ask would be a 404)
  var updated = new Date(board.dataset.updated); // when the server made this page (the worker may give an old copy)

  function clock(when) {
    return String(when.getHours()).padStart(2, "0") + ":" + String(when.getMinutes()).padStart(2, "0");
  }
  function answered(fresh) {
    if (fresh) updated = new Date();
    var stale = document.getElementById("stale"); // comes with each board, above its totals
    if (!stale) return;
    stale.hidden = fresh;
    if (!fresh) stale.textContent = _("not updated since %(time)s", { time: clock(updated) });
  }
  function told() {
    return stream !== null && stream.readyState === 1; // EventSource.OPEN
  }
  function later() {
    clearTimeout(timer);
    if (!gone) timer = setTimeout(refresh, told() ? TOLD : refused ? NO_ROOM : ASKING);
  }

  function refresh() {
    clearTimeout(timer);
    var headers = tag ? { "If-None-Match": tag } : {};
    var giveUp = new AbortController();
    var waiting = setTimeout(function () { giveUp.abort(); }, WAIT);
    fetch(board.dataset.board, { headers: headers, cache: "no-cache", signal: giveUp.signal }).then(function (answer) {
      answered(answer.status === 200 || answer.status === 304 || answer.status === 404);
      if (answer.status === 200) {
        tag = answer.headers.get("ETag");
        return answer.text().then(function (html) { board.innerHTML = html; });
      }
      if (answer.status === 404) {
        gone = true;
        board.textContent = _("This game was deleted.");
        if (stream) stream.close();
      }
    }).catch(function () { answered(false); })
      .then(function () { clearTimeout(waiting); later(); });
  }

  function listen() {
    var source = new EventSource(board.dataset.events);
    refused = false;
    stream = source;
    source.addEventListener("version", function (news) {
      if ('"' + news.data + '"' !== tag) refresh();
      else answered(true);
    });
    source.addEventListener("alive", function () { answered(true); });
    source.addEventListener("error", function () { // the stream lost: is the server still there?
      // Closed for good, not opened again by the browser: the server answered other than a stream (no room for one)
      if (source.readyState === 2 && !gone) {
        refused = true;
        setTimeout(function () { if (!gone) listen(); }, AGAIN);
      }
      refresh();
    });
  }
  if (window.EventSource && board.dataset.events) listen();
  refresh();

  // The lock lapses whenever the page is hidden: ask again each time it shows.
  function keepAwake() {
    if (document.visibilityState === "visible") navigator.wakeLock.request("screen").catch(function () {});
  }
  if (navigator.wakeLock) {
    document.addEventListener("visibilitychange", keepAwake);
    keepAwake();
  }
})();
