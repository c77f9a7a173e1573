// Progressive enhancement of the new-game form: the dealer choices show the names typed, and a preset
// fills the house rules in place (without the script, its link opens the form filled in, names lost).
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

  // A preset's fields as the server rendered them (forms.NewGameForm.presets): a box ticked, a value chosen.
  var presets = form.querySelector("[data-presets]");
  if (!presets) return;
  var filled = JSON.parse(presets.dataset.presets);
  var note = presets.querySelector("[data-preset-note]");
  presets.addEventListener("click", function (event) {
    var link = event.target.closest("[data-preset]");
    if (!link) return;
    event.preventDefault();
    var fields = filled[link.dataset.preset];
    Object.keys(fields).forEach(function (name) {
      form.querySelectorAll('[name="' + name + '"]').forEach(function (input) {
        if (input.type === "checkbox") input.checked = fields[name];
        else if (input.type === "radio") input.checked = input.value === fields[name];
        else input.value = fields[name];
      });
    });
    presets.querySelectorAll("[data-preset]").forEach(function (other) {
      other.setAttribute("aria-pressed", String(other === link));
    });
    note.textContent = link.textContent + ": the house rules below are filled in. Change any of them before you start.";
  });
})();
