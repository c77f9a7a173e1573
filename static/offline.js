// Every page: register the service worker (/sw.js) and ask it to keep this page for offline use. (The table
// page's own script, table.js, loads the offline recording when it is needed.)
(function () {
  "use strict";
  var root = document.documentElement;

  function keepThisPage(registration) {
    var worker = registration.active;
    if (!worker) return;
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.kept === location.pathname) root.dataset.offlineReady = "yes";
    });
    worker.postMessage({ keep: location.pathname });
  }

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").then(function () { return navigator.serviceWorker.ready; })
      .then(keepThisPage).catch(function () { /* no worker: table.js keeps the offline files in memory */ });
  }
})();
