// The Print button: shown only where this script runs, since it needs it.
// On the blank sheet: every choice redraws the sheet at once, so Print prints what was chosen.
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });

  var form = document.querySelector("form.sheet-form");
  if (!form) return;
  var asked = 0;
  var typing = null;

  function redraw() {
    var ask = ++asked;
    var query = new URLSearchParams(new FormData(form)).toString();
    var url = location.pathname + "?" + query;
    fetch(url, { credentials: "same-origin" }).then(function (answer) {
      return answer.text();
    }).then(function (html) {
      if (ask !== asked) return;
      var fresh = new DOMParser().parseFromString(html, "text/html");
      document.querySelector(".sheet").replaceWith(fresh.querySelector(".sheet"));
      var paper = fresh.querySelector('link[href*="paper-"]');
      document.querySelector('link[href*="paper-"]').href = paper.getAttribute("href");
      var problems = form.querySelector("[data-problems]");
      if (problems) problems.replaceWith(fresh.querySelector("[data-problems]"));
      history.replaceState(null, "", url);
    }).catch(function () { /* "Update the sheet" still works */ });
  }

  form.addEventListener("change", redraw);
  form.addEventListener("input", function (event) {
    if (event.target.type !== "text" && event.target.type !== "number") return;
    clearTimeout(typing);
    typing = setTimeout(redraw, 300); // names and the target: once the typing pauses
  });
})();
