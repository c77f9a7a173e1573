// Progressive enhancement of the new-game form: the dealer choices show the names typed; "Same players as last
// time" fills the names in place; Enter moves to the next name, never starts the game; a preset fills the house
// rules in place (without the script, each link opens the form filled in, what was typed lost).
(function () {
  "use strict";
  var form = document.querySelector("form.new-game");
  if (!form) return;
  var boxes = Array.prototype.slice.call(form.querySelectorAll("input[data-seat]"));
  var _ = null; // the words' module (a plain script asks for it): the names are shown once it is in
  function update() {
    boxes.forEach(function (input) {
      var label = form.querySelector('[data-dealer-label="' + input.dataset.seat + '"]');
      var name = input.value.trim();
      label.textContent = name || _("Player %(number)d", { number: Number(input.dataset.seat) + 1 });
      label.parentElement.hidden = !name && Number(input.dataset.seat) >= 3;
    });
  }
  form.addEventListener("input", function (event) {
    delete event.target.dataset.filled; // typed into: a tap in it now places the cursor as usual
    if (_) update();
  });
  import("./words.js").then(function (words) {
    _ = words._;
    update();
  });

  // Enter goes on to the next name; in the last box it puts the keyboard away, so the rest of the form shows.
  form.addEventListener("keydown", function (event) {
    var at = boxes.indexOf(event.target);
    if (event.key !== "Enter" || at < 0) return;
    event.preventDefault();
    if (at + 1 < boxes.length) boxes[at + 1].focus();
    else event.target.blur();
  });

  // A name the page filled in is taken whole by a tap (or Tab) until typed into: typing replaces it, never adds to
  // it. A tap places the cursor after the focus moves, so the click selects again.
  function selectFilled(event) {
    var box = event.target;
    if (boxes.indexOf(box) >= 0 && box.dataset.filled) box.select();
  }
  form.addEventListener("focusin", selectFilled);
  form.addEventListener("click", selectFilled);

  var same = form.querySelector("[data-same-players]");
  if (same) {
    same.addEventListener("click", function (event) {
      event.preventDefault();
      var names = JSON.parse(same.dataset.samePlayers);
      boxes.forEach(function (box, at) {
        box.value = names[at] || "";
        if (box.value) box.dataset.filled = "yes";
        else delete box.dataset.filled;
        box.removeAttribute("aria-invalid");
      });
      if (_) update();
    });
  }

  // Beside Start, the house rules that differ from Classic, in the form's own words (forms.NewGameForm.differences
  // says the same on the server); and the pass cycles for another number of players put away.
  var summary = form.querySelector("#rules-summary");
  function summarize() {
    var classic = JSON.parse(summary.dataset.classic);
    var said = [];
    Object.keys(classic).forEach(function (name) {
      var input = form.querySelector('[name="' + name + '"]:checked');
      if (!input || input.closest("label").hidden) return;
      var value = input.type === "checkbox" ? input.checked : input.value;
      var words = input.closest("label").textContent.trim();
      if (name === "target" && value === "custom") value = words = form.querySelector('[name="custom_target"]').value.trim();
      if (value === classic[name] || (input.type === "checkbox" && !value)) return;
      var legend = input.closest("fieldset").querySelector("legend");
      said.push(input.type === "checkbox" ? words : summary.dataset.pair.replace("%(rule)s", legend.textContent.trim()).replace("%(value)s", words));
    });
    summary.textContent = said.length ? summary.dataset.changed.replace("%(rules)s", said.join(" · ")) : summary.dataset.none;
  }
  function fitCycles() {
    var named = boxes.filter(function (box) { return box.value.trim(); }).length;
    form.querySelectorAll("label[data-players]").forEach(function (option) {
      var fits = named < 3 || Number(option.dataset.players) === named;
      option.hidden = !fits && !option.querySelector("input").checked; // a choice made is never taken away
    });
  }
  if (summary) {
    form.addEventListener("change", summarize);
    form.addEventListener("input", function () { fitCycles(); summarize(); });
    form.addEventListener("click", function () { setTimeout(summarize); });
    fitCycles();
    summarize();
  }

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
    var preset = { preset: link.textContent };
    if (_) note.textContent = _("%(preset)s: the house rules below are filled in. Change any of them before you start.", preset);
  });
})();
