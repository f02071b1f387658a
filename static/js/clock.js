// The round clock (templates/public/_clock.html): counts down to the end time the server
// sent, by the server's clock. Each clock element carries its end (data-ends) and the
// server's time when the page was served (data-now); the difference between that and
// this screen's time when it first saw the element is the screen's offset, so every
// screen shows the same seconds whatever its own clock says. Clocks that htmx or
// live.js swap in are picked up at the next tick.
(function () {
  "use strict";
  if (window.lldClock) return; // the partial may appear twice on a page
  window.lldClock = true;
  var seen = new WeakMap();

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function show(el) {
    var ends = Date.parse(el.dataset.ends);
    if (!seen.has(el)) seen.set(el, Date.parse(el.dataset.now) - Date.now());
    if (isNaN(ends)) return;
    var left = Math.ceil((ends - (Date.now() + seen.get(el))) / 1000);
    var text = el.querySelector("[data-clock-time]");
    var endsLine = el.querySelector("[data-clock-ends]");
    if (left <= 0) {
      text.textContent = "Time — finish the rotation you are in";
      el.classList.add("over");
      if (endsLine) endsLine.hidden = true;
      return;
    }
    var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    var shown = (h ? h + ":" + pad(m) : m) + ":" + pad(s) + " left";
    // Written only when the second changes: the page is laid out again only then.
    if (text.textContent === shown) return;
    text.textContent = shown;
    el.classList.remove("over");
    if (endsLine) endsLine.hidden = false;
  }

  function tick() {
    document.querySelectorAll("[data-clock]").forEach(show);
  }
  // A page with no clock (none yet) asks again at each tick, cheaply: clocks swapped in
  // later are picked up.
  tick();
  setInterval(tick, 250);
})();
