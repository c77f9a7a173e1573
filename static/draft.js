// The hand being entered, kept on this phone until it is saved or the form starts afresh, so a tab the phone drops
// in a pocket comes back with its taps. One per game (its page's address names the group and the game), marked
// with the hand's number: one kept for another hand is stale and dropped. Plain functions of the page's storage.

function keyOf(page) {
  return "hand-being-entered:" + page;
}

// `taps`, as the form gives them (its taps()); none: the form holds nothing, and nothing is kept.
function keep(storage, page, number, taps) {
  try {
    if (taps) storage.setItem(keyOf(page), JSON.stringify({ number: number, taps: taps }));
    else storage.removeItem(keyOf(page));
  } catch (full) { /* private browsing or no room: the form still works, it is only not kept */ }
}

// The taps kept for hand `number`, else null (and one kept for another hand is dropped).
function kept(storage, page, number) {
  var draft;
  try {
    draft = JSON.parse(storage.getItem(keyOf(page)));
  } catch (broken) {
    draft = null;
  }
  if (draft && draft.number === number && draft.taps) return draft.taps;
  keep(storage, page, number, null);
  return null;
}

export { keep, kept };
