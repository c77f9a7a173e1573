// Undo of the hand just saved, from the table page (table.js hands over `table`): a dialog in the middle of the
// screen asks first, and the hand undone goes back on the form to be changed and saved again.

function ask(table, number, sent) {
  var dialog = document.body.appendChild(document.createElement("dialog"));
  dialog.className = "ask";
  dialog.appendChild(document.createElement("p")).textContent =
    "Undo hand " + number + "? Its scores come off the totals, and it goes back on the form to change and save again.";
  [["Keep hand " + number, ""], ["Yes, undo hand " + number, "danger"]].forEach(function (choice, at) {
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
    return table.restart(sent, "Hand " + number + " undone: change it and save again.", "ok");
  }).catch(function () { table.say("The server did not answer: hand " + number + " is not undone.", "problem"); });
}

export { ask };
