// The referee's check-in desk: every data-every seconds ask status.json whether anyone
// arrived or a mark changed (If-None-Match with the last ETag; 304 when nothing did) and swap
// in the list of arrivals and the counts. No page reload; no inline script (the CSP forbids it).
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
    ["here", "paid"].forEach(function (name) {
      var count = document.querySelector('[data-count="' + name + '"]');
      if (count) count.textContent = String(data[name]);
    });
  }

  window.skatligaPoll(url, etag, seconds, stamp, show);
})();
