// Prompt, cheap updates ({% live_updates "#region" %}, tournament/templatetags/live.py):
// every few seconds ask for this page again with the ETag it was served with. The server
// answers 304 Not Modified, a few hundred bytes, until something public changes; then
// the region is swapped for the new page's, without a reload. Nothing is swapped while
// someone types in it, and a hidden tab does not poll.
(function () {
  "use strict";
  var script = document.currentScript;
  var selector = script.dataset.live;
  var etag = script.dataset.etag || "";
  var every = (parseFloat(script.dataset.every) || 4) * 1000;
  // The server's time on a clock differs at every serving: it is not a change.
  function comparable(html) { return html.replace(/ data-now="[^"]*"/g, ""); }
  var shown = null;

  function typingIn(region) {
    var active = document.activeElement;
    return active && region.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName);
  }

  function swap(html, servedEtag) {
    var fresh = new DOMParser().parseFromString(html, "text/html").querySelector(selector);
    var current = document.querySelector(selector);
    if (!fresh || !current) return;
    if (shown === null) shown = comparable(current.outerHTML);
    var next = comparable(fresh.outerHTML);
    if (next === shown) { etag = servedEtag; return; }
    if (typingIn(current)) return; // ask again next time
    etag = servedEtag;
    shown = next;
    var adopted = document.importNode(fresh, true);
    current.replaceWith(adopted);
    if (window.htmx) window.htmx.process(adopted);
    document.dispatchEvent(new CustomEvent("live:swapped", { detail: { region: adopted } }));
  }

  function poll() {
    if (document.hidden) { setTimeout(poll, every); return; }
    var headers = {};
    if (etag) headers["If-None-Match"] = etag;
    fetch(location.href, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status !== 200) return null;
        var servedEtag = response.headers.get("ETag") || "";
        return response.text().then(function (html) { swap(html, servedEtag); });
      })
      .catch(function () { /* the pub's wifi dropped a request: the next poll retries */ })
      .then(function () { setTimeout(poll, every); });
  }
  setTimeout(poll, every);
})();
