// Score sheet entry, keyboard first. The page works without this file (Enter then saves
// a draft, which loses nothing); with it, Enter moves to the next cell like Tab, a value
// derived from the checksum is filled in only when the scorer asks, and the live check
// (htmx) marks the cells it found problems in.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function cells(form) {
    return Array.from(form.querySelectorAll("input.cell"));
  }

  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key !== "Enter" || !input.matches || !input.matches("form.sheet-form input.cell")) {
      return;
    }
    event.preventDefault();
    var all = cells(input.form);
    var next = all[all.indexOf(input) + 1];
    if (next) {
      next.focus();
      next.select();
    } else {
      input.form.querySelector("button[type=submit]").focus();
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-fill]");
    if (!button) {
      return;
    }
    var input = document.getElementById(button.dataset.fill);
    input.value = button.dataset.value;
    input.classList.add("derived");
    input.title = "Derived so that the deal adds up to 52: check it against the paper";
    input.dispatchEvent(new Event("change", { bubbles: true }));
    input.focus();
  });

  // A derived value that the scorer types over is theirs again.
  document.addEventListener("input", function (event) {
    if (event.target.classList && event.target.classList.contains("derived")) {
      event.target.classList.remove("derived");
      event.target.removeAttribute("title");
    }
  });

  // The live check swaps only the report, never the inputs being typed in, so the cells
  // it names are marked here.
  document.addEventListener("htmx:afterSettle", function () {
    var report = document.getElementById("sheet-check");
    if (!report) {
      return;
    }
    var bad = (report.dataset.problemCells || "").split(" ");
    document.querySelectorAll("form.sheet-form input.cell").forEach(function (input) {
      var wrong = bad.indexOf(input.name) !== -1;
      input.classList.toggle("problem", wrong && input.value !== "");
      input.classList.toggle("missing", wrong && input.value === "");
      if (wrong) {
        input.setAttribute("aria-invalid", "true");
      } else {
        input.removeAttribute("aria-invalid");
      }
    });
  });
})();
