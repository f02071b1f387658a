// "This is me" (templates/public/_nav.html, docs/live-updates.md): a player says once who
// they are, on this phone, with a "This is me" button (Find my seat's answers, their
// player page). It is kept in localStorage for this tournament only, no account. From
// then every page of the tournament opens with their card (the server's
// /t/<slug>/players/<pk>/card/, public.views.pages.player_card) and their rows are
// marked (class "me"). The card rides on the page's one poll (live.js): when the
// tournament's generation changes, the card is fetched again. A page with no live
// region has no poll of its own, and there the card is that page's one poll: asked for
// every few seconds with its ETag, answered 304 until something public changes.
//
// The nudge: the card's data-state names what it shows ("seated-3-t4s2": round 3, table
// 4, seat 2; "released-3", "final-4"). When it shows something not seen before (a new
// seating, a seat moved, a release), the page says so at once (role="alert") and, if the
// player allowed notifications, the phone shows one and vibrates. The states already
// seen are kept per tournament, so two open tabs nudge once and a round withheld and
// released again says nothing twice.
//
// The card's slot (#my-card, in the navigation) may be swapped for a fresh one by
// live.js: it is looked up each time, and filled again from the kept card at a swap.
import { keepAwake, onChange, polling } from "./live.js";

document.documentElement.classList.add("has-me");
const first = document.getElementById("my-card");
if (first) start(first);

