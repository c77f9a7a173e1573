// Keep the follow view fresh: ask every second, and swap the board in only when it changed (ETag).
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board) return;
  var tag = null;
  function refresh() {
    var headers = tag ? { "If-None-Match": tag } : {};
    fetch(board.dataset.board, { headers: headers, cache: "no-cache" }).then(function (answer) {
      if (answer.status === 200) {
        tag = answer.headers.get("ETag");
        return answer.text().then(function (html) { board.innerHTML = html; });
      }
      if (answer.status === 404) board.textContent = "This game was deleted.";
    }).catch(function () { /* off the network for a moment: try again */ })
      .then(function () { setTimeout(refresh, 1000); });
  }
  refresh();
})();
