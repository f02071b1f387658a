// The projector's pages (templates/public/projector.html): all of them come at once, one
// is shown; turn to the next every data-seconds. When live.js swaps in a new board, go
// on from the page shown (or the first, if the board is now shorter).
//
// Fitting: the server lays the board out for a 16:9 screen (tournament/public/projector.py),
// which is what a page without JavaScript shows. Here the page shown is laid out again for
// the real screen: for one to four columns, the largest type (in px, the board's --fit) at
// which nothing scrolls and every name is whole: a name of up to 30 characters on one
// line, a longer one on at most two, no word past its cell. The columns that give the
// largest type win (fewer columns when the type is within 5 %).
(function () {
  "use strict";
  var index = 0;
  var MOST_COLUMNS = 4;
  var ONE_LINE = 30;
  var PHONE = "(max-width: 40rem)";

  function currentPage(board) {
    return board.querySelector("[data-page].current");
  }

  // A name's text box against the cell that clips it: on its allowed lines, inside the
  // cell's content box.
  function nameWhole(who) {
    var cell = who.closest("td");
    var box = cell.getBoundingClientRect();
    var style = getComputedStyle(cell);
    var left = box.left + parseFloat(style.paddingLeft) - 0.5;
    var right = box.right - parseFloat(style.paddingRight) + 0.5;
    var rects = who.getClientRects();
    var tops = {};
    var lines = 0;
    for (var i = 0; i < rects.length; i += 1) {
      var rect = rects[i];
      if (rect.left < left || rect.right > right) return false;
      var top = Math.round(rect.top);
      if (!tops[top]) { tops[top] = true; lines += 1; }
    }
    return lines <= (who.textContent.trim().length <= ONE_LINE ? 1 : 2);
  }

  function fits(page) {
    var root = document.documentElement;
    if (root.scrollHeight > innerHeight || root.scrollWidth > innerWidth) return false;
    var names = page.querySelectorAll(".who");
    for (var i = 0; i < names.length; i += 1) {
      if (!nameWhole(names[i])) return false;
    }
    return true;
  }

  // The page's rows in reading order, in ``columns`` tables like the first, the longest
  // runs first, none longer than another by more than one.
  function arrange(board, page, rows, columns) {
    var model = page.querySelector("table.board");
    var tables = [];
    var size = Math.floor(rows.length / columns);
    var extra = rows.length % columns;
    var start = 0;
    for (var c = 0; c < columns; c += 1) {
      var table = model.cloneNode(false);
      Array.prototype.forEach.call(model.children, function (part) {
        if (part.tagName !== "TBODY") table.appendChild(part.cloneNode(true));
      });
      var body = document.createElement("tbody");
      var end = start + size + (c < extra ? 1 : 0);
      rows.slice(start, end).forEach(function (row) { body.appendChild(row); });
      table.appendChild(body);
      tables.push(table);
      start = end;
    }
    page.replaceChildren.apply(page, tables);
    board.className = board.className.replace(/\bboard-cols-\d+\b/, "board-cols-" + columns);
  }

  function largest(board, page, low, high) {
    var best = 0;
    while (high - low > 0.25) {
      var middle = (low + high) / 2;
      board.style.setProperty("--fit", middle + "px");
      if (fits(page)) { best = middle; low = middle; } else { high = middle; }
    }
    return best;
  }

  function fit() {
    var board = document.getElementById("board");
    if (!board) return;
    var page = currentPage(board);
    if (!page) return;
    if (window.matchMedia(PHONE).matches) {
      board.classList.remove("fitted");
      return;
    }
    var rows = Array.prototype.slice.call(page.querySelectorAll("table.board > tbody > tr"));
    if (!rows.length) return;
    board.classList.add("fitted");
    board.style.setProperty("--row-pad", "0px");
    var high = Math.max(8, innerHeight * 0.07);
    var choice = { columns: 1, size: 0 };
    for (var columns = 1; columns <= Math.min(MOST_COLUMNS, rows.length); columns += 1) {
      arrange(board, page, rows, columns);
      var size = largest(board, page, 6, high);
      if (size > choice.size * 1.05) choice = { columns: columns, size: size };
    }
    arrange(board, page, rows, choice.columns);
    // Nothing fits (a screen too small for a page of rows): the smallest type tried.
    board.style.setProperty("--fit", Math.max(choice.size, 6) + "px");
    board.dataset.fitColumns = String(choice.columns);
    spread(board, page, Math.ceil(rows.length / choice.columns), choice.size);
  }

  // Type held back by the width leaves height over: share it between the rows of the
  // fullest column, up to half a line each.
  function spread(board, page, fullest, size) {
    var foot = board.querySelector(".board-foot");
    var last = foot || page;
    var over = innerHeight - last.getBoundingClientRect().bottom - parseFloat(getComputedStyle(last).marginBottom) - parseFloat(getComputedStyle(document.querySelector("main")).paddingBottom);
    var pad = Math.min(size / 2, Math.max(0, over / (2 * fullest)));
    while (pad > 0.5) {
      board.style.setProperty("--row-pad", pad + "px");
      if (fits(page)) return;
      pad *= 0.9;
    }
    board.style.setProperty("--row-pad", "0px");
  }

  function show() {
    var board = document.getElementById("board");
    if (!board) return;
    var pages = board.querySelectorAll("[data-page]");
    if (!pages.length) return;
    index = index % pages.length;
    pages.forEach(function (page, i) { page.classList.toggle("current", i === index); });
    var label = board.querySelector("[data-page-label]");
    if (label) label.textContent = "page " + (index + 1) + " of " + pages.length;
    fit();
  }

  // The heading's height changes when the clock calls time or a lead is won: fit again.
  var watched = null;
  var heading = typeof ResizeObserver === "function" ? new ResizeObserver(function () { fit(); }) : null;
  function watch() {
    var head = document.querySelector("#board .board-head");
    if (!heading || !head || head === watched) return;
    if (watched) heading.unobserve(watched);
    heading.observe(head);
    watched = head;
  }

  function start() {
    var board = document.getElementById("board");
    if (!board) return;
    var current = currentPage(board);
    index = current ? parseInt(current.dataset.page, 10) - 1 : 0;
    var seconds = parseFloat(board.dataset.seconds) || 15;
    setInterval(function () { index += 1; show(); }, seconds * 1000);
    fit();
    watch();
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(fit);
    window.addEventListener("resize", fit);
  }

  document.addEventListener("live:swapped", function () { show(); watch(); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
