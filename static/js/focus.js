// A form that failed shows a summary of its problems first: move the focus there, so
// that a screen reader reads it and a keyboard user starts from it. (A file, not an
// inline script: the Content-Security-Policy forbids inline JavaScript.)
document.addEventListener("DOMContentLoaded", () => {
  const summary = document.querySelector("[data-error-summary]");
  if (summary) {
    summary.focus();
  }
});
