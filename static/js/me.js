// "This is me" (templates/public/_nav.html, docs/live-updates.md): a player says once who
// they are, on this phone, with a "This is me" button (Find my seat's answers, their
// player page). It is kept in localStorage for this tournament only, no account. From
// then every page of the tournament opens with their card (the server's
// /t/<slug>/players/<pk>/card/, public.views.pages.player_card), their rows are marked
// (class "me"), and the card is asked for again every few seconds with its ETag, as
// live.js does for pages: the server answers 304 until something public changes.
//
// The nudge: the card's data-state names what it shows ("seated-3", "released-3"). When
// it changes to a new seating or a new release, the page says so at once (role="alert")
// and, if the player allowed notifications, the phone shows one and vibrates. The state
// last nudged is kept per tournament, so two open tabs nudge once.
(function () {
  "use strict";
  var root = document.getElementById("my-card");
  document.documentElement.classList.add("has-me");
  if (!root) return;
  var slug = root.dataset.slug;
  var every = (parseFloat(root.dataset.every) || 4) * 1000;
  var meKey = "lld:me:" + slug;
  var seenKey = "lld:me-seen:" + slug;
  var cardKey = "lld:me-card:" + slug;
  var etag = "";
  var timer = null;

  function read(key) {
    try { return JSON.parse(localStorage.getItem(key)); } catch (e) { return null; }
  }
  function write(key, value) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* private browsing: the choice lasts this page only */ }
  }
  function cardUrl(pk) { return root.dataset.cardUrl.replace("/0/card/", "/" + pk + "/card/"); }

  function mark(pk) {
    document.querySelectorAll(".me").forEach(function (el) { el.classList.remove("me"); });
    document.querySelectorAll("[data-this-is-me]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(pk !== null && button.dataset.player === String(pk)));
    });
    if (pk === null) return;
    document.querySelectorAll('a[href$="/players/' + pk + '/"]').forEach(function (link) {
      if (root.contains(link)) return;
      var row = link.closest("tr, li");
      (row || link).classList.add("me");
    });
  }

  function notifyButton(section) {
    var button = section.querySelector("[data-notify]");
    if (!button) return;
    var can = "Notification" in window && Notification.permission === "default";
    button.hidden = !can;
    button.addEventListener("click", function () {
      Notification.requestPermission().then(function () { button.hidden = true; });
    });
  }

  function show(html) {
    root.innerHTML = html;
    var section = root.querySelector(".my-card");
    if (!section) return null;
    section.querySelector("[data-not-me]").addEventListener("click", forget);
    notifyButton(section);
    root.hidden = false;
    return section;
  }

  function notify(text) {
    var title = document.title.split(" · ").pop();
    var options = { body: text, tag: "lld-" + slug, vibrate: [200, 100, 200] };
    if (!("Notification" in window) || Notification.permission !== "granted") {
      if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
      return;
    }
    // A phone's browser shows notifications through the service worker when it has one.
    var viaWorker = navigator.serviceWorker && navigator.serviceWorker.controller
      ? navigator.serviceWorker.getRegistration().then(function (registration) {
          if (!registration) throw new Error("no service worker");
          return registration.showNotification(title, options);
        })
      : Promise.reject(new Error("no service worker"));
    viaWorker.catch(function () {
      try { new Notification(title, options); } catch (e) { /* not allowed here */ }
    });
  }

  function nudge(section) {
    var state = section.dataset.state;
    var seen = read(seenKey);
    if (seen === state) return;
    write(seenKey, state);
    // The first card after choosing is not news; "out" and "waiting" never are.
    if (seen === null || !/^(seated|bye|released|final)-/.test(state)) return;
    var text = section.dataset.nudge;
    if (!text) return;
    var banner = document.createElement("p");
    banner.className = "my-nudge";
    banner.setAttribute("role", "alert");
    banner.textContent = text;
    root.insertBefore(banner, root.firstChild);
    notify(text);
  }

  function refresh() {
    var me = read(meKey);
    if (!me) return;
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(cardUrl(me.pk), { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 404) { forget(); return; }
        if (response.status !== 200) return;
        etag = response.headers.get("ETag") || "";
        return response.text().then(function (html) {
          write(cardKey, html);
          var section = show(html);
          if (section) { mark(me.pk); nudge(section); }
        });
      })
      .catch(function () { /* the wifi dropped a request: the next one retries */ })
      .then(schedule);
  }

  function schedule() {
    clearTimeout(timer);
    if (!read(meKey)) return;
    // A hidden tab still asks, less often, so that a seating reaches a phone in a pocket.
    timer = setTimeout(refresh, document.hidden ? every * 4 : every);
  }

  function choose(pk, name) {
    write(meKey, { pk: pk, name: name });
    write(seenKey, null);
    write(cardKey, null);
    etag = "";
    mark(pk);
    clearTimeout(timer);
    refresh();
    root.scrollIntoView({ block: "nearest" });
  }

  function forget() {
    write(meKey, null);
    write(seenKey, null);
    write(cardKey, null);
    clearTimeout(timer);
    root.innerHTML = "";
    root.hidden = true;
    mark(null);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-this-is-me]");
    if (!button) return;
    choose(Number(button.dataset.player), button.dataset.name);
  });
  // Rows that live.js or htmx swap in are marked again.
  document.addEventListener("live:swapped", function () { var me = read(meKey); if (me) mark(me.pk); });
  document.addEventListener("htmx:afterSwap", function () { var me = read(meKey); mark(me ? me.pk : null); });

  // A tab brought back to the front asks at once.
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && read(meKey)) { clearTimeout(timer); refresh(); }
  });

  var me = read(meKey);
  if (me) {
    var kept = read(cardKey);
    if (kept) show(kept);
    mark(me.pk);
    refresh();
  }
})();
