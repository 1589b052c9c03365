// The table page's service worker: keeps the page and its static files on the device, so
// that the list stays open through a Wi-Fi drop. Games typed offline wait in the page's own
// queue (table-queue.js); the worker stores no game and knows no rule.
"use strict";

var SHELL = "skatliga-table-{{ version }}";
var STATIC = {{ files|safe }};
// The table pages of this worker's language: /t/ in German, /en/t/ in English, each its own
// worker with its own scope.
var BASE = new URL(self.registration.scope).pathname;

function isEntry(path) {  // a table link's list, where games are saved
  return path.indexOf(BASE) === 0 && /^[A-Za-z0-9_-]+\/$/.test(path.slice(BASE.length));
}

// The page that registered the worker was loaded before it: kept too, so that a phone new to
// the link can reload it without Wi-Fi.
function keepOpenPages(cache) {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (pages) {
    return Promise.all(pages.map(function (page) {
      var url = new URL(page.url);
      if (url.origin !== self.location.origin || !isEntry(url.pathname)) return null;
      url.hash = "";
      return fetch(url.href, { credentials: "same-origin" }).then(function (response) {
        if (response.ok && !response.redirected) return cache.put(url.href, response);
        return null;
      }).catch(function () {});
    }));
  });
}
var KEPT_FOR = 2 * 24 * 3600 * 1000;  // a kept page is not shown after two days

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL).then(function (cache) {
      return cache.addAll(STATIC).then(function () {
        return keepOpenPages(cache);
      });
    }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("skatliga-table-") === 0 && name !== SHELL;
      }).map(function (name) {
        return caches.delete(name);
      }));
    }).then(function () {
      return self.clients.claim();
    })
  );
});

function isStatic(url) {
  return STATIC.indexOf(url.pathname) !== -1;
}

// A save the server cannot be reached for (the Wi-Fi up, the hall's line down): the row goes
// back to the page in its address's fragment, which never leaves the device, and the page
// puts it in its queue (table-queue.js).
function saveOrReturn(request, url) {
  var copy = request.clone();
  return fetch(request).catch(function () {
    return copy.formData().then(function (data) {
      var fields = [];
      data.forEach(function (value, name) {
        if (name !== "csrfmiddlewaretoken" && typeof value === "string") fields.push([name, value]);
      });
      var back = new URL(url.pathname, self.location.href);
      back.hash = "unsent=" + encodeURIComponent(JSON.stringify(fields));
      return Response.redirect(back.href, 303);
    });
  });
}

// A revoked link (the server answers 404): every page kept under its token goes, the list,
// the device's name and the signatures alike.
function forget(url) {
  var prefix = BASE + url.pathname.slice(BASE.length).split("/")[0] + "/";
  return caches.open(SHELL).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (kept) {
        return new URL(kept.url).pathname.indexOf(prefix) === 0;
      }).map(function (kept) {
        return cache.delete(kept);
      }));
    });
  });
}

// Pages: the network first, the last copy when it fails. Static files: the cache first.
self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate" && isEntry(url.pathname)) {
    event.respondWith(saveOrReturn(request, url));
    return;
  }
  if (request.method !== "GET") return;
  if (isStatic(url)) {
    event.respondWith(
      caches.match(request).then(function (hit) {
        return hit || fetch(request);
      })
    );
    return;
  }
  if (request.mode !== "navigate" || url.pathname.indexOf(BASE) !== 0) return;
  event.respondWith(
    fetch(request).then(function (response) {
      if (response.ok && response.type === "basic" && !response.redirected) {
        var copy = response.clone();
        caches.open(SHELL).then(function (cache) {
          cache.put(request, copy);
        });
      } else if (response.status === 404) {
        forget(url);
      }
      return response;
    }).catch(function () {
      return caches.open(SHELL).then(function (cache) {
        // (A device's own copy: the headers its answer varies by do not matter here.)
        return cache.match(request, { ignoreVary: true }).then(function (hit) {
          return hit || cache.match(request, { ignoreSearch: true, ignoreVary: true });
        });
      }).then(function (hit) {
        var kept = hit && Date.parse(hit.headers.get("Date") || "");
        return hit && KEPT_FOR > Date.now() - kept ? hit : Response.error();
      });
    })
  );
});
