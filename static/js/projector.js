// The projector's pages (templates/public/projector.html): all of them come at once, one
// is shown; turn to the next every data-seconds. When live.js swaps in a new board, go
// on from the page shown (or the first, if the board is now shorter).
(function () {
  "use strict";
  var index = 0;

  function show() {
    var board = document.getElementById("board");
    if (!board) return;
    var pages = board.querySelectorAll("[data-page]");
    if (!pages.length) return;
    index = index % pages.length;
    pages.forEach(function (page, i) { page.classList.toggle("current", i === index); });
    var label = board.querySelector("[data-page-label]");
    if (label) label.textContent = "page " + (index + 1) + " of " + pages.length;
  }

  function start() {
    var board = document.getElementById("board");
    if (!board) return;
    var current = board.querySelector("[data-page].current");
    index = current ? parseInt(current.dataset.page, 10) - 1 : 0;
    var seconds = parseFloat(board.dataset.seconds) || 15;
    setInterval(function () { index += 1; show(); }, seconds * 1000);
  }

  document.addEventListener("live:swapped", show);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
