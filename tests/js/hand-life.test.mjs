// The life of a hand leaving the table page (static/hand-life.js), and the plain parts of the outbox, the
// conflict box and the kept draft, under Node's own runner: `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as life from "../../static/hand-life.js";
import * as offline from "../../static/offline-table.js";
import * as outbox from "../../static/outbox.js";
import { differences } from "../../static/conflict.js";
import * as draft from "../../static/draft.js";
import { memory } from "./storage.mjs";

const HAND = { hearts: [4, 0, 9, 0], queen: 1 };
const SENT = { number: 7, ...HAND };
const PREVIEW = { facts: HAND, totals: [40, 52, 31, 12] };
const GAME = { next_hand: { number: 8 }, hands: [], totals: [40, 52, 31, 12] };

const ENTERING = () => life.entering(7);
const SAVING = () => life.save(ENTERING(), HAND, PREVIEW, false).state;
const SAVED = () => life.answered(SAVING(), 201, GAME).state;
const QUEUED = () => life.save(ENTERING(), HAND, null, true).state;
const CONFLICT = () => life.answered(SAVING(), 409, { error: "Hand 7 is not the next hand: the next is hand 8." }).state;
const REFUSED = () => life.answered(SAVING(), 422, { error: "Say who took the Q♠.", errors: { queen: "Say who took the Q♠." } }).state;
const STATES = { entering: ENTERING, saving: SAVING, saved: SAVED, queued: QUEUED, conflict: CONFLICT, refused: REFUSED };

test("save shows the totals of the preview of this very hand at once", () => {
  assert.deepEqual(life.save(ENTERING(), HAND, PREVIEW, false), {
    state: { phase: "saving", number: 7, hand: SENT, totals: [40, 52, 31, 12] }, effect: "send"
  });
  const other = { facts: { ...HAND, queen: 2 }, totals: [1, 2, 3, 4] };
  assert.equal(life.save(ENTERING(), HAND, other, false).state.totals, null);
  assert.equal(life.save(ENTERING(), HAND, null, false).effect, "send");
});

for (const name of ["saving", "saved", "queued"]) {
  test(`a second tap on save changes nothing (${name})`, () => {
    const before = STATES[name]();
    assert.deepEqual(life.save(before, { ...HAND, queen: 3 }, null, false), { state: before, effect: null });
  });
}

test("offline or behind waiting hands a save is queued and the next hand numbered after it", () => {
  assert.deepEqual(life.save(ENTERING(), HAND, PREVIEW, true),
    { state: { phase: "queued", number: 8, saved: 7, hand: SENT }, effect: "queue" });
  const second = life.save(life.tapped(QUEUED()), HAND, null, true).state;
  assert.ok(second.saved === 8 && second.number === 9 && second.hand.number === 8);
});

const ANSWERS = [
  ["stored", 201, GAME, "saved", "refresh", undefined],
  ["stored-before", 200, GAME, "saved", "refresh", undefined],
  ["conflict", 409, { error: "Hand 7 is not the next hand: the next is hand 8." }, "conflict", "compare", undefined],
  ["refused", 422, { error: "Say who took the Q♠.", errors: { queen: "Say who took the Q♠." } }, "refused", null, "queen"],
  ["refused-no-field", 422, { error: "A game takes at most …", errors: { hands: "…" } }, "refused", null, null],
  ["no-answer", 0, {}, "queued", "queue", undefined],
  ["busy", 503, { error: "The database is busy: try again in a moment." }, "failed", null, undefined]
];
for (const [id, status, body, phase, effect, field] of ANSWERS) {
  test(`each answer leads to its state (${id})`, () => {
    const step = life.answered(SAVING(), status, body);
    assert.equal(step.state.phase, phase);
    assert.equal(step.effect, effect);
    assert.equal(step.state.field ?? undefined, field ?? undefined);
    if (["conflict", "refused", "failed"].includes(phase)) { // the hand stays on the form, with why
      assert.deepEqual(step.state.hand, SENT);
      assert.equal(step.state.message, body.error);
    }
  });
}

test("a saved hand takes the server's number for the next and says so on the button", () => {
  const saved = SAVED();
  assert.ok(saved.number === 8 && saved.saved === 7 && saved.resent === false);
  assert.equal(life.buttonWords(saved, "Save hand"), "Hand 7 saved ✓");
  assert.equal(life.lineWords(saved), "Hand 7 saved.");
  assert.equal(life.lineWords(life.answered(SAVING(), 200, GAME).state), "Hand 7 was already saved.");
  assert.equal(life.answered(SAVING(), 201, { next_hand: null }).state.number, null);
});

