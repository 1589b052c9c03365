// The table's page for the referee: every data-every seconds ask help.json whether the
// referee answered (a call seen, an objection decided) and swap in the answers. No reload.
(function () {
  "use strict";

  var root = document.getElementById("table-help-status");
  if (!root || !window.fetch || !window.skatligaPoll) return;
  window.skatligaPoll(
    root.getAttribute("data-status"),
    root.getAttribute("data-etag"),
    Number(root.getAttribute("data-every")) || 5,
    null,
    function (data) {
      root.innerHTML = data.html;
    }
  );
})();
