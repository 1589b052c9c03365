// The hall display: fetch the page again every data-refresh seconds and swap in the ranking,
// the time and the progress, without reloading (a reader keeps their place, nothing flashes).
(function () {
  "use strict";

  var seconds = Number(document.body.getAttribute("data-refresh")) || 30;
  var PARTS = ["hall-rows", "hall-time", "hall-progress"];

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
        document.body.setAttribute("style", fresh.body.getAttribute("style") || "");
      })
      .catch(function () {});
  }

  window.setInterval(refresh, seconds * 1000);
})();
