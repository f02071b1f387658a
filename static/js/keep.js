// Nothing typed is lost. Cells typed into a sheet form are kept in this browser's
// localStorage until the server has them, and a save that the network drops is sent
// again, with the same idempotency key, until it gets through.
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
// - On load, and on pageshow from the back/forward cache: kept cells that differ from the
//   page's are put back, each marked (class "keep-restored"), under a banner at the top
//   of the form ("N cells typed on this device are not saved yet", with Discard). Cells
//   kept for an older version are only offered (Restore / Discard).
// - Leaving with cells typed and not saved asks first (beforeunload).
// - Submitting: the script posts the form itself (fetch; the fields, the pressed button's
//   name and value, a "key" field: a random idempotency key made once per submission,
//   and the header "HX-Request: true"). The submission is kept in localStorage until it
//   is answered, so a retry, even after a reload, sends the same key. No answer (no
//   network): a status "Waiting for the network…" and retries, at once when the browser
//   is back online and after 2, 4, 8, 16, 30, 30… seconds. A submission sent again so
//   (after a wait, or found kept when the page is opened again) carries the header
//   "Keep-Resent: 1", so that the page it leads to says it went through once the network
//   came back (tournament/kernel/http.py resent). The server's answers:
//     * HX-Redirect (tournament/kernel/http.py saved_redirect): saved. The kept cells and the
//       submission are forgotten, and the browser goes there.
//     * a page (invalid 422, conflict 409, any other): nothing was saved. It replaces
//       this document as the browser would have shown it (document.open/write/close: one
//       request, so the page is the answer to this very submission, with its scripts run
//       again; a second, plain POST could meet a different sheet). Its form's cells are
//       kept, against the version that was submitted.
// - Kept cells older than three days are dropped on load.
(function () {
  "use strict";

  var PREFIX = "lld-keep:";
  var PENDING = "lld-keep-pending:";
  // Set just before an answer page replaces the document: that page's cells are typed.
  var ANSWERED = "lld-keep-answered";
  var MAX_AGE = 3 * 24 * 60 * 60 * 1000;
  var BACKOFF_SECONDS = [2, 4, 8, 16, 30];
  var VERSION_FIELD = "expected_version";
  var KEPT_TYPES = /^(text|number|search|tel|email|url|date|time|checkbox|radio|textarea|select-one|select-multiple)$/;

  var store = (function () {
    try {
      var storage = window.localStorage;
      storage.setItem(PREFIX + "probe", "1");
      storage.removeItem(PREFIX + "probe");
      return storage;
    } catch (error) {
      return null;
    }
  })();
  if (!store) {
    return; // No storage (a private window's quota, a blocked store): plain forms.
  }

  function read(name) {
    try {
      return JSON.parse(store.getItem(name) || "null");
    } catch (error) {
      return null;
    }
  }

  function write(name, value) {
    try {
      store.setItem(name, JSON.stringify(value));
    } catch (error) {
      // Full: what is typed still reaches the server by the form itself.
    }
  }

  function dropOldEntries() {
    var now = Date.now();
    for (var i = store.length - 1; i >= 0; i--) {
      var name = store.key(i);
      if (name && (name.indexOf(PREFIX) === 0 || name.indexOf(PENDING) === 0)) {
        var entry = read(name);
        if (!entry || !(now - entry.at < MAX_AGE)) {
          store.removeItem(name);
        }
      }
    }
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return window
      .btoa(String.fromCharCode.apply(null, bytes))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  }

  // Fields --------------------------------------------------------------------------------

  function hiddenKept(form) {
    return (form.dataset.keepHidden || "").split(/\s+/).filter(Boolean);
  }

  function isKept(form, field) {
    if (!field.name || field.disabled) {
      return false;
    }
    if (field.type === "hidden") {
      return hiddenKept(form).indexOf(field.name) !== -1;
    }
    return KEPT_TYPES.test(field.type);
  }

  function keptFields(form) {
    return Array.from(form.elements).filter(function (field) {
      return isKept(form, field);
    });
  }

  function isTicked(field) {
    return field.type === "checkbox" || field.type === "radio";
  }

  // {name: [values]}: what the form holds now, or (initial) as the server wrote it.
  function snapshot(form, initial) {
    var values = {};
    keptFields(form).forEach(function (field) {
      var list = values[field.name] || (values[field.name] = []);
      if (isTicked(field)) {
        if (initial ? field.defaultChecked : field.checked) {
          list.push(field.value);
        }
      } else if (field.type === "select-multiple") {
        Array.from(field.options).forEach(function (option) {
          if (initial ? option.defaultSelected : option.selected) {
            list.push(option.value);
          }
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
    var hidden = hiddenKept(form);
    return Object.keys(kept).filter(function (name) {
      return hidden.indexOf(name) === -1 && name in page && !same(kept[name], page[name]);
    });
  }

  function versionField(form) {
    return form.querySelector("input[name=" + VERSION_FIELD + "]");
  }

  function pageVersion(form) {
    var field = versionField(form);
    return field ? parseInt(field.defaultValue, 10) : null;
  }

  function formVersion(form) {
    var field = versionField(form);
    return field ? parseInt(field.value, 10) : null;
  }

  // Per form ------------------------------------------------------------------------------

  var forms = new Map();

  function state(form) {
    var found = forms.get(form);
    if (!found) {
      found = {
        baseline: snapshot(form, true),
        keptVersion: null,
        dirty: false,
        pending: null,
        attempt: 0,
        timer: null,
        inFlight: false,
        resending: false,
      };
      forms.set(form, found);
    }
    return found;
  }

  function entryName(form) {
    return PREFIX + form.dataset.keep;
  }

  function pendingName(form) {
    return PENDING + (form.dataset.keepTable || form.dataset.keep);
  }

  function keep(form) {
    var st = state(form);
    var values = snapshot(form, false);
    var version = formVersion(form);
    var unchanged =
      st.baseline &&
      Object.keys(values).every(function (name) {
        return same(values[name], st.baseline[name]);
      }) &&
      version === pageVersion(form);
    if (unchanged) {
      store.removeItem(entryName(form));
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

  function forget(form) {
    var st = state(form);
    store.removeItem(entryName(form));
    store.removeItem(pendingName(form));
    if (st.pending) {
      store.removeItem(PREFIX + st.pending.form);
    }
    st.dirty = false;
    st.pending = null;
  }

  // Putting cells back --------------------------------------------------------------------

  function putBack(form, values, version) {
    var marked = 0;
    var byName = {};
    keptFields(form).forEach(function (field) {
      (byName[field.name] = byName[field.name] || []).push(field);
    });
    var hidden = hiddenKept(form);
    Object.keys(values).forEach(function (name) {
      var fields = byName[name] || [];
      var wanted = values[name];
      if (hidden.indexOf(name) !== -1) {
        var event = new CustomEvent("keep:hidden", {
          detail: { name: name, values: wanted },
          cancelable: true,
        });
        if (form.dispatchEvent(event)) {
          fields.forEach(function (field) {
            field.remove();
          });
          wanted.forEach(function (value) {
            var marker = document.createElement("input");
            marker.type = "hidden";
            marker.name = name;
            marker.value = value;
            form.appendChild(marker);
          });
        }
        return;
      }
      fields.forEach(function (field, index) {
        var changed = false;
        if (isTicked(field)) {
          var ticked = wanted.indexOf(field.value) !== -1;
          changed = field.checked !== ticked;
          field.checked = ticked;
        } else if (field.type === "select-multiple") {
          Array.from(field.options).forEach(function (option) {
            var chosen = wanted.indexOf(option.value) !== -1;
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
    var versionInput = versionField(form);
    if (versionInput && version !== null && version !== undefined) {
      versionInput.value = String(version);
    }
    // The page's own scripts (the live check) see the cells as if typed.
    // Later: htmx sets up its triggers once the page has loaded.
    var first = form.querySelector(".keep-restored");
    if (first) {
      window.setTimeout(function () {
        first.dispatchEvent(new Event("change", { bubbles: true }));
      }, 0);
    }
    return marked;
  }

  function resetToPage(form) {
    var st = state(form);
    form.querySelectorAll(".keep-restored").forEach(function (field) {
      field.classList.remove("keep-restored");
    });
    if (st.baseline) {
      putBack(form, st.baseline, pageVersion(form));
      form.querySelectorAll(".keep-restored").forEach(function (field) {
        field.classList.remove("keep-restored");
      });
    }
    st.keptVersion = null;
  }

  // The banner ----------------------------------------------------------------------------

  function banner(form) {
    var found = form.querySelector(":scope > .keep-banner");
    if (!found) {
      found = document.createElement("div");
      found.className = "keep-banner";
      found.setAttribute("role", "status");
      form.insertBefore(found, form.firstChild);
    }
    found.textContent = "";
    return found;
  }

  function removeBanner(form) {
    var found = form.querySelector(":scope > .keep-banner");
    if (found) {
      found.remove();
    }
  }

  function button(text, className, onClick) {
    var made = document.createElement("button");
    made.type = "button";
    made.className = className;
    made.textContent = text;
    made.addEventListener("click", onClick);
    return made;
  }

  function cells(count) {
    return count === 1 ? "1 cell" : count + " cells";
  }

  function olderVersionText(kept, page) {
    return (
      " They were typed into version " + kept + " of this sheet, which has been saved " +
      "since (it is now version " + page + "): saving them shows both versions side by " +
      "side, so that you choose which numbers stand."
    );
  }

  function showKept(form, count, version) {
    var box = banner(form);
    var head = document.createElement("p");
    var strong = document.createElement("strong");
    strong.textContent =
      cells(count) + " typed on this device " + (count === 1 ? "is" : "are") + " not saved yet.";
    head.appendChild(strong);
    var page = pageVersion(form);
    head.appendChild(
      document.createTextNode(" " + (count === 1 ? "It is" : "They are") + " marked like this ")
    );
    var swatch = document.createElement("span");
    swatch.className = "keep-swatch";
    swatch.setAttribute("aria-hidden", "true");
    var colon = document.createElement("span");
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
    var actions = document.createElement("p");
    actions.className = "keep-actions";
    actions.appendChild(
      button("Discard " + (count === 1 ? "it" : "them"), "secondary small", function () {
        forget(form);
        resetToPage(form);
        removeBanner(form);
        focusFirstCell(form);
      })
    );
    box.appendChild(actions);
  }

  function offerOlder(form, name, entry, count) {
    var box = banner(form);
    var head = document.createElement("p");
    var strong = document.createElement("strong");
    strong.textContent =
      cells(count) + " typed on this device into an older version of this sheet " +
      (count === 1 ? "is" : "are") + " not saved.";
    head.appendChild(strong);
    head.appendChild(
      document.createTextNode(
        " They were typed into version " + entry.version + "; someone has saved the sheet " +
          "since (it is now version " + pageVersion(form) + "). Restore them to check them " +
          "against the paper: saving them shows both versions side by side, so that you " +
          "choose which numbers stand."
      )
    );
    box.appendChild(head);
    var actions = document.createElement("p");
    actions.className = "keep-actions";
    actions.appendChild(
      button("Restore them", "small", function () {
        var st = state(form);
        var marked = putBack(form, entry.fields, entry.version);
        st.keptVersion = entry.version;
        store.removeItem(name);
        keep(form);
        showKept(form, marked, entry.version);
        focusFirstCell(form);
      })
    );
    actions.appendChild(
      button("Discard them", "secondary small", function () {
        store.removeItem(name);
        removeBanner(form);
        focusFirstCell(form);
      })
    );
    box.appendChild(actions);
  }

  function focusFirstCell(form) {
    var target = form.querySelector(".keep-restored") || keptFields(form)[0];
    if (target && target.type !== "hidden") {
      target.focus();
    }
  }

  // The newest entry kept for an older version of this form.
  function olderEntry(form) {
    var page = pageVersion(form);
    var best = null;
    for (var i = 0; i < store.length; i++) {
      var name = store.key(i);
      if (!name || name.indexOf(PREFIX) !== 0 || name === entryName(form)) {
        continue;
      }
      var entry = read(name);
      if (
        entry &&
        form.dataset.keepTable &&
        entry.table === form.dataset.keepTable &&
        page !== null &&
        entry.version < page &&
        (!best || entry.at > best.entry.at)
      ) {
        best = { name: name, entry: entry };
      }
    }
    return best;
  }

  // Sending -------------------------------------------------------------------------------

  function submitButtons(form) {
    return Array.from(form.querySelectorAll("button[type=submit], button:not([type]), input[type=submit]"));
  }

  function setBusy(form, busy) {
    submitButtons(form).forEach(function (submit) {
      submit.disabled = busy;
    });
    keptFields(form).forEach(function (field) {
      if (field.type !== "hidden") {
        field.readOnly = busy;
      }
    });
    form.setAttribute("aria-busy", busy ? "true" : "false");
  }

  function status(form) {
    var found = form.querySelector(".keep-status");
    if (!found) {
      found = document.createElement("div");
      found.className = "keep-status";
      found.setAttribute("role", "status");
      var buttons = submitButtons(form);
      var place = buttons.length ? buttons[buttons.length - 1].parentNode : form;
      if (place === form) {
        form.appendChild(found);
      } else {
        place.parentNode.insertBefore(found, place);
      }
    }
    return found;
  }

  function clearStatus(form) {
    var found = form.querySelector(".keep-status");
    if (found) {
      found.remove();
    }
  }

  function showWaiting(form) {
    var box = status(form);
    box.textContent = "";
    var text = document.createElement("p");
    var strong = document.createElement("strong");
    strong.textContent = "Waiting for the network\u2026";
    text.appendChild(strong);
    text.appendChild(
      document.createTextNode(" your sheet will be saved when it is back. If you close this page, open it " +
        "again on this device to send it.")
    );
    box.appendChild(text);
    box.appendChild(
      button("Stop waiting", "secondary small", function () {
        var st = state(form);
        window.clearTimeout(st.timer);
        store.removeItem(pendingName(form));
        st.pending = null;
        st.attempt = 0;
        clearStatus(form);
        setBusy(form, false);
      })
    );
  }

  function waitForNetwork(form) {
    var st = state(form);
    st.inFlight = false;
    st.resending = true;
    showWaiting(form);
    window.clearTimeout(st.timer);
    var seconds = BACKOFF_SECONDS[Math.min(st.attempt, BACKOFF_SECONDS.length - 1)];
    st.attempt += 1;
    st.timer = window.setTimeout(function () {
      send(form);
    }, seconds * 1000);
  }

  function send(form) {
    var st = state(form);
    var pending = st.pending;
    if (!pending || st.inFlight) {
      return;
    }
    window.clearTimeout(st.timer);
    setBusy(form, true);
    if (navigator.onLine === false) {
      waitForNetwork(form);
      return;
    }
    st.inFlight = true;
    var body = new URLSearchParams();
    pending.fields.forEach(function (pair) {
      body.append(pair[0], pair[1]);
    });
    var headers = { "HX-Request": "true" };
    if (st.resending) {
      headers["Keep-Resent"] = "1";
    }
    window
      .fetch(pending.url, {
        method: "POST",
        body: body,
        headers: headers,
        credentials: "same-origin",
      })
      .then(function (response) {
        var target = response.headers.get("HX-Redirect");
        if (target) {
          forget(form);
          window.location.assign(target);
          return null;
        }
        return response.text().then(function (page) {
          showAnswer(form, response, page);
        });
      })
      .catch(function () {
        waitForNetwork(form);
      });
  }

  // The server answered with a page: nothing was saved. Show it as the browser would.
  function showAnswer(form, response, page) {
    var st = state(form);
    var sent = st.pending;
    st.inFlight = false;
    st.pending = null;
    st.leaving = true;
    store.removeItem(pendingName(form));
    if (response.redirected) {
      // Sent on to another page (a refusal, the login page): it is shown at its own
      // address, and finds the kept cells itself as any page load does.
      window.history.replaceState(null, "", response.url);
    } else {
      // The answer to these very cells (invalid, or the sheet changed meanwhile): its form
      // shows them as typed, and they stay kept against the version they were typed into.
      var entry = read(entryName(form));
      var version = entry ? entry.version : null;
      sent.fields.forEach(function (pair) {
        if (version === null && pair[0] === VERSION_FIELD) {
          version = parseInt(pair[1], 10);
        }
      });
      try {
        window.sessionStorage.setItem(
          ANSWERED,
          JSON.stringify({
            from: entryName(form),
            table: form.dataset.keepTable || "",
            version: version,
            at: Date.now(),
          })
        );
      } catch (error) {
        // Without the note the answer page's cells are kept once one is typed in again.
      }
    }
    document.open();
    document.write(page);
    document.close();
  }

  function submit(event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-keep]") || !window.fetch) {
      return;
    }
    event.preventDefault();
    var st = state(form);
    if (st.pending || st.inFlight) {
      return; // no double submits
    }
    keep(form);
    var data = new FormData(form);
    var submitter = event.submitter;
    if (submitter && submitter.name) {
      data.append(submitter.name, submitter.value);
    }
    var fields = [];
    data.forEach(function (value, name) {
      if (typeof value === "string") {
        fields.push([name, value]);
      }
    });
    fields.push(["key", newKey()]);
    st.pending = {
      at: Date.now(),
      // Not form.action: a field named "action" (the sheet's buttons) shadows it. A button
      // with a formaction of its own ("Record" a player who left) posts there instead.
      url: new URL(
        (submitter && submitter.getAttribute("formaction")) || form.getAttribute("action") || "",
        document.baseURI
      ).href,
      form: form.dataset.keep,
      fields: fields,
    };
    st.attempt = 0;
    st.resending = false;
    write(pendingName(form), st.pending);
    send(form);
  }

  // On load -------------------------------------------------------------------------------

  function answeredNote() {
    try {
      var note = JSON.parse(window.sessionStorage.getItem(ANSWERED) || "null");
      window.sessionStorage.removeItem(ANSWERED);
      return note && Date.now() - note.at < 60 * 1000 ? note : null;
    } catch (error) {
      return null;
    }
  }

  function withFreshToken(form, fields) {
    var token = form.querySelector("input[name=csrfmiddlewaretoken]");
    return fields.map(function (pair) {
      return token && pair[0] === "csrfmiddlewaretoken" ? [pair[0], token.value] : pair;
    });
  }

  function start(form, answered) {
    var st = state(form);
    var name = entryName(form);
    if (answered && answered.table === (form.dataset.keepTable || "")) {
      // This page answers a submission of these cells: none of them is saved, and they
      // stay kept against the version they were typed into.
      st.baseline = null;
      st.keptVersion = answered.version !== pageVersion(form) ? answered.version : null;
      if (answered.from !== name) {
        store.removeItem(answered.from);
      }
      keep(form);
      return;
    }
    var pending = read(pendingName(form));
    var entry = read(name);
    if (pending && pending.form !== form.dataset.keep) {
      // Sent from an older version of the page: its cells are the ones on their way.
      var sent = read(PREFIX + pending.form);
      if (sent) {
        entry = sent;
        name = PREFIX + pending.form;
      }
    }
    if (entry) {
      var count = differing(form, entry.fields, snapshot(form, false)).length;
      if (count) {
        var page = pageVersion(form);
        var marked = putBack(form, entry.fields, entry.version);
        st.keptVersion = entry.version !== page ? entry.version : null;
        if (name !== entryName(form)) {
          store.removeItem(name);
        }
        keep(form);
        if (marked) {
          showKept(form, marked, entry.version);
        }
      } else if (!pending) {
        store.removeItem(name);
      }
    } else if (!pending) {
      var older = olderEntry(form);
      if (older) {
        var differs = differing(form, older.entry.fields, snapshot(form, false)).length;
        if (differs) {
          offerOlder(form, older.name, older.entry, differs);
        } else {
          store.removeItem(older.name);
        }
      }
    }
    if (pending) {
      pending.fields = withFreshToken(form, pending.fields);
      st.pending = pending;
      st.attempt = 0;
      st.resending = true;
      setBusy(form, true);
      showWaiting(form);
      send(form);
    }
  }

  function startAll() {
    dropOldEntries();
    var answered = answeredNote();
    document.querySelectorAll("form[data-keep]").forEach(function (form) {
      start(form, answered);
    });
  }

  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (form && form.matches("form[data-keep]") && isKept(form, event.target)) {
      keep(form);
    }
  });
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.matches("form[data-keep]") && isKept(form, event.target)) {
      keep(form);
    }
  });
  document.addEventListener("submit", submit);

  window.addEventListener("beforeunload", function (event) {
    var asking = false;
    forms.forEach(function (st) {
      asking = asking || ((st.dirty || st.pending) && !st.leaving);
    });
    if (asking) {
      event.preventDefault();
      event.returnValue = "";
    }
  });

  window.addEventListener("online", function () {
    forms.forEach(function (st, form) {
      if (st.pending && !st.inFlight) {
        st.attempt = 0;
        send(form);
      }
    });
  });

  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) {
      return;
    }
    // Back from another page with this one kept whole: its cells are as they were left,
    // but a save meanwhile (on another page or device) may have kept or cleared them.
    document.querySelectorAll("form[data-keep]").forEach(function (form) {
      var st = state(form);
      st.leaving = false;
      if (!st.pending && !st.inFlight) {
        clearStatus(form);
        setBusy(form, false);
      }
      if (!read(entryName(form)) && !st.pending) {
        st.dirty = false;
      }
    });
  });

  // After the page's other deferred scripts (sheet.js listens for "keep:hidden").
  if (document.readyState === "complete") {
    startAll();
  } else {
    document.addEventListener("DOMContentLoaded", startAll);
  }
})();
