// The players' offline copy of the public pages (docs/live-updates.md, "Offline and
// installing the app"). Served at /sw.js by tournament/public/pwa.py, which writes the
// site's static address and the offline page's address in; registered for the whole
// site, /, by sw-register.js, so that the installed app's start page is inside it.
//
// What is kept, on the phone only:
// - the home page and a tournament's public pages, GETs of / and under /t/<slug>/
//   (standings, rounds, players, the final results, Find my seat, and their fragments):
//   network first, so a live page is always fresh while there is a network; the last
//   copy when the network fails, marked "Offline — as of 21:14" (the time that copy was
//   fetched);
// - our offline page (/offline/, fetched without cookies when the worker installs), shown
//   for a page opened offline that has no copy on the phone;
// - the static files those pages use: cache first, refreshed behind the scenes; the
//   pages' JavaScript modules (MODULES: every module a page loads and all they import,
//   written in by pwa.py with their hashed addresses) are kept when the worker installs,
//   so that a page opened offline runs its scripts even if no page fetched them before.
// Nothing else is ever kept: no POST, no organiser's, scorer's, door or table page, no
// account page, no response marked private or no-store (every page a logged-in user
// sees: PrivateWhenLoggedInMiddleware), none that was redirected elsewhere (to logging
// in), none holding a password field. Those go to the network as if there were no worker
// (offline, a page opened gets our offline page instead of the browser's).
"use strict";

var VERSION = "3";
var PAGES = "lld-pages-v" + VERSION;
var STATIC = "lld-static-v" + VERSION;
var SHELL = "lld-shell-v" + VERSION;
var STATIC_PREFIX = "/static/";
var OFFLINE_PAGE = "/offline/";
var MODULES = [];
var PUBLIC_PAGE = /^\/(t\/[^/]+\/.*)?$/;
// When a kept copy was fetched (milliseconds since the epoch), in a header of the copy.
var FETCHED_AT = "X-Offline-Fetched-At";
// A phone follows a tournament or two: the oldest copies go past these.
var MAX_PAGES = 100;
var MAX_STATIC = 60;

function sameOrigin(url) {
  return url.origin === self.location.origin;
}

function isPublicPage(url) {
  return sameOrigin(url) && PUBLIC_PAGE.test(url.pathname);
}

function isStatic(url) {
  return sameOrigin(url) && url.pathname.indexOf(STATIC_PREFIX) === 0;
}

function isHtml(response) {
  return /^text\/html/i.test(response.headers.get("Content-Type") || "");
}

// The rule: only a whole, public, anonymous answer from a public page is kept.
function keepable(response) {
  if (response.status !== 200 || response.type !== "basic" || response.redirected) return false;
  if (!isPublicPage(new URL(response.url))) return false;
  return !/no-store|private/i.test(response.headers.get("Cache-Control") || "");
}

function twoDigits(n) {
  return (n < 10 ? "0" : "") + n;
}

// The copy to keep, with the time it was fetched; null for a page with a password field
// (a login form is never kept).
async function stamped(response) {
  var body = await response.arrayBuffer();
  if (isHtml(response) && /type=["']?password/i.test(new TextDecoder().decode(body))) {
    return null;
  }
  var headers = new Headers(response.headers);
  headers.set(FETCHED_AT, String(Date.now()));
  // The body is already decoded.
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers: headers });
}

// A kept page as served offline: a note at the top of its <main> saying it is the copy
// of HH:MM (the phone's time).
async function marked(copy) {
  var at = Number(copy.headers.get(FETCHED_AT));
  if (!isHtml(copy) || !at) return copy;
  var when = new Date(at);
  var note =
    '<p class="offline-note" role="status">Offline \u2014 as of ' +
    twoDigits(when.getHours()) + ":" + twoDigits(when.getMinutes()) + "</p>";
  var html = (await copy.text()).replace(/<main\b[^>]*>/i, function (tag) { return tag + note; });
  return new Response(html, { status: copy.status, statusText: copy.statusText, headers: copy.headers });
}

async function keep(name, request, response, most) {
  var cache = await caches.open(name);
  await cache.put(request, response);
  var keys = await cache.keys();
  for (var i = 0; i < keys.length - most; i++) await cache.delete(keys[i]);
}

