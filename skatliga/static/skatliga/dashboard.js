// The referee's series page as a live dashboard: every data-every seconds ask status.json
// whether anything changed (If-None-Match with the last ETag; 304 when nothing did) and swap
// in each table's status block. No page reload; no inline script (the CSP forbids it). A block
// the referee is typing in (a decision's reason) is left alone until the next change.
(function () {
  "use strict";

  var root = document.getElementById("live-tables");
  if (!root || !window.fetch || !window.skatligaPoll) return;
  var url = root.getAttribute("data-live-status");
  var etag = root.getAttribute("data-etag");
  var seconds = Number(root.getAttribute("data-every")) || 5;
  var stamp = document.getElementById("live-time");

  function typing(block) {
    if (block.contains(document.activeElement) && document.activeElement.tagName === "INPUT") {
      return true;
    }
    return Array.prototype.some.call(block.querySelectorAll("input[type=text]"), function (input) {
      return input.value !== "";
    });
  }

  function show(data) {
    data.tables.forEach(function (table) {
      var block = root.querySelector('[data-status-table="' + table.table + '"]');
      if (!block || typing(block)) return;
      block.innerHTML = table.html;
      var card = block.closest(".table-card");
      if (card) {
        card.classList.toggle("is-closed", table.closed);
        card.classList.toggle("is-signed", table.signed === table.seats);
        card.classList.toggle("has-call", table.call);
      }
    });
    root.setAttribute("data-revision", String(data.revision));
  }

  window.skatligaPoll(url, etag, seconds, stamp, show);
})();
