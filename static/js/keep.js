// Nothing typed is lost. Cells typed into a sheet form are kept in this browser's
// localStorage until the server has them (keep/storage.js), and a save that the network
// drops is sent again, with the same idempotency key, until it gets through
// (keep/queue.js, on htmx). What the page says about them is keep/banner.js.
//
// Contract (for any page; the page works as a plain form without this file):
//
// - The script acts only on <form data-keep="…">. data-keep is a storage key, built by
//   the server ({% keep_attrs table version %} in tournament/templatetags/keep.py), that
//   names the table and the sheet version the form was made from, and which form when a
//   page has several: "sheet:<slug>:<round>:<table>:v<version>". data-keep-table is the
//   same key without its version ("sheet:<slug>:<round>:<table>"), by which cells kept
//   for an older version of the same form are found. Two forms of one page must differ
//   in both.
// - Kept: every named field a person types or ticks (text and number inputs, checkboxes,
//   radios, selects, textareas). Not kept: buttons, the CSRF token, hidden fields, except
//   those named in data-keep-hidden (space-separated, e.g. "derived"), whose values are
//   kept as a list. To put those back the script fires a cancelable "keep:hidden" event
//   on the form (detail: {name, values}); a page script that places them itself calls
//   preventDefault(), otherwise the script puts them at the end of the form.
// - data-keep-save (optional) says what saving is called on the page, for the banner:
//   "confirm the sheet"; "save the sheet" unless given.
// - The form's hidden "expected_version" is kept with the cells. Cells typed against an
//   older version are put back with that older version, so that saving them shows the
//   conflict page with both versions, never a silent overwrite.
// - On load, after a page answering a save is swapped in, and on pageshow from the
//   back/forward cache: kept cells that differ from the page's are put back, each marked
//   (class "keep-restored"), under a banner at the top of the form ("N cells typed on
//   this device are not saved yet", with Discard). Cells kept for an older version are
//   only offered (Restore / Discard).
// - Leaving with cells typed and not saved asks first (beforeunload).
// - Submitting: keep/queue.js (htmx sends it; kept until answered; resent when the
//   network is back). An answer that is a page (422 invalid, 409 conflict) replaces the
//   page's body: nothing was saved, and its form's cells stay kept against the version
//   that was submitted.

import {
  allCells,
  cellsName,
  dropOldRecords,
  moveOldRecords,
  read,
  remove,
  store,
  write,
} from "./keep/storage.js";
import { offerOlder, removeBanner, showKept } from "./keep/banner.js";
import * as queue from "./keep/queue.js";

const VERSION_FIELD = "expected_version";
const KEPT_TYPES = /^(text|number|search|tel|email|url|date|time|checkbox|radio|textarea|select-one|select-multiple)$/;

// Fields --------------------------------------------------------------------------------

function hiddenKept(form) {
  return (form.dataset.keepHidden || "").split(/\s+/).filter(Boolean);
}

function isKept(form, field) {
  if (!field.name || field.disabled) return false;
  if (field.type === "hidden") return hiddenKept(form).includes(field.name);
  return KEPT_TYPES.test(field.type);
}

function keptFields(form) {
  return Array.from(form.elements).filter((field) => isKept(form, field));
}

function isTicked(field) {
  return field.type === "checkbox" || field.type === "radio";
}

// {name: [values]}: what the form holds now, or (initial) as the server wrote it.
function snapshot(form, initial) {
  const values = {};
  keptFields(form).forEach((field) => {
    const list = values[field.name] || (values[field.name] = []);
    if (isTicked(field)) {
      if (initial ? field.defaultChecked : field.checked) list.push(field.value);
    } else if (field.type === "select-multiple") {
      Array.from(field.options).forEach((option) => {
        if (initial ? option.defaultSelected : option.selected) list.push(option.value);
      });
    } else {
      list.push(initial ? field.defaultValue : field.value);
    }
  });
  return values;
}

function same(a, b) {
  return (a || []).join("\u0000") === (b || []).join("\u0000") && (a || []).length === (b || []).length;
}

// The names whose kept values differ from ``page``'s (markers in data-keep-hidden aside).
function differing(form, kept, page) {
  const hidden = hiddenKept(form);
  return Object.keys(kept).filter((name) => !hidden.includes(name) && name in page && !same(kept[name], page[name]));
}

function versionField(form) {
  return form.querySelector("input[name=" + VERSION_FIELD + "]");
}

