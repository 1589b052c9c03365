// A phone's check-in claim: every data-every seconds ask status.json whether the desk decided
// (If-None-Match with the last ETag; 304 while it waits) and swap in the page's new state,
// the personal link once the desk confirmed. No page reload; no inline script (the CSP
// forbids it).
(function () {
  "use strict";

  var root = document.getElementById("claim");
  if (!root || !window.fetch || !window.skatligaPoll) return;
  var url = root.getAttribute("data-live-status");
  var etag = root.getAttribute("data-etag");
  var seconds = Number(root.getAttribute("data-every")) || 3;

  function show(data) {
    root.innerHTML = data.html;
  }

  window.skatligaPoll(url, etag, seconds, null, show);
})();
