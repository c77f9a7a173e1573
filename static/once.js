// A form marked data-once is sent once: a second tap while the first is on its way does nothing,
// so a double tap on "Start the game" or "Rematch" starts one game, not two.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute("data-once")) return;
    if (form.dataset.sent) event.preventDefault();
    form.dataset.sent = "yes";
  });
  // Back to the page from the browser's cache: the form may be sent again.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-once]").forEach(function (form) {
      delete form.dataset.sent;
    });
  });
})();
