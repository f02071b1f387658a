// Registers the service worker that keeps the players' offline copy of the public pages
// (static/js/sw.js; docs/live-updates.md, "Offline and installing the app"). Browsers
// allow one only on HTTPS or localhost: on a laptop serving the pub's wifi over plain
// HTTP there is no worker, and the pages work as before, without an offline copy.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  var worker = script.dataset.worker;
  var scope = script.dataset.scope;
  window.addEventListener("load", function () {
    try {
      navigator.serviceWorker.register(worker, { scope: scope }).catch(function () { /* no offline copy */ });
    } catch (error) { /* no offline copy */ }
  });

  // A page shown from the offline copy: once the site answers again, the live page. (The
  // phone saying it is online does not mean the site is reachable: a HEAD, which the
  // worker leaves to the network, asks it first; any answer will do.)
  function offlineNote() { return document.querySelector(".offline-note"); }
  window.addEventListener("online", function () {
    if (!offlineNote()) return;
    fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function () { location.reload(); })
      .catch(function () { /* still unreachable: the next "online" tries again */ });
  });
  // A live page that has swapped in fresh content from the network is no longer the copy.
  document.addEventListener("live:swapped", function () {
    var note = offlineNote();
    if (note) note.remove();
  });
})();
