// A tournament's settings (templates/tournaments/tournament_form.html): the table sizes
// the scoring and rule set chosen do not seat are unticked and disabled as they are
// chosen, and a line under the sizes says which and why; the form's data-seated-sizes
// (TournamentForm.seated_sizes) says what each seats. The server refuses them too, naming
// them, for a page without JavaScript.
(function () {
  "use strict";

  function sizesText(sizes) {
    if (sizes.length < 2) return sizes.join("");
    return sizes.slice(0, -1).join(", ") + " and " + sizes[sizes.length - 1];
  }

  function follow(form, data) {
    var scoring = form.querySelector('[name="scoring"]');
    var rules = form.querySelector('[name="rule_set"]');
    var note = form.querySelector("#sizes-note");
    if (!scoring || !rules) return;
    var seated = (data.seated[scoring.value] || {})[rules.value];
    if (!seated) return;
    var unseated = [];
    form.querySelectorAll('input[name="table_sizes"]').forEach(function (box) {
      var size = parseInt(box.value, 10);
      var ok = seated.indexOf(size) !== -1;
      if (!ok && box.checked) unseated.push(size);
      if (!ok) box.checked = false;
      box.disabled = !ok;
      box.closest("label").classList.toggle("unseated", !ok);
    });
    if (!note) return;
    var under = (data.rules[rules.value] || rules.value) + " with " + (data.scoring[scoring.value] || scoring.value);
    var seats = data.words[scoring.value][rules.value];
    note.textContent = unseated.length
      ? "Tables of " + sizesText(unseated) + " unticked: " + under + " seats " + seats + "."
      : under + " seats " + seats + ".";
  }

  function start() {
    var form = document.querySelector("form[data-seated-sizes]");
    if (!form) return;
    var data = JSON.parse(form.dataset.seatedSizes);
    form.addEventListener("change", function (event) {
      var name = event.target.name;
      if (name === "scoring" || name === "rule_set") follow(form, data);
    });
    follow(form, data);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
