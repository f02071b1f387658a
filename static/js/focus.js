// A form that was refused shows why first: its error summary ([data-error-summary]: the
// summary of a form's problems, a refused save, a sheet that changed meanwhile, an error
// message the page was sent on with). Bring it into view and move the focus there, so
// that a screen reader reads it and a keyboard user starts from it. Without this file
// the summary is still the first thing in the page's main content. (A file, not an
// inline script: the Content-Security-Policy forbids inline JavaScript.)
(function () {
  "use strict";

  function show(summary) {
    // Not the browser's "if needed" scrolling: a refused save answered in place
    // (static/js/keep/queue.js swaps the answer in) keeps the scroll position of
    // the button pressed at the foot of the form.
    summary.focus({ preventScroll: true });
    summary.scrollIntoView({ block: "start" });
  }

  // A tab bar that scrolls within itself on a phone shows the current page's tab.
  function showCurrentTabs() {
    document.querySelectorAll("nav.tabs [aria-current=page]").forEach((tab) => {
      const bar = tab.closest("nav.tabs");
      if (bar.scrollWidth <= bar.clientWidth) {
        return;
      }
      bar.scrollLeft += tab.getBoundingClientRect().left - bar.getBoundingClientRect().left - 16;
    });
  }

  function start() {
    showCurrentTabs();
    const summary = document.querySelector("[data-error-summary]");
    if (summary) {
      show(summary);
    }
  }

  // A summary that htmx swaps in (a form answered in place) takes the focus as well.
  document.addEventListener("htmx:afterSettle", (event) => {
    const swapped = event.detail && event.detail.elt;
    if (!swapped || !swapped.querySelector) {
      return;
    }
    const summary = swapped.matches("[data-error-summary]")
      ? swapped
      : swapped.querySelector("[data-error-summary]");
    if (summary) {
      show(summary);
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
