// Polling a page's status.json: every `seconds` ask whether anything changed (If-None-Match
// with the last ETag; 304 when nothing did), write the time of the answer into `stamp`, and
// hand a changed answer to `show`; `answered`, if given, hears after each try whether the
// server answered (200 or 304) or not (no connection, an error). The dashboard, the check-in
// desk and a player's personal page use it.
(function () {
  "use strict";

  window.skatligaPoll = function (url, etag, seconds, stamp, show, answered) {
    function poll() {
      var headers = { Accept: "application/json" };
      if (etag) headers["If-None-Match"] = etag;
      var ok = false;
      // On a bad connection an answer may never come: give up after twice the interval
      // (at least ten seconds), so that the next try starts and `answered` hears of it.
      var controller = window.AbortController ? new AbortController() : null;
      var timer = controller
        ? window.setTimeout(function () {
            controller.abort();
          }, Math.max(10, 2 * seconds) * 1000)
        : null;
      var options = { credentials: "same-origin", cache: "no-store", headers: headers };
      if (controller) options.signal = controller.signal;
      fetch(url, options)
        .then(function (response) {
          if (stamp) stamp.textContent = new Date().toLocaleTimeString();
          ok = response.status === 200 || response.status === 304;
          if (response.status !== 200) return null;
          etag = response.headers.get("ETag") || etag;
          return response.json();
        })
        .then(function (data) {
          if (data) show(data);
        })
        .catch(function () {
          ok = false;
        })
        .then(function () {
          if (timer) window.clearTimeout(timer);
          if (answered) answered(ok);
          window.setTimeout(poll, seconds * 1000);
        });
    }

    window.setTimeout(poll, seconds * 1000);
  };
})();
