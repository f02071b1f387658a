// The theme's search is a dialog with no name: screen readers announce it unnamed.
document.querySelectorAll(".md-search[role='dialog']").forEach((dialog) => {
  dialog.setAttribute("aria-label", "Search the guide");
});