test("an error without words says what to do", () => {
  assert.equal(life.answered(SAVING(), 500, {}).state.message, "The server did not answer. Your hand is kept: tap Save again.");
});

test("a late answer changes nothing", () => {
  assert.deepEqual(life.answered(ENTERING(), 201, GAME), { state: { phase: "entering", number: 7 }, effect: null });
});

for (const [name, phase] of [["saved", "entering"], ["queued", "entering"], ["refused", "entering"], ["saving", "saving"], ["entering", "entering"]]) {
  test(`a tap on the form begins the next hand (${name})`, () => {
    const tapped = life.tapped(STATES[name]());
    assert.equal(tapped.phase, phase);
    if (name === "saved" || name === "queued") assert.deepEqual(tapped, { phase: "entering", number: 8 });
  });
}

test("a conflict whose comparison fails leaves save alive", () => {
  const conflict = CONFLICT();
  assert.equal(conflict.phase, "conflict");
  assert.deepEqual(conflict.hand, SENT);
  assert.equal(life.busy(conflict), false);
  const again = life.save(life.tapped(conflict), HAND, null, false);
  assert.ok(again.effect === "send" && again.state.phase === "saving");
});

test("a conflict settled either way", () => {
  assert.deepEqual(life.settle(CONFLICT(), "theirs", 8), {
    state: { phase: "saved", number: 8, saved: 7, choice: "theirs", stale: true }, effect: "refresh"
  });
  assert.equal(life.lineWords(life.settle(CONFLICT(), "theirs", 8).state), "Hand 7: the other phone's kept.");
  const mine = life.settle(CONFLICT(), "mine");
  assert.ok(mine.effect === "correct" && mine.state.phase === "saving");
  assert.deepEqual(mine.state.hand, SENT);
  const corrected = life.answered(mine.state, 200, GAME).state;
  assert.ok(corrected.phase === "saved" && corrected.resent === false && corrected.choice === "mine");
  assert.equal(life.lineWords(corrected), "Hand 7: this phone's kept.");
  const unanswered = life.answered(life.settle(CONFLICT(), "mine").state, 0, {});
  assert.ok(unanswered.state.phase === "failed" && unanswered.effect === null); // a correction never waits offline
  assert.equal(life.settle(ENTERING(), "mine").effect, null);
});

const INERT = [
  ["entering", ENTERING, false], ["saving", SAVING, true], ["saved", SAVED, true],
  ["refreshed", () => life.refreshed(SAVED(), 8), false], ["refresh-failed", () => life.refreshFailed(SAVED()).state, false],
  ["queued", QUEUED, false], ["conflict", CONFLICT, false]
];
for (const [id, state, inert] of INERT) {
  test(`the form takes no tap until the next hand's form is in (${id})`, () => {
    assert.equal(life.inert(state()), inert);
  });
}

for (const [id, state] of [["saved", () => life.refreshed(SAVED(), 8)], ["queued", QUEUED]]) {
  test(`the form takes no tap for a moment after it moved (${id})`, () => {
    assert.equal(life.inert(life.moved(state())), true);
    assert.equal(life.inert(life.still(life.moved(state()))), false);
    assert.deepEqual(life.still(life.moved(state())), state());
  });
}

test("after the answer the page refreshes or starts the next hand itself", () => {
  assert.equal(life.refreshed(SAVED(), 9).number, 9);
  assert.equal(life.refreshed(SAVED(), 9).phase, "saved"); // still inert until a chip is tapped
  assert.equal(life.refreshed(CONFLICT(), 9).phase, "conflict");
  assert.deepEqual(life.refreshed(REFUSED(), 9), { phase: "entering", number: 9 });
  const failed = life.refreshFailed(SAVED());
  assert.equal(failed.effect, "reset");
  assert.equal(failed.state.message, "Hand 7 saved. The page could not refresh: reload it to see the totals.");
});

test("a hand the outbox could not take stays on the form", () => {
  assert.deepEqual(life.notQueued(QUEUED()), {
    phase: "failed", number: 7, hand: SENT, message: "The server did not answer. Your hand is kept: tap Save again.", field: undefined
  });
  assert.equal(life.renumbered(QUEUED(), 12).number, 12);
  assert.equal(life.renumbered(SAVING(), 12).number, 7);
});

