// The hands waiting on a phone with no network (static/offline-hands.js), against what the Python rules say of the
// same hands: fixtures/offline-hands.json, written by tests/app/test_offline_fixture.py (which checks it is current).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as hands from "../../static/offline-hands.js";
import { signed as signedPoints } from "../../static/words.js";

const { facts, rules, cases } = JSON.parse(readFileSync(new URL("./fixtures/offline-hands.json", import.meta.url)));
const signed = (points) => points.map(signedPoints);

for (const each of cases) {
  const hand = each.hand;
  const kind = !each.moon ? "a plain hand" : each.advice ? `a moon (${hand.moon_option || "advised"})` : "the sun";
  test(`${kind} waiting as the next hand shows what the rules give it`, () => {
    assert.equal(hands.moonOf(facts, hand) !== null, each.moon);
    if (!each.moon) assert.deepEqual(hands.rawPoints(rules, hand), each.raw);
    const row = hands.waitingRow(facts, rules, hand);
    if (each.moon && !each.advice) { // the sun: no choice, scored when back online
      assert.deepEqual(row, { cells: null, unscored: true });
      assert.deepEqual(hands.totalsAfter(facts, rules, [hand]), facts.totals);
      assert.deepEqual(hands.preview(facts, hand, true), { moon: null });
      return;
    }
    assert.deepEqual(row, { cells: signed(each.scores), unscored: false });
    assert.deepEqual(hands.totalsAfter(facts, rules, [hand]), each.totals);
  });
}

test("a moon entered as the next hand previews the server's options and advice", () => {
  const moon = cases.find((each) => each.moon && each.advice && !each.hand.moon_option);
  const shown = hands.preview(facts, moon.hand, true).moon;
  assert.equal(shown.advice, moon.advice);
  assert.deepEqual(shown.options[moon.advice].totals, moon.totals);
  assert.deepEqual(hands.preview(facts, cases[0].hand, true), { moon: null }); // no moon: nothing to show
});

test("a moon after a hand still waiting shows its shooter only, and adds nothing until the server scores it", () => {
  const moon = cases.find((each) => each.moon && each.advice);
  const later = { ...moon.hand, number: facts.next + 1 };
  assert.deepEqual(hands.preview(facts, later, false), { moon: { shooter: later.queen, options: null } });
  assert.deepEqual(hands.waitingRow(facts, rules, later), { cells: null, unscored: true });
  const plain = cases[0];
  assert.deepEqual(hands.totalsAfter(facts, rules, [plain.hand, later]), plain.totals);
});
