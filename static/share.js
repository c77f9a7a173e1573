// The group's link, sent with the phone's own share sheet or copied, where the browser can: the buttons stay
// hidden where it cannot (the link and its QR code are there anyway).
(function () {
  "use strict";
  document.querySelectorAll("[data-link]").forEach(function (box) {
    var url = box.getAttribute("data-link");
    var send = box.querySelector("[data-send]");
    var copy = box.querySelector("[data-copy]");
    if (send && navigator.share) {
      send.hidden = false;
      send.addEventListener("click", function () {
        navigator.share({ url: url }).catch(function () {}); // closing the sheet is no error
      });
    }
    if (copy && navigator.clipboard && window.isSecureContext) {
      copy.hidden = false;
      copy.addEventListener("click", function () {
        navigator.clipboard.writeText(url).then(function () {
          copy.textContent = copy.getAttribute("data-copied");
        });
      });
    }
  });
})();
