// The referee's check-in desk: every data-every seconds ask status.json whether a phone
// claimed a check-in, anyone arrived or a mark changed (If-None-Match with the last ETag; 304
// when nothing did), swap in the claims waiting, the arrivals and the counts, and write the
// time of the answer into "aktualisiert". No page reload; no inline script (the CSP forbids
// it).
(function () {
  "use strict";

  var root = document.getElementById("arrivals");
  if (!root || !window.fetch || !window.skatligaPoll) return;
  var url = root.getAttribute("data-live-status");
  var etag = root.getAttribute("data-etag");
  var seconds = Number(root.getAttribute("data-every")) || 3;
  var stamp = document.getElementById("desk-time");

  function show(data) {
    root.innerHTML = data.html;
    ["here", "paid", "waiting"].forEach(function (name) {
      var count = document.querySelector('[data-count="' + name + '"]');
      if (count) count.textContent = String(data[name]);
    });
  }

  window.skatligaPoll(url, etag, seconds, stamp, show);
})();
