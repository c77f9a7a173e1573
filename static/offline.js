// Every page: register the service worker (/sw.js) and ask it to keep this page for offline use.
// The table page: load the offline recording (outbox.js, offline-table.js, offline.css) only when it is
// needed, the phone offline or hands still waiting; the worker keeps those files for when it is.
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

  var facts = document.getElementById("offline-facts");
  var loading = null;
  // Loads once; resolves to OfflineTable (or null off the table page, or when the files cannot be had).
  function loadOfflineRecording() {
    if (!facts) return Promise.resolve(null);
    if (loading) return loading;
    loading = new Promise(function (done) {
      var style = document.head.appendChild(document.createElement("link"));
      style.rel = "stylesheet";
      style.href = "/static/offline.css";
      ["/static/outbox.js", "/static/offline-table.js"].forEach(function (src, at, all) {
        var script = document.createElement("script");
        script.src = src;
        script.async = false; // in this order: offline-table.js uses outbox.js
        if (at === all.length - 1) {
          script.onload = function () { done(window.OfflineTable || null); };
          script.onerror = function () { done(null); };
        }
        document.head.appendChild(script);
      });
    });
    return loading;
  }
  window.offlineRecording = loadOfflineRecording; // for a save that gets no answer (static/table.js)

  // With no worker (plain http:// on the LAN, or a browser that refuses one) nothing keeps the files for
  // later: load them now, so Save still queues when the Wi-Fi drops.
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").then(function () { return navigator.serviceWorker.ready; })
      .then(keepThisPage).catch(function () { loadOfflineRecording(); });
  } else {
    loadOfflineRecording();
  }
  if (!facts) return;
  if (!navigator.onLine || localStorage.getItem("outbox:" + facts.dataset.game)) loadOfflineRecording();
  else window.addEventListener("offline", function () { loadOfflineRecording(); });
})();
