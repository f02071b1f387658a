// The page's one poll ({% live_updates "#region" %}, tournament/templatetags/live.py;
// docs/live-updates.md). Every few seconds the page asks for its own address again with
// the ETag it was served with: the same request for every visitor of the page, answered
// 304 Not Modified, a few hundred bytes, until the tournament's generation moves
// (something public changed). Then the answer is the new page: the region is swapped for
// its new copy, without a reload, and whoever listens (me.js: the player's card) is told
// that the generation changed, so that it fetches what it shows again. Nothing is
// swapped while someone types in the region. A hidden tab does not ask, unless a player
// has said who they are on this phone (me.js keeps it awake, asking less often, so that
// a seating reaches a phone in a pocket).
//
// Imported by me.js on every page of a tournament: a page without a live region has no
// poll here, and me.js polls the card instead, as that page's one poll.

const config = document.getElementById("live-updates");
const selector = config ? config.dataset.region : null;
const every = ((config && parseFloat(config.dataset.every)) || 4) * 1000;
let etag = config ? config.dataset.etag || "" : "";
let shown = null;
let timer = null;
let awake = false;
const listeners = [];

// Whether this page polls; when it does, the card rides on its poll.
export const polling = Boolean(config && selector);

// Called when the generation has changed, after the region is swapped (or found the same).
export function onChange(listener) {
  listeners.push(listener);
}

// While a player's card is shown: ask in a hidden tab too, four times less often.
export function keepAwake(shown = true) {
  awake = shown;
}

// The server's time on a clock differs at every serving: it is not a change.
function comparable(html) {
  return html.replace(/ data-now="[^"]*"/g, "");
}

function typingIn(region) {
  const active = document.activeElement;
  return active && region.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName);
}

function swap(html, servedEtag) {
  const fresh = new DOMParser().parseFromString(html, "text/html").querySelector(selector);
  const current = document.querySelector(selector);
  if (!fresh || !current) return;
  if (shown === null) shown = comparable(current.outerHTML);
  const next = comparable(fresh.outerHTML);
  if (next === shown) {
    etag = servedEtag;
    return;
  }
  if (typingIn(current)) return; // ask again next time
  etag = servedEtag;
  shown = next;
  const adopted = document.importNode(fresh, true);
  current.replaceWith(adopted);
  if (window.htmx) window.htmx.process(adopted);
  document.dispatchEvent(new CustomEvent("live:swapped", { detail: { region: adopted } }));
}

function schedule(wait) {
  window.clearTimeout(timer);
  timer = window.setTimeout(poll, wait);
}

function poll() {
  if (document.hidden && !awake) {
    schedule(every);
    return;
  }
  const headers = etag ? { "If-None-Match": etag } : {};
  fetch(location.href, { headers, cache: "no-store", credentials: "same-origin" })
    .then((response) => {
      if (response.status !== 200) return null;
      const servedEtag = response.headers.get("ETag") || "";
      return response.text().then((html) => {
        swap(html, servedEtag);
        listeners.forEach((listener) => listener());
      });
    })
    .catch(() => {
      // The pub's wifi dropped a request: the next poll retries.
    })
    .then(() => schedule(document.hidden ? every * 4 : every));
}

if (polling) {
  schedule(every);
  // A tab brought back to the front asks at once.
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) schedule(0);
  });
}
