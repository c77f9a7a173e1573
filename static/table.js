// The table page's script, with the page: the hand form made live (hand-form.js), the screen kept on, and a
// question every few seconds: did the game change on another phone? The save pipeline (save.js) comes when it is
// first wanted (a tap on the form, a change seen elsewhere, the page offline), and every other part after it.
// Progressive enhancement: without the scripts the form posts as a plain form.
import { handForm } from "./hand-form.js";
import * as draft from "./draft.js";
import { nextAfter, waitingIn } from "./hand-life.js";

var ASK_EVERY = 2000; // ms between asking whether the game changed elsewhere

// What this script and save.js share: the form's controller and addresses, the version of the game the page
// shows, and how many of the page's own requests are on their way (the change they make is no other phone's).
var page = { busy: 0 };
var pipeline = null; // the promise of save.js, started
var saver = null; // save.js, once it has started

function saves() {
  if (!pipeline) {
    pipeline = import("./save.js").then(function (module) {
      module.start(page);
      saver = module;
      return module;
    });
    pipeline.catch(function () { pipeline = null; });
  }
  return pipeline;
}

// Make a form live (the page's, or a fresh one the server sent); each of its hooks is the pipeline's.
page.begin = function (form) {
  page.hand = null;
  page.hand = handForm(form, {
    preview: function (facts) { return saves().then(function (module) { return module.preview(facts); }); },
    tapped: function () { return saver ? saver.tapped() : saves(); },
    changed: function () {
      if (page.hand) remember();
      if (saver) saver.draw();
    }
  });
  page.version = form.dataset.version;
  page.next = Number(form.elements.number.value);
  remember(); // a fresh form holds nothing: the taps kept of the hand before it (saved, or given up) go
};

// The taps of the hand on the form, kept on this phone until it is saved or the form starts afresh (draft.js).
function remember() {
  draft.keep(localStorage, page.links.page, Number(page.hand.form.elements.number.value), page.hand.taps());
}

function submitted(event) {
  if (event.target.id !== "hand-form") return;
  event.preventDefault();
  saves().then(function (module) { module.submitted(); });
}

// The game changed on another phone: the follow board's version, asked with HEAD (no body while unchanged).
function watch() {
  var asked = page.version;
  if (document.hidden || page.busy) return;
  fetch(page.links.page + "/follow/board", { method: "HEAD", cache: "no-store", headers: { "If-None-Match": '"' + asked + '"' } })
    .then(function (answer) {
      if (answer.status === 304 || asked !== page.version || page.busy) return;
      saves().then(function (module) { module.changedElsewhere(); });
    }, function () { /* no answer: the connection banner says so */ });
}

// Keep the screen on while a game is open at the table; where the browser cannot, nothing happens.
function keepAwake() {
  function ask() {
    if (document.visibilityState === "visible") navigator.wakeLock.request("screen").catch(function () {});
  }
  if (!navigator.wakeLock) return;
  document.addEventListener("visibilitychange", ask);
  ask();
}

function start() {
  var form = document.getElementById("hand-form");
  var facts = JSON.parse(document.getElementById("offline-facts").textContent);
  var outbox = document.getElementById("offline-facts").dataset.outbox; // where this phone keeps hands waiting
  page.links = { page: form.dataset.page, hands: form.dataset.hands, preview: form.dataset.preview, game: facts.game,
    game_url: facts.game_url, outbox: outbox };
  // A hand half entered before the page was reloaded comes back: the one after the hands waiting on this phone.
  var number = nextAfter(waitingIn(localStorage, outbox), Number(form.elements.number.value));
  var taps = draft.kept(localStorage, page.links.page, number);
  page.begin(form);
  if (taps) page.hand.fill(taps);
  document.addEventListener("submit", submitted);
  // Offline, hands waiting on this phone, or no service worker to keep the files for when the network goes:
  // the pipeline and the outbox now.
  if (!navigator.onLine || localStorage.getItem(outbox) || !navigator.serviceWorker) saves();
  window.addEventListener("offline", saves);
  setInterval(watch, ASK_EVERY);
  document.addEventListener("visibilitychange", watch);
  keepAwake();
}

start();
