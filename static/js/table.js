// Entry at the table (templates/table/): the checksum of each deal as it is typed.
// Each seat's cards won and the cards left over must add up to 52; the line under the
// counts says how far the typed counts are from it. The server checks again on saving.
// Where the lying-down order is typed, the last in's place box says "last in" once it
// is chosen: it stays blank.
(function () {
  "use strict";
  var PACK = 52;

  function check(group) {
    var line = group.querySelector("[data-checksum]");
    if (!line) return;
    var inputs = group.querySelectorAll("[data-count]");
    var sum = 0, blank = 0, odd = null;
    inputs.forEach(function (input) {
      var text = input.value.trim();
      if (text === "") { blank += 1; return; }
      if (!/^\d{1,3}$/.test(text)) { odd = input; return; }
      sum += parseInt(text, 10);
    });
    var message, state;
    if (odd) {
      var label = group.querySelector('label[for="' + odd.id + '"]');
      message = (label ? label.textContent.replace(/\s+/g, " ").trim() : "A count") + ": “" + odd.value.trim() + "” is not a number of cards.";
      state = "failed";
    } else if (blank === inputs.length) {
      message = "Cards won and left over add up to 52.";
      state = "";
    } else if (blank) {
      message = sum + " of 52 so far, " + blank + " count" + (blank === 1 ? "" : "s") + " still blank.";
      state = sum > PACK ? "failed" : "partial";
    } else if (sum === PACK) {
      message = "52 of 52: the deal adds up.";
      state = "ok";
    } else if (sum < PACK) {
      message = sum + " of 52: " + (PACK - sum) + " card" + (PACK - sum === 1 ? "" : "s") + " missing. Check each count against the paper.";
      state = "failed";
    } else {
      message = sum + " of 52: " + (sum - PACK) + " card" + (sum - PACK === 1 ? "" : "s") + " too many. Check each count against the paper.";
      state = "failed";
    }
    line.textContent = message;
    line.classList.remove("ok", "failed", "partial");
    if (state) line.classList.add(state);
  }

  function placeLastIn(order) {
    var chosen = order.parentNode.querySelector("fieldset.last-in input:checked");
    order.querySelectorAll("[data-place]").forEach(function (input) {
      input.placeholder = chosen && input.dataset.place === chosen.value ? "last in" : "";
    });
  }

  function start() {
    document.querySelectorAll("[data-order]:not([data-bound])").forEach(function (order) {
      order.dataset.bound = "";
      var lastIn = order.parentNode.querySelector("fieldset.last-in");
      if (lastIn) {
        lastIn.addEventListener("change", function () { placeLastIn(order); });
      }
      placeLastIn(order);
    });
    document.querySelectorAll("[data-deal-counts]:not([data-bound])").forEach(function (group) {
      group.dataset.bound = "";
      group.addEventListener("input", function () { check(group); });
      // Cells put back by keep.js after a reload are announced with a change event.
      group.addEventListener("change", function () { check(group); });
      // A page shown again with counts typed (a problem, a conflict, a reload) says at once.
      if (Array.prototype.some.call(group.querySelectorAll("[data-count]"), function (i) { return i.value !== ""; })) {
        check(group);
      }
    });
  }

  // A page answering a save (static/js/keep/queue.js) is swapped in whole: its counts too.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target === document.body) start();
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