async function networkFirst(event) {
  var request = event.request;
  try {
    var response = await fetch(request);
    // Search as you type (htmx asking with a query string) would crowd the pages out.
    var typing = request.headers.has("HX-Request") && new URL(request.url).search !== "";
    if (keepable(response) && !typing) {
      event.waitUntil(
        stamped(response.clone()).then(function (copy) {
          return copy && keep(PAGES, request, copy, MAX_PAGES);
        })
      );
    }
    return response;
  } catch (error) {
    // A live page's poll (If-None-Match, static/js/live.js) fails as it would without
    // the worker, and is tried again: the page on screen stays as it is.
    if (request.headers.has("If-None-Match")) throw error;
    var copy = await (await caches.open(PAGES)).match(request);
    if (copy) return marked(copy);
    if (request.mode === "navigate") return offlinePage(error);
    throw error;
  }
}

// Our page saying the phone is offline, for a page opened with no network and no copy.
async function offlinePage(error) {
  var page = await (await caches.open(SHELL)).match(OFFLINE_PAGE);
  if (!page) throw error;
  return page;
}

// Any other page opened (an organiser's, logging in): the network, as without a worker;
// offline, our offline page. Nothing of it is kept.
async function networkOnly(event) {
  try {
    return await fetch(event.request);
  } catch (error) {
    return offlinePage(error);
  }
}

// The offline page, fetched without cookies (never a logged-in user's header), and the
// style sheets it names.
async function keepOfflinePage() {
  var shell = await caches.open(SHELL);
  var response = await fetch(OFFLINE_PAGE, { credentials: "omit", cache: "no-store" });
  if (response.status !== 200) return;
  var html = await response.clone().text();
  await shell.put(OFFLINE_PAGE, response);
  var sheets = html.match(/href="[^"]+\.css"/g) || [];
  await Promise.all(sheets.map(async function (attribute) {
    var address = attribute.slice(6, -1);
    if (!isStatic(new URL(address, self.location.origin))) return;
    var sheet = await fetch(address, { credentials: "omit" });
    if (sheet.status === 200) await shell.put(address, sheet);
  }));
}

// The module graph, fetched without cookies into the shell (never trimmed).
async function keepModules() {
  var shell = await caches.open(SHELL);
  await Promise.all(MODULES.map(async function (address) {
    var response = await fetch(address, { credentials: "omit" });
    if (response.status === 200) await shell.put(address, response);
  }));
}

async function fromPublicPage(event) {
  if (!event.clientId) return false;
  var client = await self.clients.get(event.clientId);
  return Boolean(client) && isPublicPage(new URL(client.url));
}

async function cacheFirst(event) {
  var request = event.request;
  var copy =
    (await (await caches.open(STATIC)).match(request)) ||
    (await (await caches.open(SHELL)).match(request));
  var fresh = fetch(request).then(function (response) {
    if (response.status === 200 && response.type === "basic") {
      var clone = response.clone();
      event.waitUntil(
        fromPublicPage(event).then(function (used) {
          return used && keep(STATIC, request, clone, MAX_STATIC);
        })
      );
    }
    return response;
  });
  if (copy) {
    event.waitUntil(fresh.catch(function () { /* offline: the copy will do */ }));
    return copy;
  }
  return fresh;
}

self.addEventListener("install", function (event) {
  // Installed even when the offline page cannot be fetched now (it is fetched again at
  // the next version): the pages' copies matter more.
  event.waitUntil(Promise.all([
    keepOfflinePage().catch(function () {}),
    keepModules().catch(function () {}),
  ]));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(
        names
          .filter(function (name) { return name.indexOf("lld-") === 0 && [PAGES, STATIC, SHELL].indexOf(name) === -1; })
          .map(function (name) { return caches.delete(name); })
      );
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (isPublicPage(url)) event.respondWith(networkFirst(event));
  else if (isStatic(url)) event.respondWith(cacheFirst(event));
  else if (request.mode === "navigate" && sameOrigin(url)) event.respondWith(networkOnly(event));
  // Anything else is not answered here: the browser asks the network, as without a worker.
});
