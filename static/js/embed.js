// The Publish page's copy buttons (templates/tournaments/publish.html). Without
// JavaScript the buttons stay hidden and each snippet is a read-only box to select and
// copy; with it, a button copies its box and says so.
(function () {
  "use strict";
  function copy(source) {
    source.focus();
    source.select();
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(source.value);
    }
    // Plain HTTP on the pub's wifi has no clipboard API: the older command still works.
    return document.execCommand("copy") ? Promise.resolve() : Promise.reject();
  }
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var source = document.getElementById(button.dataset.copy);
    if (!source) return;
    var label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", function () {
      copy(source).then(
        function () { button.textContent = "Copied"; },
        function () { button.textContent = "Selected: press Ctrl+C or ⌘C"; }
      ).then(function () {
        // The text stays selected in its box; the keyboard stays on the button.
        button.focus();
        setTimeout(function () { button.textContent = label; }, 2500);
      });
    });
  });
})();
