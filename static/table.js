// Progressive enhancement: the forms work without this script.
// On the hand form: a live check, the last player's hearts filled in, a moon's options.
// On the new-game form: the dealer choices show the names typed.
(function () {
  "use strict";
  var HEARTS = 13;

  function chosen(form, name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input && input.value !== "" ? input.value : null;
  }
  function checked(form, name) {
    var value = chosen(form, name);
    return value === null ? null : Number(value);
  }

  function handForm(form) {
    var players = JSON.parse(form.dataset.players);
    var live = document.getElementById("live-check");
    var panel = document.getElementById("moon-panel");
    var outcomes = panel.dataset.outcomes ? JSON.parse(panel.dataset.outcomes) : {};
    var touched = {};
    var asked = 0;

    function hearts(seat) { return checked(form, "hearts-" + seat); }
    function total() {
      return players.reduce(function (sum, _, seat) { return sum + (hearts(seat) || 0); }, 0);
    }

    function fillLast() {
      var open = players.map(function (_, seat) { return seat; }).filter(function (seat) { return !touched[seat]; });
      if (open.length !== 1) return;
      var rest = HEARTS - (total() - (hearts(open[0]) || 0));
      var chip = form.querySelector('input[name="hearts-' + open[0] + '"][value="' + rest + '"]');
      if (chip) chip.checked = true;
    }

    function facts() {
      var body = { hearts: players.map(function (_, seat) { return hearts(seat); }), queen: checked(form, "queen") };
      if (form.querySelector('input[name="jack"]')) body.jack = checked(form, "jack");
      if (form.querySelector('input[name="all_tricks"]')) body.all_tricks = checked(form, "all_tricks");
      var option = chosen(form, "moon_option");
      if (option !== null) body.moon_option = option;
      return body;
    }

    function showMoon(shooter, moon) {
      var isSun = shooter !== null && checked(form, "all_tricks") === shooter;
      panel.hidden = shooter === null || isSun;
      if (panel.hidden) return;
      panel.querySelector("[data-moon-shooter]").textContent = players[shooter];
      if (!moon) return;
      Object.keys(moon.options).forEach(function (option) {
        var choice = moon.options[option];
        var totals = panel.querySelector('[data-moon-totals="' + option + '"]');
        if (totals) totals.textContent = choice.totals.map(function (t, seat) { return players[seat] + " " + t; }).join(", ");
        var outcome = panel.querySelector('[data-moon-outcome="' + option + '"]');
        if (outcome) outcome.textContent = outcomes[choice.outcome] || choice.outcome;
      });
      panel.querySelectorAll("[data-advised]").forEach(function (badge) {
        badge.hidden = badge.dataset.advised !== moon.advice;
      });
    }

    function preview() {
      var ask = ++asked;
      fetch(form.dataset.preview, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(facts())
      }).then(function (answer) {
        return answer.json().then(function (body) { return { ok: answer.ok, body: body }; });
      }).then(function (result) {
        if (ask !== asked) return;
        if (!result.ok) { live.textContent = result.body.error; live.className = "live problem"; return; }
        live.textContent = "This hand: " + result.body.scores.map(function (s, seat) {
          return players[seat] + " " + (s > 0 ? "+" : "") + s;
        }).join(", ");
        live.className = "live ok";
        showMoon(result.body.moon ? result.body.moon.shooter : null, result.body.moon);
      }).catch(function () { /* offline: the server checks again on save */ });
    }

    function check() {
      var count = total();
      var queen = checked(form, "queen");
      var shooter = queen !== null && hearts(queen) === HEARTS ? queen : null;
      showMoon(shooter, null);
      var words = count + " of " + HEARTS + " hearts";
      if (count > HEARTS) words += ": " + (count - HEARTS) + " too many";
      if (count === HEARTS && queen === null) words += " · who took the Q♠?";
      live.textContent = words;
      live.className = "live " + (count === HEARTS && queen !== null ? "ok" : count > HEARTS ? "problem" : "");
      if (count === HEARTS && queen !== null && form.dataset.preview) preview();
    }

    // A tap on the chip already chosen (0 at first) fires no change, only a click.
    function tapped(event) {
      if (event.target.type !== "radio") return;
      var row = /^hearts-(\d+)$/.exec(event.target.name);
      if (row) { touched[row[1]] = true; fillLast(); }
      check();
    }
    form.addEventListener("click", tapped);
    form.addEventListener("change", tapped);
    check();
  }

  function dealerLabels(form) {
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
  }

  var hand = document.getElementById("hand-form");
  if (hand) handForm(hand);
  var newGame = document.querySelector("form.new-game");
  if (newGame) dealerLabels(newGame);
})();