for (const [id, state, entered, what] of [["saving", SAVING, false, null], ["idle", ENTERING, false, "refresh"],
  ["saved", SAVED, false, "refresh"], ["entered", ENTERING, true, "notice"], ["conflict", CONFLICT, false, "notice"]]) {
  test(`a change on another phone refreshes the page unless a hand is in hand (${id})`, () => {
    assert.equal(life.elsewhere(state(), entered), what);
  });
}

for (const [before, after, kept, words] of [
  [7, 8, false, "Hand 7 was saved on another phone."],
  [8, 7, false, "Hand 7 was undone on another phone."],
  [8, 8, false, "A hand was corrected on another phone."],
  [7, 8, 7, "Hand 7 was saved on another phone. Your hand 7 stays on the form: Save checks it against the server's."]
]) {
  test(`what changed elsewhere in words (${before} → ${after}, kept ${kept})`, () => {
    assert.equal(life.changedWords(before, after, kept), words);
  });
}

test("the hands waiting are read whatever the storage holds", () => {
  const storage = { getItem: (key) => ({ "outbox:1": '[{"number": 3}]', "outbox:2": "broken" })[key] || null };
  assert.deepEqual(life.waitingIn(storage, "outbox:1"), [{ number: 3 }]);
  assert.deepEqual(life.waitingIn(storage, "outbox:2"), []);
  assert.deepEqual(life.waitingIn(storage, "outbox:3"), []);
});

test("the outbox in words", () => {
  assert.equal(offline.sentWords(1), "1 hand sent");
  assert.equal(offline.sentWords(2), "2 hands sent");
  assert.equal(offline.waitingWords(1, false), "offline · 1 hand waiting");
  assert.equal(offline.waitingWords(2, true), "not sent yet · 2 hands waiting");
  assert.equal(offline.waitingWords(0, false), "offline");
  assert.equal(offline.nextNumber([{ number: 7 }, { number: 8 }], 7), 9);
  assert.equal(offline.nextNumber([], 7), 7);
});

test("the one difference between two versions of a hand", () => {
  const cards = [{ key: "queen" }, { key: "jack" }];
  const mine = { number: 3, hearts: [4, 0, 9, 0], queen: 1, jack: 2, all_tricks: null };
  const theirs = { number: 3, hearts: [4, 0, 8, 1], queen: 1, jack: 0, all_tricks: null, moon: null };
  assert.deepEqual(differences(mine, theirs, cards), [[["hearts", 2], 9, 8], [["hearts", 3], 0, 1], ["jack", 2, 0]]);
});

test("offline then online two hands waiting go in order and say how many", async (t) => {
  const posted = [];
  globalThis.localStorage = memory();
  if (!globalThis.navigator) globalThis.navigator = { onLine: true }; // Node 20 has none
  t.mock.method(globalThis, "fetch", async (url, init) => {
    posted.push(JSON.parse(init.body).number);
    return new Response(JSON.stringify(GAME), { status: 201, headers: { "Content-Type": "application/json" } });
  });
  localStorage.setItem("outbox:1", JSON.stringify([{ number: 7, ...HAND }, { number: 8, ...HAND }]));
  const game = { id: 1, key: "outbox:1", gameUrl: "/api/games/1", hands: "/api/games/1/hands" };
  const done = await outbox.flush(game);
  assert.deepEqual(posted, [7, 8]);
  assert.deepEqual([done, outbox.waiting(game)], [{ outcome: "saved", sent: 2 }, []]);
  delete globalThis.localStorage;
});

test("a hand being entered is kept for its own number only", () => {
  const storage = memory();
  draft.keep(storage, "/games/1", 7, { hearts: [4, 0, 0, 0], touched: [0] });
  const again = draft.kept(storage, "/games/1", 7), other = draft.kept(storage, "/games/2", 7);
  const stale = draft.kept(storage, "/games/1", 8), after = draft.kept(storage, "/games/1", 7);
  storage.setItem("hand-being-entered:/games/3", "{broken");
  assert.deepEqual([again, other, stale, after, draft.kept(storage, "/games/3", 1)],
    [{ hearts: [4, 0, 0, 0], touched: [0] }, null, null, null, null]);
});
