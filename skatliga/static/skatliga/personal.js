// A player's personal page: every data-every seconds ask status.json whether his evening
// changed (a draw, a game, a signature, a fee) and swap in the new state, without a reload.
// When the connection fails, the last state stays and "Stand hh:mm" says how old it is.
(function () {
  "use strict";

  var root = document.getElementById("evening");
  if (!root || !window.fetch || !window.skatligaPoll) return;
  var url = root.getAttribute("data-live-status");
  var etag = root.getAttribute("data-etag");
  var seconds = Number(root.getAttribute("data-every")) || 10;
  var time = document.getElementById("me-time");
  var offline = document.getElementById("me-offline");

  function now() {
    var date = new Date();
    function two(number) {
      return (number < 10 ? "0" : "") + number;
    }
    return two(date.getHours()) + ":" + two(date.getMinutes());
  }

  function show(data) {
    root.innerHTML = data.html;
  }

  function answered(ok) {
    if (offline) offline.hidden = ok;
    if (ok && time) time.textContent = now();
  }

  window.skatligaPoll(url, etag, seconds, null, show, answered);
})();
