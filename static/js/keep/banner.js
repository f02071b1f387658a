// What keep.js says on the page: the banner at the top of a form about cells typed on
// this device and not saved yet (with Discard, or Restore / Discard for cells typed into
// an older version), and the status above its buttons while a save waits for the
// network. Words and elements only: what the buttons do is given by keep.js.

function button(text, className, onClick) {
  const made = document.createElement("button");
  made.type = "button";
  made.className = className;
  made.textContent = text;
  made.addEventListener("click", onClick);
  return made;
}

function cells(count) {
  return count === 1 ? "1 cell" : count + " cells";
}

function banner(form) {
  let found = form.querySelector(":scope > .keep-banner");
  if (!found) {
    found = document.createElement("div");
    found.className = "keep-banner";
    found.setAttribute("role", "status");
    form.insertBefore(found, form.firstChild);
  }
  found.textContent = "";
  return found;
}

export function removeBanner(form) {
  const found = form.querySelector(":scope > .keep-banner");
  if (found) found.remove();
}

function olderVersionText(kept, page) {
  return (
    " They were typed into version " + kept + " of this sheet, which has been saved " +
    "since (it is now version " + page + "): saving them shows both versions side by " +
    "side, so that you choose which numbers stand."
  );
}

// Cells put back on the form: "N cells typed on this device are not saved yet".
export function showKept(form, { count, version, page, onDiscard }) {
  const box = banner(form);
  const head = document.createElement("p");
  const strong = document.createElement("strong");
  strong.textContent =
    cells(count) + " typed on this device " + (count === 1 ? "is" : "are") + " not saved yet.";
  head.appendChild(strong);
  head.appendChild(
    document.createTextNode(" " + (count === 1 ? "It is" : "They are") + " marked like this ")
  );
  const swatch = document.createElement("span");
  swatch.className = "keep-swatch";
  swatch.setAttribute("aria-hidden", "true");
  const colon = document.createElement("span");
  colon.className = "keep-nowrap";
  colon.appendChild(swatch);
  colon.appendChild(document.createTextNode(":"));
  head.appendChild(colon);
  head.appendChild(
    document.createTextNode(
      " " + (form.dataset.keepSave || "save the sheet") + " to record " +
        (count === 1 ? "it" : "them") + "." +
        (version !== null && page !== null && version < page ? olderVersionText(version, page) : "")
    )
  );
  box.appendChild(head);
  const actions = document.createElement("p");
  actions.className = "keep-actions";
  actions.appendChild(button("Discard " + (count === 1 ? "it" : "them"), "secondary small", onDiscard));
  box.appendChild(actions);
}

// Cells kept for a version someone has saved over since: offered, not put back.
export function offerOlder(form, { count, version, page, onRestore, onDiscard }) {
  const box = banner(form);
  const head = document.createElement("p");
  const strong = document.createElement("strong");
  strong.textContent =
    cells(count) + " typed on this device into an older version of this sheet " +
    (count === 1 ? "is" : "are") + " not saved.";
  head.appendChild(strong);
  head.appendChild(
    document.createTextNode(
      " They were typed into version " + version + "; someone has saved the sheet " +
        "since (it is now version " + page + "). Restore them to check them " +
        "against the paper: saving them shows both versions side by side, so that you " +
        "choose which numbers stand."
    )
  );
  box.appendChild(head);
  const actions = document.createElement("p");
  actions.className = "keep-actions";
  actions.appendChild(button("Restore them", "small", onRestore));
  actions.appendChild(button("Discard them", "secondary small", onDiscard));
  box.appendChild(actions);
}

export function submitButtons(form) {
  return Array.from(form.querySelectorAll("button[type=submit], button:not([type]), input[type=submit]"));
}

function status(form) {
  let found = form.querySelector(".keep-status");
  if (!found) {
    found = document.createElement("div");
    found.className = "keep-status";
    found.setAttribute("role", "status");
    const buttons = submitButtons(form);
    const place = buttons.length ? buttons[buttons.length - 1].parentNode : form;
    if (place === form) form.appendChild(found);
    else place.parentNode.insertBefore(found, place);
  }
  return found;
}

export function clearStatus(form) {
  const found = form.querySelector(".keep-status");
  if (found) found.remove();
}

export function showWaiting(form, onStop) {
  const box = status(form);
  box.textContent = "";
  const text = document.createElement("p");
  const strong = document.createElement("strong");
  strong.textContent = "Waiting for the network\u2026";
  text.appendChild(strong);
  text.appendChild(
    document.createTextNode(
      " your sheet will be saved when it is back. If you close this page, open it " +
        "again on this device to send it."
    )
  );
  box.appendChild(text);
  box.appendChild(button("Stop waiting", "secondary small", onStop));
}

// While a save is on its way: its buttons disabled, its cells read-only.
export function setBusy(form, busy, fields) {
  submitButtons(form).forEach((submit) => {
    submit.disabled = busy;
  });
  fields.forEach((field) => {
    if (field.type !== "hidden") field.readOnly = busy;
  });
  form.setAttribute("aria-busy", busy ? "true" : "false");
}