function start(first) {
  var slug = first.dataset.slug;
  var every = (parseFloat(first.dataset.every) || 4) * 1000;
  var urlPattern = first.dataset.cardUrl;
  var meKey = "lld:me:" + slug;
  var seenKey = "lld:me-seen:" + slug;
  var cardKey = "lld:me-card:" + slug;
  var etag = "";
  var timer = null;
  // Where localStorage is refused (private browsing), the choice lasts this page only.
  var memory = {};

  function slot() { return document.getElementById("my-card"); }
  function read(key) {
    try {
      var kept = localStorage.getItem(key);
      if (kept !== null) return JSON.parse(kept);
    } catch (e) { /* refused: what this page remembers */ }
    return key in memory ? memory[key] : null;
  }
  function write(key, value) {
    if (value === null) delete memory[key];
    else memory[key] = value;
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* refused: kept in memory above */ }
  }
  function cardUrl(pk) { return urlPattern.replace("/0/card/", "/" + pk + "/card/"); }

  function mark(pk) {
    var root = slot();
    document.querySelectorAll(".me").forEach(function (el) { el.classList.remove("me"); });
    document.querySelectorAll("[data-this-is-me]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(pk !== null && button.dataset.player === String(pk)));
    });
    // The player's page says where they sit now; with their card on screen, the card says it.
    var carded = pk !== null && root !== null && root.querySelector(".my-card") !== null;
    document.querySelectorAll("[data-now-of]").forEach(function (line) {
      line.hidden = carded && line.dataset.nowOf === String(pk);
    });
    if (pk === null) return;
    // The player's own rows only: a link to their page, not one that merely ends in
    // its address (the header's "Log in" with ?next=) nor one in the site's header.
    var links = document.querySelectorAll('a[href*="/players/' + pk + '/"]');
    links.forEach(function (link) {
      if (root && root.contains(link)) return;
      if (link.search || !/\/players\/\d+\/$/.test(link.pathname)) return;
      if (link.closest("header, nav[aria-label='Site']")) return;
      var row = link.closest("tr, li");
      (row || link).classList.add("me");
    });
    // Rows that name the player without a link to their page (the printable results).
    document.querySelectorAll('[data-player="' + pk + '"]:not([data-this-is-me])').forEach(function (row) {
      if (!row.closest("#my-card")) row.classList.add("me");
    });
  }

  function notifyButton(section) {
    var button = section.querySelector("[data-notify]");
    if (!button) return;
    var can = "Notification" in window && Notification.permission === "default";
    button.hidden = !can;
    button.addEventListener("click", function () {
      // Older Safari takes a callback and returns nothing.
      var asked = Notification.requestPermission(function () { button.hidden = true; });
      if (asked && asked.then) asked.then(function () { button.hidden = true; });
    });
  }

  // A kept card's clock counts from the server's time when it was kept, moved on by
  // the time since: clock.js works out the screen's offset from data-now.
  function aged(html, keptAt) {
    if (!keptAt) return html;
    return html.replace(/ data-now="([^"]*)"/g, function (all, now) {
      var then = Date.parse(now);
      if (isNaN(then)) return all;
      return ' data-now="' + new Date(then + (Date.now() - keptAt)).toISOString() + '"';
    });
  }

  // The card goes in a box of its own in the slot, so that a nudge's line above it stays
  // when the card is shown again (the podium chances, stored just after a release, change
  // the card a second time within seconds).
  function show(html) {
    var root = slot();
    if (!root) return null;
    var body = root.querySelector(".my-card-body");
    if (!body) {
      body = document.createElement("div");
      body.className = "my-card-body";
      root.appendChild(body);
    }
    // A card fetched again (the generation moved) stays as the player left it: "Who I
    // play, my rank" open if they had opened it.
    var opened = body.querySelector("details.my-card-more[open]") !== null;
    body.innerHTML = html;
    var more = body.querySelector("details.my-card-more");
    if (opened && more) more.open = true;
    var section = body.querySelector(".my-card");
    if (!section) return null;
    section.querySelector("[data-not-me]").addEventListener("click", forget);
    notifyButton(section);
    root.hidden = false;
    return section;
  }

  function showKept() {
    var kept = read(cardKey);
    if (kept && kept.html) return show(aged(kept.html, kept.at));
    return null;
  }

  function notify(text) {
    var title = document.title.split(" · ").pop();
    // One notification a tournament on the phone's list, each new one sounding again.
    var options = { body: text, tag: "lld-" + slug, renotify: true, vibrate: [200, 100, 200] };
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
    if (seen !== null && !Array.isArray(seen)) seen = [];
    var news = seen !== null && seen.indexOf(state) === -1;
    if (seen === null || news) write(seenKey, (seen || []).concat([state]).slice(-30));
    // The first card after choosing is not news; "out" and "waiting" never are.
    if (!news || !/^(seated|bye|released|final)-/.test(state)) return;
    var text = section.dataset.nudge;
    if (!text) return;
    // Said aloud (role="alert") and shown on the card itself, marked new: the card
    // already says it in its own words, so the page does not say it twice.
    var root = slot();
    root.querySelectorAll(".my-nudge").forEach(function (old) { old.remove(); });
    var banner = document.createElement("p");
    banner.className = "my-nudge visually-hidden";
    banner.setAttribute("role", "alert");
    banner.textContent = text;
    root.insertBefore(banner, root.firstChild);
    section.classList.add("is-news");
    notify(text);
  }

  function stillChosen(asked) {
    var now = read(meKey);
    return Boolean(now) && now.pk === asked.pk;
  }

  function refresh() {
    var me = read(meKey);
    if (!me) return;
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(cardUrl(me.pk), { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        // "Not me" (or another "This is me") while this was on its way: its answer is
        // for a choice no longer made, and shows nothing.
        if (!stillChosen(me)) return;
        // Not found (the tournament unpublished a moment, the player removed): the
        // card goes, the choice stays until "Not me" or another "This is me".
        if (response.status === 404) { hide(); return; }
        if (response.status !== 200) return;
        etag = response.headers.get("ETag") || "";
        return response.text().then(function (html) {
          if (!stillChosen(me)) return;
          write(cardKey, { html: html, at: Date.now() });
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
    // The page polls, and says when the generation has changed (onChange below).
    if (polling) {
      keepAwake();
      return;
    }
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
    slot().scrollIntoView({ block: "nearest" });
  }

  function hide() {
    var root = slot();
    if (!root) return;
    root.innerHTML = "";
    root.hidden = true;
  }

  function forget() {
    keepAwake(false);
    write(meKey, null);
    write(seenKey, null);
    write(cardKey, null);
    clearTimeout(timer);
    hide();
    mark(null);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-this-is-me]");
    if (!button) return;
    choose(Number(button.dataset.player), button.dataset.name);
  });
  // A region live.js swaps in brings an empty slot and unmarked rows: filled and marked
  // again from what the phone keeps.
  document.addEventListener("live:swapped", function () {
    var me = read(meKey);
    if (!me) return;
    var root = slot();
    if (root && !root.querySelector(".my-card")) showKept();
    mark(me.pk);
  });
  document.addEventListener("htmx:afterSwap", function () { var me = read(meKey); mark(me ? me.pk : null); });

  // A tab brought back to the front asks at once (the page's poll, where it has one).
  document.addEventListener("visibilitychange", function () {
    if (!polling && !document.hidden && read(meKey)) { clearTimeout(timer); refresh(); }
  });
  // The generation changed: the card may say something new.
  onChange(function () {
    if (read(meKey)) refresh();
  });

  var me = read(meKey);
  if (me) {
    showKept();
    mark(me.pk);
    refresh();
  }
}
