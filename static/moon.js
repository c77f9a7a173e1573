// A moon on the hand form (hand-form.js loads this when a preview says one was shot): the panel says who shot
// it, each option's totals and outcome as the server worked them out, and the option the rules advise, chosen
// unless the table `picked` one itself. Offline the preview knows only the shooter: the options wait.

import { total } from "./words.js";

function show(panel, moon, players, short, picked) {
  var outcomes = JSON.parse(panel.dataset.outcomes);
  var wasHidden = panel.hidden;
  panel.hidden = false;
  panel.querySelector("[data-moon-shooter]").textContent = players[moon.shooter];
  panel.querySelectorAll("[data-moon-words]").forEach(function (words) {
    words.textContent = JSON.parse(words.dataset.moonWords)[moon.shooter]; // what the floor really takes off
  });
  if (wasHidden) panel.scrollIntoView({ block: "end" });
  Object.keys(moon.options || {}).forEach(function (option) {
    var choice = moon.options[option];
    var totals = panel.querySelector('[data-moon-totals="' + option + '"]');
    if (totals) totals.textContent = choice.totals.map(function (t, seat) { return short[seat] + " " + total(t); }).join(", ");
    var outcome = panel.querySelector('[data-moon-outcome="' + option + '"]');
    if (outcome) outcome.textContent = outcomes[choice.outcome] || choice.outcome;
  });
  panel.querySelectorAll("[data-moon-detail]").forEach(function (detail) { detail.hidden = !moon.options; });
  panel.querySelectorAll("[data-advised]").forEach(function (badge) { badge.hidden = badge.dataset.advised !== moon.advice; });
  var advised = panel.querySelector('input[name="moon_option"][value="' + moon.advice + '"]');
  if (advised && !picked) advised.checked = true;
}

export { show };
