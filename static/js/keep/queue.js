// A save on its way, sent by htmx, kept until the server answers it.
//
// Submitting a kept form (keep.js calls enqueue) makes a submission: the form's fields,
// the pressed button's name and value, and a "key" field, a random idempotency key made
// once per submission. It is kept in localStorage ("lld-keep-sending:", storage.js) until
// it is answered, so that a retry, even after a reload, sends the same key, and the
// server records it once. htmx sends it (htmx.ajax: HX-Request, HX-Redirect, the swap)
// and says how it went, in events this file listens to:
//
// - htmx:beforeRequest: the form is busy (its buttons disabled, its cells read-only);
// - htmx:sendError: no answer (no network): "Waiting for the network…", and the same
//   submission again, at once when the browser is back online and after 2, 4, 8, 16,
//   30, 30… seconds, with the header "Keep-Resent: 1" so that the page it leads to says
//   it went through once the network came back (tournament/kernel/http.py resent);
// - htmx:beforeOnLoad: HX-Redirect (tournament/kernel/http.py saved_redirect) means
//   saved: the kept cells and the submission are forgotten before htmx goes there;
// - htmx:beforeSwap: any other answer is a page (422 invalid, 409 conflict, a refusal
//   the browser was redirected to, an error): nothing was saved, and the page replaces
//   this one's body as the browser would have shown it (its title, its style sheets and
//   scripts, its address when it was redirected elsewhere). keep.js keeps its form's
//   cells against the version that was submitted;
// - htmx:afterRequest: the submission is answered and forgotten.
//
// The submission is sent from the page's body, not from its form: the sheet's form is
// also the source of the live check, whose requests replace each other in one queue
// (hx-sync "this:queue last") and would drop a save queued behind them.

import { newKey, read, remove, sendingName, write } from "./storage.js";
import { clearStatus, setBusy, showWaiting } from "./banner.js";

const BACKOFF_SECONDS = [2, 4, 8, 16, 30];
const VERSION_FIELD = "expected_version";

const queues = new Map();
let hooks = { fieldsOf: () => [], saved: () => {}, answered: () => {} };

// keep.js says which fields a form keeps, and what to do once it is saved or answered.
export function configure(given) {
  hooks = given;
}

function queueOf(form) {
  let found = queues.get(form);
  if (!found) {
    found = { pending: null, attempt: 0, timer: null, inFlight: false, resending: false, leaving: false };
    queues.set(form, found);
  }
  return found;
}

function recordName(form) {
  return sendingName(form.dataset.keepTable || form.dataset.keep);
}

export function kept(form) {
  return read(recordName(form));
}

export function pendingOf(form) {
  const queue = queues.get(form);
  return queue ? queue.pending : null;
}

export function busy(form) {
  const queue = queues.get(form);
  return Boolean(queue && (queue.pending || queue.inFlight));
}

// Forms on screen with a submission on its way, or typed and left by a save (for
// beforeunload).
export function leaving(form) {
  const queue = queues.get(form);
  return Boolean(queue && queue.leaving);
}

export function forget(form) {
  const queue = queueOf(form);
  remove(recordName(form));
  queue.pending = null;
}

function formOf(detail) {
  const config = detail.requestConfig || detail;
  const key = config.formData && config.formData.get("key");
  if (!key) return null;
  for (const [form, queue] of queues) {
    if (queue.pending && keyOf(queue.pending) === key) return form;
  }
  return null;
}

function keyOf(pending) {
  const found = pending.fields.find((pair) => pair[0] === "key");
  return found ? found[1] : null;
}

// A page's fields as htmx's values: {name: [values]}, in the order they were sent.
function values(fields) {
  const found = {};
  fields.forEach(([name, value]) => {
    (found[name] = found[name] || []).push(value);
  });
  return found;
}

function stopWaiting(form) {
  const queue = queueOf(form);
  window.clearTimeout(queue.timer);
  remove(recordName(form));
  queue.pending = null;
  queue.attempt = 0;
  clearStatus(form);
  setBusy(form, false, hooks.fieldsOf(form));
}

function waitForNetwork(form) {
  const queue = queueOf(form);
  queue.inFlight = false;
  queue.resending = true;
  showWaiting(form, () => stopWaiting(form));
  window.clearTimeout(queue.timer);
  const seconds = BACKOFF_SECONDS[Math.min(queue.attempt, BACKOFF_SECONDS.length - 1)];
  queue.attempt += 1;
  queue.timer = window.setTimeout(() => send(form), seconds * 1000);
}

function send(form) {
  const queue = queueOf(form);
  if (!queue.pending || queue.inFlight || !form.isConnected) return;
  window.clearTimeout(queue.timer);
  setBusy(form, true, hooks.fieldsOf(form));
  if (navigator.onLine === false) {
    waitForNetwork(form);
    return;
  }
  queue.inFlight = true;
  window.htmx.ajax("POST", queue.pending.url, {
    source: document.body,
    target: "body",
    swap: "innerHTML show:top",
    values: values(queue.pending.fields),
    headers: queue.resending ? { "Keep-Resent": "1" } : {},
  }).catch(() => {
    // No answer: htmx:sendError has said so, and the submission waits.
  });
}

