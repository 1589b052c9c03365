// Polling a page's status.json: every `seconds` ask whether anything changed (If-None-Match
// with the last ETag; 304 when nothing did), write the time of the answer into `stamp`, and
// hand a changed answer to `show`. The dashboard and the check-in desk both use it.
(function () {
  "use strict";

  window.skatligaPoll = function (url, etag, seconds, stamp, show) {
    function poll() {
      var headers = { Accept: "application/json" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(url, { credentials: "same-origin", cache: "no-store", headers: headers })
        .then(function (response) {
          if (stamp) stamp.textContent = new Date().toLocaleTimeString();
          if (response.status !== 200) return null;
          etag = response.headers.get("ETag") || etag;
          return response.json();
        })
        .then(function (data) {
          if (data) show(data);
        })
        .catch(function () {})
        .then(function () {
          window.setTimeout(poll, seconds * 1000);
        });
    }

    window.setTimeout(poll, seconds * 1000);
  };
})();
