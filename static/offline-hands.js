// The hands waiting on this phone, as the table page shows them with no network, as plain functions: no page here.
// `facts` are the offline facts the page carries (scorekeeper/views/app_shell.offline_facts), `rules` the hand form's
// (web/views/template_helpers.hand_rules); tests/js/offline-hands.test.mjs checks them against answers the Python rules give.
//
// A moon is the server's to say: the page carries every moon the next hand could be, precomputed by the rules core
// (`facts.moons`), and finds the one with the facts entered. Its options, totals, scores and advice hold for the hand
// right after the server's last (`facts.next`); a moon later than that shows its shooter, and is scored when back
// online. The one sum done without the server is a hand's raw points, the hearts and each card at the points the form
// carries; the sun, resets and the end of the game stay with the rules core.

import { signed } from "./words.js";

function same(a, b) {
  return JSON.stringify(a === undefined ? null : a) === JSON.stringify(b === undefined ? null : b);
}

// The precomputed moon with the facts of `hand`, else null (not a moon).
function moonOf(facts, hand) {
  return facts.moons.filter(function (moon) {
    return Object.keys(moon.hand).every(function (key) { return same(hand[key], moon.hand[key]); });
  })[0] || null;
}

// The server's answer for `hand` as hand `number`: its moon's options and advice, else null.
function answerOf(facts, hand, number) {
  var moon = moonOf(facts, hand);
  return moon && moon.moon && number === facts.next ? moon.moon : null;
}

// The option a waiting moon was recorded with, and what it gives ({totals, scores, outcome}); null when the server
// must still score it.
function scoredMoon(facts, hand) {
  var moon = answerOf(facts, hand, hand.number);
  return moon ? moon.options[hand.moon_option || moon.advice] || null : null;
}

function rawPoints(rules, hand) {
  return hand.hearts.map(function (hearts, seat) {
    return rules.cards.reduce(function (sum, card) {
      return sum + (hand[card.key] === seat ? card.points : 0);
    }, (hearts || 0) * rules.heart_points);
  });
}

// The hand form's preview with no network: a moon, with its options when the hand is the server's next (`first`: no
// hand waits before it), else its shooter alone; a sun or no moon, nothing.
function preview(facts, hand, first) {
  var moon = moonOf(facts, hand);
  if (!moon || !moon.moon) return { moon: null };
  return { moon: (first ? answerOf(facts, hand, facts.next) : null) || { shooter: moon.shooter, options: null } };
}

// The totals as last known plus the hands waiting: a moon the page knows at its option's totals, one it does not
// adding nothing until the server scores it.
function totalsAfter(facts, rules, queue) {
  var totals = facts.totals.slice();
  queue.forEach(function (hand) {
    var scored = scoredMoon(facts, hand);
    if (scored) totals = scored.totals.slice();
    else if (!moonOf(facts, hand)) rawPoints(rules, hand).forEach(function (points, at) { totals[at] += points; });
  });
  return totals;
}

// A waiting hand's row: each seat's points as shown ("+4", "0", "-10"), or null for a moon the server must still
// score (`unscored`).
function waitingRow(facts, rules, hand) {
  var scored = scoredMoon(facts, hand);
  var unscored = !scored && moonOf(facts, hand) !== null;
  var points = scored ? scored.scores : unscored ? null : rawPoints(rules, hand);
  return {
    cells: points && points.map(signed),
    unscored: unscored
  };
}

export { moonOf, answerOf, scoredMoon, rawPoints, preview, totalsAfter, waitingRow };
