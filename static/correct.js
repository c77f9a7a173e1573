// The correct-a-hand page: the hand form (hand-form.js), and its before-and-after table following the taps as
// the server renders it, each time the hand on the form is complete; without the script, "Show the new totals"
// does it. A correction the server would refuse says so above Save, where the player is looking, with what to do.
import { handForm } from "./hand-form.js";

var form = document.getElementById("hand-form");
var asked = 0;
var hand;

function comparison() { return document.getElementById("correction"); }

function compare() {
  var ask = ++asked;
  var data = new FormData(form);
  data.set("preview", "1");
  fetch(form.action, { method: "POST", body: data, credentials: "same-origin" }).then(function (answer) {
    return answer.text();
  }).then(function (html) {
    var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("correction");
    if (ask !== asked || !fresh || !comparison()) return;
    fresh.querySelector('button[name="preview"]').hidden = true;
    comparison().replaceWith(fresh);
  }).catch(function () { /* the server compares again on "Show the new totals" */ });
}

// What the correction gives (the API's preview of it): the live check says it, or why the server would refuse it.
function preview(facts) {
  var headers = { "Content-Type": "application/json" };
  return fetch(form.dataset.preview, { method: "POST", headers: headers, body: JSON.stringify(facts) }).then(function (answer) {
    return answer.json();
  });
}

if (form && comparison()) {
  comparison().querySelector('button[name="preview"]').hidden = true;
  hand = handForm(form, {
    preview: preview,
    complete: compare,
    changed: function () { if (hand) hand.button.textContent = hand.label(); }
  });
  form.addEventListener("submit", function (event) {
    var gap = hand.missing();
    if (gap) { event.preventDefault(); hand.point(gap.key, gap.message); }
  });
}
