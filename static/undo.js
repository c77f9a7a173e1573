// Undo of the hand just saved, from the table page (table.js hands over `table`): a dialog in the middle of the
// screen asks first, and the hand undone goes back on the form to be changed and saved again.
import { _ } from "./words.js";

function ask(table, number, sent) {
  var dialog = document.body.appendChild(document.createElement("dialog"));
  dialog.className = "ask";
  var hand = { number: number };
  dialog.appendChild(document.createElement("p")).textContent =
    _("Undo hand %(number)d? Its scores come off the totals, and it goes back on the form to change and save again.", hand);
  [[_("Keep hand %(number)d", hand), ""], [_("Yes, undo hand %(number)d", hand), "danger"]].forEach(function (choice, at) {
    var button = dialog.appendChild(document.createElement("button"));
    button.type = "button";
    button.textContent = choice[0];
    button.className = choice[1];
    button.addEventListener("click", function () {
      dialog.close();
      if (at) undo(table, number, sent);
    });
  });
  dialog.addEventListener("close", function () { dialog.remove(); });
  dialog.showModal();
}

function undo(table, number, sent) {
  var headers = { "Content-Type": "application/json", Accept: "application/json" };
  fetch(table.links.hands + "/" + number, { method: "DELETE", credentials: "same-origin", headers: headers }).then(function (answer) {
    if (!answer.ok) return answer.json().then(function (body) { table.say(body.error, "problem"); });
    return table.restart(sent, _("Hand %(number)d undone: change it and save again.", { number: number }), "ok");
  }).catch(function () {
    table.say(_("The server did not answer: hand %(number)d is not undone.", { number: number }), "problem");
  });
}

export { ask };
