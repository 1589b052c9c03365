// The check-in page: search as the player types (a short pause, then the server's list of
// at most a few public names and clubs). Without script the form searches on submit.
(function () {
  "use strict";

  var form = document.querySelector("form.checkin-search");
  var found = document.getElementById("found");
  if (!form || !found || !window.fetch) return;
  var input = form.querySelector("input[name=q]");
  var url = form.getAttribute("data-search");
  var timer = null;
  var asked = 0;

  function search() {
    var query = input.value.trim();
    var number = ++asked;
    if (query.length < 2) {
      found.innerHTML = "";
      return;
    }
    fetch(url + "?q=" + encodeURIComponent(query), { credentials: "same-origin" })
      .then(function (response) {
        // 429: the server says why it refused (too many searches that found nobody).
        return response.ok || response.status === 429 ? response.text() : null;
      })
      .then(function (html) {
        if (html !== null && number === asked) found.innerHTML = html;
      })
      .catch(function () {});
  }

  input.addEventListener("input", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(search, 250);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    window.clearTimeout(timer);
    search();
  });
})();
