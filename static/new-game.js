// Progressive enhancement of the new-game form: the dealer choices show the names typed.
(function () {
  "use strict";
  var form = document.querySelector("form.new-game");
  if (!form) return;
  function update() {
    form.querySelectorAll("input[data-seat]").forEach(function (input) {
      var label = form.querySelector('[data-dealer-label="' + input.dataset.seat + '"]');
      var name = input.value.trim();
      label.textContent = name || "Player " + (Number(input.dataset.seat) + 1);
      label.parentElement.hidden = !name && Number(input.dataset.seat) >= 3;
    });
  }
  form.addEventListener("input", update);
  update();
})();
