// The hall display: fetch the page again every data-refresh seconds and swap in the ranking,
// the time and the progress, without reloading (a reader keeps their place, nothing flashes).
// The font size follows the number of rows (--rows in hall.css), set from data-rows here:
// the Content-Security-Policy forbids inline style attributes. A ranking longer than the
// screen is cut into pages that fit it, turned every data-turn seconds.
(function () {
  "use strict";

  var seconds = Number(document.body.getAttribute("data-refresh")) || 30;
  var turn = Number(document.body.getAttribute("data-turn")) || 10;
  var pageText = document.body.getAttribute("data-page-text") || "%(page)d / %(pages)d";
  var PARTS = ["hall-rows", "hall-time", "hall-progress", "hall-running"];
  var pages = [];
  var current = 0;

  function sizeRows(rows) {
    var count = parseInt(rows, 10);
    document.body.setAttribute("data-rows", String(count > 0 ? count : 1));
    document.body.style.setProperty("--rows", String(count > 0 ? count : 1));
  }

  // Cut the ranking into pages of the rows that fit between the table's head and the
  // screen's bottom edge, measured with every row shown.
  function paginate() {
    var body = document.getElementById("hall-rows");
    if (!body) return;
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (row) {
      row.hidden = false;
    });
    var bottom = parseFloat(window.getComputedStyle(document.body).paddingBottom) || 0;
    var room = window.innerHeight - bottom - body.getBoundingClientRect().top;
    pages = [];
    var page = [];
    var used = 0;
    rows.forEach(function (row) {
      var height = row.getBoundingClientRect().height;
      if (page.length && used + height > room) {
        pages.push(page);
        page = [];
        used = 0;
      }
      page.push(row);
      used += height;
    });
    if (page.length) pages.push(page);
    show(current);
  }

  function show(index) {
    current = pages.length ? index % pages.length : 0;
    pages.forEach(function (page, number) {
      page.forEach(function (row) {
        row.hidden = number !== current;
      });
    });
    var label = document.getElementById("hall-page");
    if (label) {
      label.textContent =
        pages.length > 1
          ? "· " + pageText.replace("%(page)d", current + 1).replace("%(pages)d", pages.length)
          : "";
    }
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
        paginate();
      })
      .catch(function () {});
  }

  sizeRows(document.body.getAttribute("data-rows"));
  paginate();
  window.addEventListener("resize", paginate);
  window.setInterval(refresh, seconds * 1000);
  window.setInterval(function () {
    if (pages.length > 1) show(current + 1);
  }, turn * 1000);
})();
