// The service worker: the app shell from a cache named after this deploy, pages from the network first.
// Served by the app at /sw.js (scope: the whole app); the server fills in VERSION, SHELL and LANGUAGE.
"use strict";
var VERSION = {{ version | tojson }};
// The phone's language is in this file: when it changes, so do the worker's bytes, and the browser installs it
// afresh on the next page opened; the offline page comes again, in the new language, into a cache of its own.
var LANGUAGE = {{ language | tojson }};
var SHELL = "shell-" + VERSION + "-" + LANGUAGE;
var PAGES = "pages"; // pages opened recently, kept across deploys: they are refreshed on every visit online
var SHELL_FILES = {{ shell | tojson }};
var OFFLINE_PAGE = SHELL_FILES[SHELL_FILES.length - 1];
// home, a game's table page, its follow view: at the site's root, or in a group's address on an open server
var KEEP = /^(\/g\/[A-Za-z0-9_-]+)?\/(games\/\d+(\/follow)?)?$/;
var SIGN_IN = new RegExp("^(/g/[A-Za-z0-9_-]+)?" + {{ sign_in | tojson }} + "$"); // the site's or a group's
var MOST_PAGES = 30;
// The shell's files are the same whatever the phone's language or cookies (their Vary says what pages vary by):
// one copy answers every request for it.
var SAME_FILE = { ignoreVary: true };
var storing = {}; // path -> the promise of its page being written to the cache

self.addEventListener("install", function (event) {
  // cache: "reload" skips the HTTP cache, so a new deploy never caches the last deploy's files
  var requests = SHELL_FILES.map(function (url) { return new Request(url, { cache: "reload" }); });
  event.waitUntil(caches.open(SHELL).then(function (cache) { return cache.addAll(requests); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== SHELL && name !== PAGES; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function kept(path) { return KEEP.test(path); }

function trim(cache) {
  return cache.keys().then(function (keys) {
    return Promise.all(keys.slice(0, Math.max(0, keys.length - MOST_PAGES)).map(function (key) { return cache.delete(key); }));
  });
}

// The group a kept page or a sign-in page is of: its address's prefix ("" at the site's root).
function groupOf(pattern, path) {
  var found = pattern.exec(path);
  return found && (found[1] || "");
}

// Forget the kept pages of one group (or of the site's root), and no other's.
function forget(group) {
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) { return groupOf(KEEP, new URL(key.url).pathname) === group; })
        .map(function (key) { return cache.delete(key); }));
    });
  });
}

// Keep a fresh copy of a page the network just gave; forget a game the server no longer has. A sign-in page
// means this phone is not signed in there (signed out, or its session ended): the pages kept of that group go
// with it, and those of every other group on the phone stay.
function store(path, answer) {
  var locked = answer.url ? groupOf(SIGN_IN, new URL(answer.url).pathname) : null;
  if (locked !== null) {
    storing[path] = forget(locked);
    return answer;
  }
  if (!kept(path)) return answer;
  if (answer.ok && answer.type === "basic" && !answer.redirected) {
    var copy = answer.clone();
    storing[path] = caches.open(PAGES).then(function (cache) {
      return cache.put(path, copy).then(function () { return trim(cache); });
    });
  } else if (answer.status === 404) {
    storing[path] = caches.open(PAGES).then(function (cache) { return cache.delete(path); });
  }
  return answer;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  // A page opened, or fetched by its own script after an in-place save: network first, a cached copy
  // only when the network does not answer at all.
  if (request.mode === "navigate" || kept(url.pathname)) {
    event.respondWith(fetch(request).then(function (answer) {
      var written = store(url.pathname, answer);
      if (storing[url.pathname]) event.waitUntil(storing[url.pathname]);
      return written;
    }).catch(function () {
      return caches.match(url.pathname).then(function (hit) {
        return hit || (request.mode === "navigate" ? caches.match(OFFLINE_PAGE, SAME_FILE) : Response.error());
      });
    }));
  } else if (SHELL_FILES.indexOf(url.pathname) !== -1) {
    event.respondWith(caches.match(request, SAME_FILE).then(function (hit) { return hit || fetch(request); }));
  }
});

// A page opened before this worker took over asks to be kept; the answer says when it is.
self.addEventListener("message", function (event) {
  var path = event.data && event.data.keep;
  if (!path || !kept(path)) return;
  var ready = storing[path] || caches.open(PAGES).then(function (cache) {
    return cache.match(path).then(function (hit) {
      return hit || fetch(path, { credentials: "same-origin" }).then(function (answer) { store(path, answer); return storing[path]; });
    });
  });
  event.waitUntil(Promise.resolve(ready).catch(function () { /* offline: nothing to keep */ })
    .then(function () { event.source.postMessage({ kept: path }); }));
});
