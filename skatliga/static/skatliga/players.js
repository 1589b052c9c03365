// Type-ahead over the club roster for the "add players" field: fills its <datalist>.
(function () {
  "use strict";

  var form = document.querySelector("form[data-search]");
  if (!form) return;
  var input = form.elements.player;
  var list = document.getElementById("roster");
  var url = form.getAttribute("data-search");
  var timer = null;
  var sequence = 0;

  function search() {
    var mine = ++sequence;
    var query = input.value.split(";")[0].trim();
    if (query.length < 2) return;
    fetch(url + "?q=" + encodeURIComponent(query), {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (data) {
        if (!data || mine !== sequence) return;
        list.textContent = "";
        data.players.forEach(function (player) {
          if (player.registered) return;
          var option = document.createElement("option");
          option.value = player.value;
          list.appendChild(option);
        });
      })
      .catch(function () {});
  }

  input.addEventListener("input", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(search, 150);
  });
})();
