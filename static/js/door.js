// The door tablet (templates/door/tablet.html): a panel after a tap (checked in, undone,
// …) goes back to the search by itself after its data-return-after seconds, as long as
// the server lets this tablet's Undo take the check-in back (door.services.UNDO_SECONDS):
// the next arrival finds the search, never the last one's Undo.
(function () {
  "use strict";
  var timer = null;

  function arm() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    var card = document.querySelector("#door-panel [data-return-after]");
    var next = card && card.querySelector("[data-next-player]");
    if (!next) return;
    var seconds = parseFloat(card.dataset.returnAfter) || 20;
    timer = setTimeout(function () { window.location.assign(next.href); }, seconds * 1000);
  }

  document.addEventListener("htmx:afterSettle", arm);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", arm);
  else arm();
})();
