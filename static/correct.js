// The correct-a-hand page, beside table.js: its before-and-after table follows the taps, as the server
// renders it, each time the hand on the form is complete; without the script, "Show the new totals" does it.
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  var asked = 0;
  function comparison() { return document.getElementById("correction"); }
  if (!form || !comparison()) return;
  comparison().querySelector('button[name="preview"]').hidden = true;
  form.addEventListener("hand-complete", function () {
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
  });
})();
