// Progressive enhancement: the forms work without this script.
// On the hand form: a live check that says what is missing, the last player's hearts filled in,
// a moon's options with the advice chosen, and a save done in place ("Hand 7 saved · Undo").
// The correct-a-hand page adds correct.js, the new-game page has new-game.js: the table page loads this alone.
// No rule is written here: the hearts in a hand, the penalty cards, their points and the moon's words come
// with the form (data-rules, from the rules core).
(function () {
  "use strict";
  var NOTE_SECONDS = 8;

  // Who shot the moon in a hand as the API writes it: every heart and every card a moon needs; else null.
  function shooterOf(rules, hand) {
    var seat = hand.hearts.indexOf(rules.hearts);
    if (!rules.moon || seat === -1) return null;
    return rules.cards.every(function (card) { return !card.moon || hand[card.key] === seat; }) ? seat : null;
  }
  // A hand's points before the moon: its hearts, and each card to whoever took it.
  function rawPointsOf(rules, hand) {
    return hand.hearts.map(function (hearts, seat) {
      return rules.cards.reduce(function (sum, card) {
        return sum + (hand[card.key] === seat ? card.points : 0);
      }, (hearts || 0) * rules.heart_points);
    });
  }
  window.HandRules = { shooter: shooterOf, rawPoints: rawPointsOf }; // for the offline table (offline-table.js)

  function chosen(form, name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input && input.value !== "" ? input.value : null;
  }
  function checked(form, name) {
    var value = chosen(form, name);
    return value === null ? null : Number(value);
  }

  // Sends one hand, with its number, and passes the answer on: 200 or 201 saved (200: it was
  // stored already, by a first tap or a lost answer), 409 a conflict, 422 a rule broken, anything
  // else or no answer at all failed. The one place a hand leaves the page: an offline queue wraps it.
  function sendHand(url, hand, on) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(hand)
    }).then(function (answer) {
      return answer.json().catch(function () { return {}; }).then(function (body) {
        return { status: answer.status, body: body };
      });
    }).then(function (result) {
      if (result.status === 200 || result.status === 201) on.saved(result.body, result.status === 200);
      else if (result.status === 409) on.conflict(result.body);
      else if (result.status === 422) on.refused(result.body);
      else on.failed(result.body);
    }, function () { on.failed({}); });
  }

  // Swap in the page as the server renders it now (totals, next hand, a fresh form, the hands),
  // without a reload; a finished game opens its own page.
  function refresh(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (answer) {
      return answer.text();
    }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html");
      if (!fresh.getElementById("hand-form")) { location.assign(url); return null; }
      document.querySelector("main").replaceWith(fresh.querySelector("main"));
      document.title = fresh.title;
      if (location.pathname !== url) history.replaceState(null, "", url);
      return start();
    });
  }

  function handForm(form) {
    var players = JSON.parse(form.dataset.players);
    var short = form.dataset.short ? JSON.parse(form.dataset.short) : players;
    var rules = JSON.parse(form.dataset.rules);
    var HEARTS = rules.hearts;
    var live = form.querySelector("#live-check");
    var panel = form.querySelector("#moon-panel"); // none when the game plays no moon
    var button = form.querySelector('.save-bar button[type="submit"]');
    var outcomes = panel && panel.dataset.outcomes ? JSON.parse(panel.dataset.outcomes) : {};
    var touched = {};
    var lastRow = 0;
    var asked = 0;
    var pickedByHand = false; // once the table picks a moon option, the advice no longer changes it
    var sending = false;

    function hearts(seat) { return checked(form, "hearts-" + seat); }
    function total() {
      return players.reduce(function (sum, _, seat) { return sum + (hearts(seat) || 0); }, 0);
    }
    function row(seat) { return form.querySelector("#hearts-" + seat); }

    function fillLast() {
      var open = players.map(function (_, seat) { return seat; }).filter(function (seat) { return !touched[seat]; });
      if (open.length !== 1) return;
      var rest = HEARTS - (total() - (hearts(open[0]) || 0));
      var chip = form.querySelector('input[name="hearts-' + open[0] + '"][value="' + rest + '"]');
      if (chip) chip.checked = true;
    }

    function moonOn() {
      return Boolean(panel) && !panel.hidden && panel.querySelector('input[name="moon_option"]') !== null;
    }

    function facts() {
      var body = { hearts: players.map(function (_, seat) { return hearts(seat); }) };
      rules.cards.forEach(function (card) { body[card.key] = checked(form, card.key); });
      if (form.querySelector('input[name="all_tricks"]')) body.all_tricks = checked(form, "all_tricks");
      var option = chosen(form, "moon_option");
      if (option !== null && moonOn()) body.moon_option = option;
      return body;
    }

    // The first penalty card nobody was said to take.
    function cardMissing() {
      return rules.cards.filter(function (card) { return checked(form, card.key) === null; })[0] || null;
    }

    function heartsWords(count) {
      if (count < HEARTS) return count + " of " + HEARTS + " hearts: " + (HEARTS - count) + " missing";
      return count + " of " + HEARTS + " hearts: " + (count - HEARTS) + " too many";
    }

    // What the hand still lacks, and where: Save never sends a hand the page knows is incomplete.
    function missing() {
      var count = total();
      if (count !== HEARTS) {
        var open = players.map(function (_, seat) { return seat; }).filter(function (seat) { return !touched[seat]; });
        var seat = count < HEARTS && open.length ? open[0] : lastRow;
        return { field: row(seat), message: heartsWords(count) + " · check " + players[seat] + "’s row" };
      }
      var card = cardMissing();
      if (card) return { field: form.querySelector("#" + card.key), message: card.ask };
      if (moonOn() && chosen(form, "moon_option") === null) {
        return { field: panel, message: "Choose the moon option." };
      }
      return null;
    }

    function say(words, kind) {
      live.textContent = words;
      live.className = "live " + (kind || "");
    }
    function unmark() {
      form.querySelectorAll(".missing").forEach(function (field) { field.classList.remove("missing"); });
    }
    function point(field, message) {
      unmark();
      say(message, "problem");
      if (!field) return;
      field.classList.add("missing");
      field.scrollIntoView({ block: "center" });
      var input = field.querySelector("input:checked") || field.querySelector("input");
      if (input) input.focus({ preventScroll: true });
    }

    function shooterNow() { return shooterOf(rules, facts()); }

    function labelSave() {
      var option = moonOn() ? chosen(form, "moon_option") : null;
      var shooter = shooterNow();
      if (option === null || shooter === null) { button.textContent = button.dataset.label; return; }
      button.textContent = button.dataset.label + " · " + rules.moon[option].replace("{shooter}", short[shooter]);
    }

    function showMoon(shooter, moon) {
      if (!panel) return;
      var isSun = shooter !== null && checked(form, "all_tricks") === shooter;
      var wasHidden = panel.hidden;
      panel.hidden = shooter === null || isSun;
      if (panel.hidden) {
        panel.querySelectorAll('input[name="moon_option"]').forEach(function (input) { input.checked = false; });
        pickedByHand = false;
        labelSave();
        return;
      }
      panel.querySelector("[data-moon-shooter]").textContent = players[shooter];
      if (wasHidden) panel.scrollIntoView({ block: "end" });
      if (!moon) { labelSave(); return; }
      Object.keys(moon.options).forEach(function (option) {
        var choice = moon.options[option];
        var totals = panel.querySelector('[data-moon-totals="' + option + '"]');
        if (totals) totals.textContent = choice.totals.map(function (t, seat) { return short[seat] + " " + t; }).join(", ");
        var outcome = panel.querySelector('[data-moon-outcome="' + option + '"]');
        if (outcome) outcome.textContent = outcomes[choice.outcome] || choice.outcome;
      });
      panel.querySelectorAll("[data-moon-detail]").forEach(function (detail) { detail.hidden = false; });
      panel.querySelectorAll("[data-advised]").forEach(function (badge) {
        badge.hidden = badge.dataset.advised !== moon.advice;
      });
      var advised = panel.querySelector('input[name="moon_option"][value="' + moon.advice + '"]');
      if (advised && !pickedByHand) advised.checked = true;
      labelSave();
    }

    function preview() {
      var ask = ++asked;
      fetch(form.dataset.preview, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(facts())
      }).then(function (answer) {
        return answer.json().then(function (body) { return { ok: answer.ok, body: body }; });
      }).then(function (result) {
        if (ask !== asked) return;
        if (!result.ok) { say(result.body.error, "problem"); return; }
        var moon = result.body.moon;
        showMoon(moon ? moon.shooter : null, moon);
        if (moon) { say(players[moon.shooter] + " shot the moon: the options are above.", "ok"); return; }
        say("This hand: " + result.body.scores.map(function (s, seat) {
          return short[seat] + " " + (s > 0 ? "+" : "") + s;
        }).join(", "), "ok");
      }).catch(function () { /* offline: the server checks again on save */ });
    }

    function check() {
      var count = total();
      var card = cardMissing();
      showMoon(shooterNow(), null);
      var words = count === 0 || count === HEARTS ? count + " of " + HEARTS + " hearts" : heartsWords(count);
      if (count === HEARTS && card) words += " · " + card.ask.charAt(0).toLowerCase() + card.ask.slice(1);
      say(words, count === HEARTS && !card ? "ok" : count === 0 || count === HEARTS ? "" : "problem");
      if (count === HEARTS && !card && form.dataset.preview) preview();
      // A complete hand: the correct-a-hand page's before-and-after table follows it (static/correct.js).
      if (count === HEARTS && !card) form.dispatchEvent(new Event("hand-complete"));
    }

    // Put a hand back on the form: after an undo, or a save another phone beat.
    function fill(hand) {
      hand.hearts.forEach(function (count, seat) {
        var chip = form.querySelector('input[name="hearts-' + seat + '"][value="' + count + '"]');
        if (chip) chip.checked = true;
        touched[seat] = true;
      });
      rules.cards.map(function (card) { return card.key; }).concat(["all_tricks", "moon_option"]).forEach(function (name) {
        var value = hand[name] === undefined || hand[name] === null ? "" : hand[name];
        var input = form.querySelector('input[name="' + name + '"][value="' + value + '"]');
        if (input) input.checked = true;
      });
      pickedByHand = Boolean(hand.moon_option);
      check();
    }

    function note(words, undoNumber, hand) {
      var line = document.createElement("p");
      line.className = "saved-note";
      line.setAttribute("role", "status");
      line.textContent = words;
      if (undoNumber) {
        var undo = document.createElement("button");
        undo.type = "button";
        undo.textContent = "Undo";
        undo.setAttribute("aria-label", "Undo hand " + undoNumber);
        undo.addEventListener("click", function () { undoHand(undoNumber, hand); });
        line.append(" · ", undo);
      }
      live.before(line);
      setTimeout(function () { line.remove(); }, NOTE_SECONDS * 1000);
    }

    function undoHand(number, hand) {
      fetch(form.dataset.hands + "/" + number, {
        method: "DELETE", credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" }
      }).then(function (answer) {
        if (!answer.ok) return answer.json().then(function (body) { say(body.error, "problem"); });
        return refresh(form.dataset.page).then(function (again) {
          if (!again) return;
          again.fill(hand);
          again.note("Hand " + number + " undone: change it and save again.");
        });
      }).catch(function () { say("The server did not answer: the hand is not undone.", "problem"); });
    }

    function saved(number, hand, words) {
      refresh(form.dataset.page).then(function (again) {
        if (!again) return;
        window.scrollTo(0, 0);
        document.getElementById("record").focus({ preventScroll: true });
        again.note(words, number, hand);
      }).catch(function () {
        // Stored, but the page could not be fetched again: a second Save only hears "already saved".
        sending = false;
        say(words + ". The page could not refresh: reload it to see the totals.", "ok");
      });
    }

    function save(event) {
      var gap = missing();
      if (gap) { event.preventDefault(); point(gap.field, gap.message); return; }
      if (!form.dataset.hands) return; // the correct-a-hand page posts as a plain form
      event.preventDefault();
      if (sending) return; // a second tap while the first is on its way
      sending = true;
      var number = Number(form.elements.number.value);
      var hand = Object.assign({ number: number }, facts());
      say("Saving hand " + number + "…");
      function again(words) { sending = false; point(null, words); }
      sendHand(form.dataset.hands, hand, {
        saved: function (_, resent) { saved(number, hand, "Hand " + number + (resent ? " was already saved" : " saved")); },
        conflict: function (body) {
          refresh(form.dataset.page).then(function (fresh) {
            if (!fresh) return;
            fresh.fill(hand);
            fresh.note(body.error + " Your hand is kept below: check it before saving.");
          });
        },
        refused: function (body) {
          sending = false;
          var key = Object.keys(body.errors || {})[0];
          var field = key === "hearts" ? row(lastRow) : key === "moon_option" ? panel : key && form.querySelector("#" + key);
          point(field, body.error);
        },
        failed: function (body) {
          // No answer at all: the outbox keeps the hand and sends it when the server is back (static/offline.js).
          if (!(body && body.error) && window.offlineRecording) {
            sending = false;
            window.offlineRecording().then(function (offline) {
              if (offline) offline.queue(hand);
              else again("The server did not answer. Your hand is kept: tap Save again.");
            });
            return;
          }
          again((body && body.error) || "The server did not answer. Your hand is kept: tap Save again.");
        }
      });
    }

    // A tap on the chip already chosen (0 at first) fires no change, only a click.
    function tapped(event) {
      if (event.target.type !== "radio") return;
      unmark();
      if (event.target.name === "moon_option") pickedByHand = true;
      var tappedRow = /^hearts-(\d+)$/.exec(event.target.name);
      if (tappedRow) { touched[tappedRow[1]] = true; lastRow = Number(tappedRow[1]); fillLast(); }
      check();
    }
    form.addEventListener("click", tapped);
    form.addEventListener("change", tapped);
    form.addEventListener("submit", save);
    check();
    return { fill: fill, note: note };
  }

  // Keep the screen on while a game is open at the table; where the browser cannot, nothing happens.
  function keepAwake() {
    if (!navigator.wakeLock) return;
    function ask() {
      if (document.visibilityState === "visible") navigator.wakeLock.request("screen").catch(function () {});
    }
    document.addEventListener("visibilitychange", ask);
    ask();
  }

  function start() {
    var hand = document.getElementById("hand-form");
    return hand ? handForm(hand) : null;
  }

  var table = start();
  if (table && document.getElementById("hand-form").dataset.hands) keepAwake();
})();