export function enqueue(form, submitter) {
  const queue = queueOf(form);
  if (queue.pending || queue.inFlight) return; // no double submits
  const data = new FormData(form);
  if (submitter && submitter.name) data.append(submitter.name, submitter.value);
  const fields = [];
  data.forEach((value, name) => {
    if (typeof value === "string") fields.push([name, value]);
  });
  fields.push(["key", newKey()]);
  queue.pending = {
    at: Date.now(),
    // A button with a formaction of its own (the sheet's Save buttons, "Record" a player
    // who left) posts there; otherwise the form's action, or this page's address.
    url:
      submitter && submitter.hasAttribute("formaction")
        ? submitter.formAction
        : new URL(form.getAttribute("action") || "", document.baseURI).href,
    form: form.dataset.keep,
    fields,
  };
  queue.attempt = 0;
  queue.resending = false;
  write(recordName(form), queue.pending);
  send(form);
}

function withFreshToken(form, fields) {
  const token = form.querySelector("input[name=csrfmiddlewaretoken]");
  return fields.map((pair) => (token && pair[0] === "csrfmiddlewaretoken" ? [pair[0], token.value] : pair));
}

// A submission found kept when the page is opened again: sent at once, marked resent.
export function resume(form, pending) {
  const queue = queueOf(form);
  pending.fields = withFreshToken(form, pending.fields);
  queue.pending = pending;
  queue.attempt = 0;
  queue.resending = true;
  setBusy(form, true, hooks.fieldsOf(form));
  showWaiting(form, () => stopWaiting(form));
  send(form);
}

// The version the submitted cells were typed into.
function sentVersion(pending) {
  const found = pending.fields.find((pair) => pair[0] === VERSION_FIELD);
  return found ? parseInt(found[1], 10) : null;
}

// The answer's <head> brings what this page's lacks: a refusal the browser was sent on
// to may be another kind of page, with its own style sheets and scripts.
function adoptHead(html) {
  const head = new DOMParser().parseFromString(html, "text/html").head;
  if (!head) return;
  head.querySelectorAll("link[rel=stylesheet][href]").forEach((link) => {
    if (!document.head.querySelector('link[rel=stylesheet][href="' + link.getAttribute("href") + '"]')) {
      document.head.appendChild(document.importNode(link, true));
    }
  });
  head.querySelectorAll("script[src]").forEach((old) => {
    if (document.head.querySelector('script[src="' + old.getAttribute("src") + '"]')) return;
    // A script made here runs; one parsed from text would not.
    const script = document.createElement("script");
    Array.from(old.attributes).forEach((attribute) => script.setAttribute(attribute.name, attribute.value));
    document.head.appendChild(script);
  });
}

function bodyClass(html) {
  const found = /<body\b[^>]*\bclass="([^"]*)"/i.exec(html);
  return found ? found[1] : "";
}

function sameAddress(a, b) {
  return new URL(a, document.baseURI).href.split("#")[0] === new URL(b, document.baseURI).href.split("#")[0];
}

document.addEventListener("htmx:beforeRequest", (event) => {
  const form = formOf(event.detail);
  if (form) setBusy(form, true, hooks.fieldsOf(form));
});

document.addEventListener("htmx:sendError", (event) => {
  const form = formOf(event.detail);
  if (form) waitForNetwork(form);
});

document.addEventListener("htmx:beforeOnLoad", (event) => {
  const form = formOf(event.detail);
  if (!form || !event.detail.xhr.getResponseHeader("HX-Redirect")) return;
  // Saved: htmx goes to the page the server named.
  queueOf(form).leaving = true;
  hooks.saved(form);
  forget(form);
});

document.addEventListener("htmx:beforeSwap", (event) => {
  const detail = event.detail;
  const form = formOf(detail);
  if (!form) return;
  const queue = queueOf(form);
  const xhr = detail.xhr;
  // Whatever the page says (an error page too), it is shown as the browser would.
  detail.shouldSwap = xhr.status !== 204 && xhr.status !== 304;
  detail.isError = false;
  if (!detail.shouldSwap) return;
  queue.leaving = true;
  // Answered: the page swapped in must not find it still on its way.
  remove(recordName(form));
  const html = String(detail.serverResponse);
  adoptHead(html);
  const redirected = xhr.responseURL && !sameAddress(xhr.responseURL, queue.pending.url);
  if (redirected) {
    // Sent on to another page (a refusal, the login page): shown at its own address, and
    // it finds the kept cells itself as any page load does.
    window.history.replaceState(null, "", xhr.responseURL);
  } else {
    hooks.answered(form, sentVersion(queue.pending));
  }
  document.addEventListener(
    "htmx:afterSwap",
    () => {
      document.body.className = bodyClass(html);
    },
    { once: true }
  );
});

document.addEventListener("htmx:afterRequest", (event) => {
  const form = formOf(event.detail);
  const xhr = event.detail.xhr;
  if (!form || !xhr || xhr.status === 0) return; // unanswered: htmx:sendError waits
  const queue = queueOf(form);
  queue.inFlight = false;
  window.clearTimeout(queue.timer);
  forget(form);
  if (form.isConnected && !queue.leaving) {
    clearStatus(form);
    setBusy(form, false, hooks.fieldsOf(form));
  }
  if (!form.isConnected) queues.delete(form);
});

window.addEventListener("online", () => {
  queues.forEach((queue, form) => {
    if (queue.pending && !queue.inFlight) {
      queue.attempt = 0;
      send(form);
    }
  });
});

// Back from another page with this one kept whole (the back/forward cache).
export function shownAgain(form) {
  const queue = queueOf(form);
  queue.leaving = false;
  if (!queue.pending && !queue.inFlight) {
    clearStatus(form);
    setBusy(form, false, hooks.fieldsOf(form));
  }
}
