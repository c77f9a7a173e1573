// What the hand form makes of the taps (static/hand-entry.js): the hearts counted, what is missing and where, the
// last row filled in, the live check, what Save says. The rules as the form carries them (views/template_helpers.hand_rules).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as entries from "../../static/hand-entry.js";

const PLAYERS = ["Ann", "Ben", "Cat", "Dan"];
const SHORT = ["An", "Be", "Ca", "Da"];
const RULES = {
  hearts: 13,
  cards: [
    { key: "queen", ask: "Say who took the Q♠." },
    { key: "jack", ask: "Say who took the J♦." }
  ],
  moon: { add: "everyone else +26", subtract: ["−0 for {shooter}", "−13 for {shooter}", "−26 for {shooter}", "−26 for {shooter}"] },
  tie_break: "a tie for the lowest: play goes on"
};

function entry(hearts, touched, cards, option) {
  return { hearts: hearts, touched: touched, cards: cards || {}, option: option === undefined ? null : option };
}

test("the hearts are counted, a row not tapped as none", () => {
  assert.equal(entries.counted(entry([4, null, 9, 0], [0, 2, 3])), 13);
  assert.deepEqual(entries.open(entry([4, null, 9, 0], [0, 2])), [1, 3]);
});

test("the last row left fills itself in with what makes 13, and only the last", () => {
  assert.deepEqual(entries.lastRow(entry([4, 0, 5, 0], [0, 1, 2]), RULES), { seat: 3, count: 4 });
  assert.deepEqual(entries.lastRow(entry([4, 0, 5, 3], [0, 1, 2]), RULES), { seat: 3, count: 4 }); // its own count aside
  assert.equal(entries.lastRow(entry([4, 0, 0, 0], [0, 1]), RULES), null);
  assert.equal(entries.lastRow(entry([4, 0, 9, 0], [0, 1, 2, 3]), RULES), null);
});

test("what is missing: the hearts first, at the first row not tapped, else the row tapped last", () => {
  const few = entries.missing(entry([4, 0, 0, 0], [0]), RULES, PLAYERS, 0, false);
  assert.deepEqual(few, { key: "hearts-1", message: "4 of 13 hearts: 9 missing · check Ben’s row" });
  const many = entries.missing(entry([4, 5, 9, 0], [0, 1, 2, 3]), RULES, PLAYERS, 2, false);
  assert.deepEqual(many, { key: "hearts-2", message: "18 of 13 hearts: 5 too many · check Cat’s row" });
  const one = entries.missing(entry([12, 0, 0, 0], [0, 1, 2, 3]), RULES, PLAYERS, 0, false);
  assert.equal(one.message, "12 of 13 hearts: 1 missing · check Ann’s row");
});

test("what is missing: then each card in the table's order, then the moon option when the moon is on the form", () => {
  const hearts = [4, 0, 9, 0];
  assert.deepEqual(entries.missing(entry(hearts, [0, 1, 2, 3], { queen: null, jack: null }), RULES, PLAYERS, 0, false),
    { key: "queen", message: "Say who took the Q♠." });
  assert.deepEqual(entries.missing(entry(hearts, [0, 1, 2, 3], { queen: 1 }), RULES, PLAYERS, 0, false),
    { key: "jack", message: "Say who took the J♦." });
  const whole = { queen: 1, jack: 0 };
  assert.equal(entries.missing(entry(hearts, [0, 1, 2, 3], whole), RULES, PLAYERS, 0, false), null);
  assert.deepEqual(entries.missing(entry(hearts, [0, 1, 2, 3], whole), RULES, PLAYERS, 0, true),
    { key: "moon_option", message: "Choose the moon option." });
  assert.equal(entries.missing(entry(hearts, [0, 1, 2, 3], whole, "add"), RULES, PLAYERS, 0, true), null);
});

test("the live check says the count, then the card still to say, and when the hand is whole", () => {
  assert.deepEqual(entries.check(entry([0, 0, 0, 0], []), RULES), { words: "0 of 13 hearts", kind: "", complete: false });
  assert.deepEqual(entries.check(entry([4, 0, 0, 0], [0]), RULES),
    { words: "4 of 13 hearts: 9 missing", kind: "problem", complete: false });
  assert.deepEqual(entries.check(entry([4, 0, 9, 0], [0, 2], { queen: 1 }), RULES),
    { words: "13 of 13 hearts · say who took the J♦.", kind: "", complete: false });
  assert.deepEqual(entries.check(entry([4, 0, 9, 0], [0, 2], { queen: 1, jack: 3 }), RULES),
    { words: "13 of 13 hearts", kind: "ok", complete: true });
});

test("Save says the moon option chosen, the floor's amount for the shooter's own seat", () => {
  assert.equal(entries.saveLabel("Save hand", RULES, null, 1, SHORT), "Save hand");
  assert.equal(entries.saveLabel("Save hand", RULES, "add", null, SHORT), "Save hand");
  assert.equal(entries.saveLabel("Save hand", RULES, "add", 1, SHORT), "Save hand · everyone else +26");
  assert.equal(entries.saveLabel("Save hand", RULES, "subtract", 1, SHORT), "Save hand · −13 for Be");
  assert.equal(entries.saveLabel("Save hand", { ...RULES, moon: null }, "add", 1, SHORT), "Save hand");
});

test("the preview's scores in words, with the tie-break when it applies", () => {
  assert.equal(entries.scoresWords([4, 13, 9, 0], false, RULES, SHORT), "This hand: An +4, Be +13, Ca +9, Da 0");
  assert.equal(entries.scoresWords([-10, 0, 0, 36], true, RULES, SHORT),
    "This hand: An \u221210, Be 0, Ca 0, Da +36 · a tie for the lowest: play goes on");
});