function pageVersion(form) {
  const field = versionField(form);
  return field ? parseInt(field.defaultValue, 10) : null;
}

function formVersion(form) {
  const field = versionField(form);
  return field ? parseInt(field.value, 10) : null;
}

// Per form ------------------------------------------------------------------------------

const forms = new Map();

function state(form) {
  let found = forms.get(form);
  if (!found) {
    found = { baseline: snapshot(form, true), keptVersion: null, dirty: false };
    forms.set(form, found);
  }
  return found;
}

function entryName(form) {
  return cellsName(form.dataset.keep);
}

function keep(form) {
  const st = state(form);
  const values = snapshot(form, false);
  const version = formVersion(form);
  const unchanged =
    st.baseline &&
    Object.keys(values).every((name) => same(values[name], st.baseline[name])) &&
    version === pageVersion(form);
  if (unchanged) {
    remove(entryName(form));
    st.dirty = false;
    return;
  }
  write(entryName(form), {
    at: Date.now(),
    table: form.dataset.keepTable || "",
    version: st.keptVersion !== null ? st.keptVersion : version,
    fields: values,
  });
  st.dirty = true;
}

// Saved, or discarded: the form's kept cells and its submission are forgotten.
function forget(form) {
  const st = state(form);
  const pending = queue.pendingOf(form);
  remove(entryName(form));
  if (pending) remove(cellsName(pending.form));
  queue.forget(form);
  st.dirty = false;
}

// Putting cells back --------------------------------------------------------------------

function putBack(form, values, version) {
  let marked = 0;
  const byName = {};
  keptFields(form).forEach((field) => {
    (byName[field.name] = byName[field.name] || []).push(field);
  });
  const hidden = hiddenKept(form);
  Object.keys(values).forEach((name) => {
    const fields = byName[name] || [];
    const wanted = values[name];
    if (hidden.includes(name)) {
      const event = new CustomEvent("keep:hidden", { detail: { name, values: wanted }, cancelable: true });
      if (form.dispatchEvent(event)) {
        fields.forEach((field) => field.remove());
        wanted.forEach((value) => {
          const marker = document.createElement("input");
          marker.type = "hidden";
          marker.name = name;
          marker.value = value;
          form.appendChild(marker);
        });
      }
      return;
    }
    fields.forEach((field, index) => {
      let changed = false;
      if (isTicked(field)) {
        const ticked = wanted.includes(field.value);
        changed = field.checked !== ticked;
        field.checked = ticked;
      } else if (field.type === "select-multiple") {
        Array.from(field.options).forEach((option) => {
          const chosen = wanted.includes(option.value);
          changed = changed || option.selected !== chosen;
          option.selected = chosen;
        });
      } else if (index < wanted.length && field.value !== wanted[index]) {
        field.value = wanted[index];
        changed = true;
      }
      if (changed) {
        field.classList.add("keep-restored");
        marked += 1;
      }
    });
  });
  const versionInput = versionField(form);
  if (versionInput && version !== null && version !== undefined) versionInput.value = String(version);
  // The page's own scripts (the live check) see the cells as if typed, once htmx has set
  // up its triggers.
  const first = form.querySelector(".keep-restored");
  if (first) window.setTimeout(() => first.dispatchEvent(new Event("change", { bubbles: true })), 0);
  return marked;
}

function resetToPage(form) {
  const st = state(form);
  form.querySelectorAll(".keep-restored").forEach((field) => field.classList.remove("keep-restored"));
  if (st.baseline) {
    putBack(form, st.baseline, pageVersion(form));
    form.querySelectorAll(".keep-restored").forEach((field) => field.classList.remove("keep-restored"));
  }
  st.keptVersion = null;
}

function focusFirstCell(form) {
  const target = form.querySelector(".keep-restored") || keptFields(form)[0];
  if (target && target.type !== "hidden") target.focus();
}

function bannerKept(form, count, version) {
  showKept(form, {
    count,
    version,
    page: pageVersion(form),
    onDiscard() {
      forget(form);
      resetToPage(form);
      removeBanner(form);
      focusFirstCell(form);
    },
  });
}

// The newest entry kept for an older version of this form.
function olderEntry(form) {
  const page = pageVersion(form);
  let best = null;
  allCells().forEach(({ name, entry }) => {
    if (
      name !== entryName(form) &&
      form.dataset.keepTable &&
      entry.table === form.dataset.keepTable &&
      page !== null &&
      entry.version < page &&
      (!best || entry.at > best.entry.at)
    ) {
      best = { name, entry };
    }
  });
  return best;
}

