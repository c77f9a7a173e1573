// A score as the page scripts write it (static/words.js) is the one the server writes (scorekeeper/rules/i18n.py):
// fixtures/offline-hands.json holds the server's, written by tests/app/test_offline_fixture.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { signed, total } from "../../static/words.js";

const { said } = JSON.parse(readFileSync(new URL("./fixtures/offline-hands.json", import.meta.url)));

test("a change to a score and a total are written as the server writes them, with a real minus", () => {
  assert.ok(said.length > 0);
  for (const each of said) {
    assert.equal(signed(each.points), each.signed);
    assert.equal(total(each.points), each.total);
  }
});
