// Hall display: the font size follows the number of rows (--rows in site.css). Set from a
// data attribute here, because the Content-Security-Policy forbids inline style attributes.
(function () {
  "use strict";
  var rows = parseInt(document.body.getAttribute("data-rows"), 10);
  document.body.style.setProperty("--rows", String(rows > 0 ? rows : 1));
})();