function offer(form, older, count) {
  offerOlder(form, {
    count,
    version: older.entry.version,
    page: pageVersion(form),
    onRestore() {
      const st = state(form);
      const marked = putBack(form, older.entry.fields, older.entry.version);
      st.keptVersion = older.entry.version;
      remove(older.name);
      keep(form);
      bannerKept(form, marked, older.entry.version);
      focusFirstCell(form);
    },
    onDiscard() {
      remove(older.name);
      removeBanner(form);
      focusFirstCell(form);
    },
  });
}

// On load -------------------------------------------------------------------------------

// The form of a page answering a save (invalid, or the sheet changed meanwhile) shows
// the cells as typed: none of them is saved, and they stay kept against the version they
// were typed into. Set by keep/queue.js just before the answer is swapped in.
let answered = null;

function start(form) {
  const st = state(form);
  let name = entryName(form);
  if (answered && answered.table === (form.dataset.keepTable || "")) {
    st.baseline = null;
    st.keptVersion = answered.version !== pageVersion(form) ? answered.version : null;
    if (answered.from !== name) remove(answered.from);
    keep(form);
    return;
  }
  const pending = queue.kept(form);
  let entry = read(name);
  if (pending && pending.form !== form.dataset.keep) {
    // Sent from an older version of the page: its cells are the ones on their way.
    const sent = read(cellsName(pending.form));
    if (sent) {
      entry = sent;
      name = cellsName(pending.form);
    }
  }
  if (entry) {
    const count = differing(form, entry.fields, snapshot(form, false)).length;
    if (count) {
      const page = pageVersion(form);
      const marked = putBack(form, entry.fields, entry.version);
      st.keptVersion = entry.version !== page ? entry.version : null;
      if (name !== entryName(form)) remove(name);
      keep(form);
      if (marked) bannerKept(form, marked, entry.version);
    } else if (!pending) {
      remove(name);
    }
  } else if (!pending) {
    const older = olderEntry(form);
    if (older) {
      const differs = differing(form, older.entry.fields, snapshot(form, false)).length;
      if (differs) offer(form, older, differs);
      else remove(older.name);
    }
  }
  if (pending) queue.resume(form, pending);
}

function startAll() {
  document.querySelectorAll("form[data-keep]").forEach(start);
  answered = null;
}

function keptForm(event) {
  const form = event.target.form;
  return form && form.matches("form[data-keep]") && isKept(form, event.target) ? form : null;
}

if (store && window.htmx) {
  moveOldRecords();
  dropOldRecords();

  queue.configure({
    fieldsOf: keptFields,
    saved: forget,
    answered(form, version) {
      const entry = read(entryName(form));
      answered = {
        from: entryName(form),
        table: form.dataset.keepTable || "",
        version: entry ? entry.version : version,
      };
    },
  });

  document.addEventListener("input", (event) => {
    const form = keptForm(event);
    if (form) keep(form);
  });
  document.addEventListener("change", (event) => {
    const form = keptForm(event);
    if (form) keep(form);
  });
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches || !form.matches("form[data-keep]")) return;
    event.preventDefault();
    if (queue.busy(form)) return;
    keep(form);
    queue.enqueue(form, event.submitter);
  });

  // A page answering a save has replaced the body: its forms start as a page load's do.
  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target === document.body) startAll();
  });

  window.addEventListener("beforeunload", (event) => {
    let asking = false;
    forms.forEach((st, form) => {
      if (!form.isConnected) return;
      asking = asking || ((st.dirty || queue.busy(form)) && !queue.leaving(form));
    });
    if (asking) {
      event.preventDefault();
      event.returnValue = "";
    }
  });

  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    // Back from another page with this one kept whole: its cells are as they were left,
    // but a save meanwhile (on another page or device) may have kept or cleared them.
    document.querySelectorAll("form[data-keep]").forEach((form) => {
      const st = state(form);
      queue.shownAgain(form);
      if (!read(entryName(form)) && !queue.busy(form)) st.dirty = false;
    });
  });

  // After htmx has set up the page, and after the page's deferred scripts (sheet.js
  // listens for "keep:hidden").
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startAll);
  else startAll();
}
