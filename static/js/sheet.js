// Score sheet entry, keyboard first. The page works without this file (Enter then saves
// a draft, which loses nothing); with it, Enter moves to the next cell like Tab, cells
// take digits only, a value derived from the checksum is filled in only when the scorer
// asks (and is saved marked as derived), the live check (htmx) marks the cells it found
// problems in, and a row's blank cells are reported only once the scorer leaves the row.
// The cells' names (d3_s2, d3_left_over, d3_last_in) are made by cell_name in
// tournament/kernel/cells.py; this file reads them from the page and builds none of its own.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var CELL = "form.sheet-form input.cell";

  function cells(form) {
    return Array.from(form.querySelectorAll("input.cell"));
  }

  function dealOf(input) {
    var row = input && input.closest && input.closest("tr.deal");
    return row ? row.dataset.deal : "";
  }

  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key !== "Enter" || !input.matches || !input.matches(CELL)) {
      return;
    }
    event.preventDefault();
    var all = cells(input.form);
    var next = all[all.indexOf(input) + 1];
    if (next) {
      next.focus();
      next.select();
    } else {
      // The last cell of the last deal: on to "Save sheet", never to "Save draft".
      var save =
        input.form.querySelector("button[type=submit][value=final]") ||
        input.form.querySelector("button[type=submit]");
      save.focus();
    }
  });

  // Digits only: anything else typed or pasted into a cell is refused as it is typed, and
  // said so under the sheet, naming the cell (its data-where, written by the server).
  // The server still checks every cell, for pages used without this file.
  function refuse(input, text) {
    var note = input.form.querySelector("#typed-refusal");
    if (!note) {
      return;
    }
    note.textContent =
      (input.dataset.where || input.getAttribute("aria-label")) +
      ": \u201c" + text.trim() + "\u201d is not a number: type digits only";
    note.hidden = false;
  }

  function unrefuse(input) {
    var note = input.form && input.form.querySelector("#typed-refusal");
    if (note && !note.hidden) {
      note.hidden = true;
      note.textContent = "";
    }
  }
  document.addEventListener("beforeinput", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches(CELL) || !event.inputType.startsWith("insert")) {
      return;
    }
    var text = event.data;
    if (text === null && event.dataTransfer) {
      text = event.dataTransfer.getData("text/plain");
    }
    if (text && /[^0-9]/.test(text.trim())) {
      event.preventDefault();
      refuse(input, text);
    } else {
      unrefuse(input);
    }
  });

  function markDerived(input, derived) {
    var cell = input.parentNode;
    var marker = cell.querySelector("input[name=derived]");
    input.classList.toggle("derived", derived);
    if (derived) {
      input.title = "Derived so that the deal adds up to 52: check it against the paper";
      if (!marker) {
        marker = document.createElement("input");
        marker.type = "hidden";
        marker.name = "derived";
        marker.value = input.name;
        cell.appendChild(marker);
      }
    } else {
      input.removeAttribute("title");
      if (marker) {
        marker.remove();
      }
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-fill]");
    if (!button) {
      return;
    }
    var input = document.getElementById(button.dataset.fill);
    input.value = button.dataset.value;
    markDerived(input, true);
    input.dispatchEvent(new Event("change", { bubbles: true }));
    input.focus();
  });

  // Cells kept by keep.js come back with their derived markers: put beside each cell, as
  // the offer's "Fill in" puts them.
  document.addEventListener("keep:hidden", function (event) {
    var form = event.target;
    if (event.detail.name !== "derived" || !form.matches("form.sheet-form")) {
      return;
    }
    event.preventDefault();
    cells(form).forEach(function (input) {
      markDerived(input, event.detail.values.indexOf(input.name) !== -1);
    });
  });

  // A problem's link goes to its deal's first cell: focus it there, ready to type over.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.problem-link");
    var target = link && document.getElementById(link.hash.slice(1));
    if (!target) {
      return;
    }
    event.preventDefault();
    target.focus();
    target.select();
  });

  // A derived value that the scorer types over is theirs again.
  document.addEventListener("input", function (event) {
    if (event.target.classList && event.target.classList.contains("derived")) {
      markDerived(event.target, false);
    }
  });

  // The live check is told which row is being typed, so that its blank cells are not
  // reported as missing yet; moving to another row checks again.
  var lastDeal = null;
  document.addEventListener("focusin", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches(CELL)) {
      return;
    }
    var deal = dealOf(input);
    if (lastDeal !== null && deal !== lastDeal && window.htmx) {
      window.htmx.trigger(input.form, "rowleft");
    }
    lastDeal = deal;
  });

  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt;
    if (!form.matches("form.sheet-form")) {
      return;
    }
    // Not while the sheet is being saved (static/js/keep/banner.js marks the form busy):
    // the save's answer replaces the page, and a check would only compete with it.
    if (form.getAttribute("aria-busy") === "true") {
      event.preventDefault();
      return;
    }
    // The live check goes to the form's hx-post, always: htmx would send it to the
    // formaction of the button last focused (Save sheet, once the last cell is typed),
    // and a check would save the sheet.
    event.detail.path = form.getAttribute("hx-post");
    var active = document.activeElement;
    if (active && active.matches(CELL)) {
      event.detail.parameters.typing = dealOf(active);
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
    document.querySelectorAll(CELL).forEach(function (input) {
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
