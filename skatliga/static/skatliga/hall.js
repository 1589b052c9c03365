// The hall display: fetch the page again every data-refresh seconds and swap in the ranking,
// the time and the progress, without reloading (a reader keeps their place, nothing flashes).
// The font size follows the number of rows (--rows in hall.css), set from data-rows here:
// the Content-Security-Policy forbids inline style attributes.
(function () {
  "use strict";

  var seconds = Number(document.body.getAttribute("data-refresh")) || 30;
  var PARTS = ["hall-rows", "hall-time", "hall-progress", "hall-running"];

  function sizeRows(rows) {
    var count = parseInt(rows, 10);
    document.body.setAttribute("data-rows", String(count > 0 ? count : 1));
    document.body.style.setProperty("--rows", String(count > 0 ? count : 1));
  }

  function refresh() {
    fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html");
        PARTS.forEach(function (id) {
          var now = document.getElementById(id);
          var next = fresh.getElementById(id);
          if (now && next) now.replaceWith(next);
          else if (now) now.remove();
        });
        sizeRows(fresh.body.getAttribute("data-rows"));
      })
      .catch(function () {});
  }

  sizeRows(document.body.getAttribute("data-rows"));
  window.setInterval(refresh, seconds * 1000);
})();
