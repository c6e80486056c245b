{% autoescape off %}/* scorekeeper service worker (rendered by scorekeeper.web.rules.service_worker).
 *
 * After one visit the app shell and the rules of every game are stored on the device:
 *  - rules pages: from the network when it answers quickly, else the stored copy;
 *  - the rules panel of the score sheet and the search index: stored copy first,
 *    refreshed in the background;
 *  - static files: stored copy first;
 *  - rules search: from the network, or computed here from the stored index;
 *  - a score sheet: from the network when it answers quickly, else the copy stored
 *    when it was last open (the page asks for it to be kept: "keep-page"), so a reload
 *    offline still shows the sheet and the hands waiting on the phone;
 *  - any other page: from the network, or the offline page.
 * A new version (any change to the rules, the static files or this file) replaces the
 * stored copies when it activates.
 */
"use strict";

var VERSION = "{{ version }}";
var CACHE = "scorekeeper-" + VERSION;
var PRECACHE = {{ precache_json }};
var OFFLINE_URL = {{ offline_url_json }};
var SEARCH_URL = {{ search_url_json }};
var INDEX_URL = {{ index_url_json }};
var RULES_PREFIX = {{ rules_prefix_json }};
var STATIC_PREFIX = {{ static_prefix_json }};
var NETWORK_TIMEOUT_MS = 4000;
{% url 'game_sheet' 0 as sheet_of_game_0 %}/* A score sheet's path: game 0's, with any game's number in its place. */
var SHEET_PATH = new RegExp("^" + "{{ sheet_of_game_0|escapejs }}"
  .replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("/0/", "/\\d+/") + "$");
var SHEETS_KEPT = 12;
var LOGOUT_URL = {{ logout_url_json }};

/* The scripts' words in this phone's language first: the offline search's results use them. */
importScripts({{ catalog_script_json }}, {{ minisearch_script_json }}, {{ search_script_json }});

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) {
      return cache.addAll(PRECACHE.map(function (url) {
        return new Request(url, { cache: "reload", credentials: "same-origin" });
      }));
    }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return key.indexOf("scorekeeper-") === 0 && key !== CACHE;
      }).map(function (key) { return caches.delete(key); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function isRulesPage(url) {
  return url.pathname.indexOf(RULES_PREFIX) === 0 || url.pathname === OFFLINE_URL;
}

function store(request, response) {
  if (!response || !response.ok || response.redirected || response.type !== "basic") return;
  var copy = response.clone();
  caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
}

function fromCache(request, ignoreSearch) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request, { ignoreSearch: !!ignoreSearch, ignoreVary: true });
  });
}

function cacheFirst(request) {
  return fromCache(request).then(function (cached) {
    if (cached) return cached;
    return fetch(request).then(function (response) {
      store(request, response);
      return response;
    });
  });
}

function staleWhileRevalidate(event, request) {
  return fromCache(request).then(function (cached) {
    var network = fetch(request).then(function (response) {
      store(request, response);
      return response;
    });
    if (cached) {
      event.waitUntil(network.catch(function () { return null; }));
      return cached;
    }
    return network;
  });
}

function offlinePage() {
  return fromCache(OFFLINE_URL).then(function (page) {
    return page || new Response("You are offline.", {
      status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" }
    });
  });
}

/* Network first, but do not keep a player waiting on a bad connection: after a few
 * seconds the stored copy is shown (the network still refreshes it). */
function rulesPage(event, request) {
  var network = fetch(request).then(function (response) {
    store(request, response);
    return response;
  });
  event.waitUntil(network.catch(function () { return null; }));
  var timeout = new Promise(function (resolve) {
    setTimeout(resolve, NETWORK_TIMEOUT_MS, null);
  });
  return Promise.race([network.catch(function () { return null; }), timeout])
    .then(function (response) {
      if (response) return response;
      return fromCache(request, true).then(function (cached) {
        if (cached) return cached;
        return network.catch(function () { return offlinePage(); });
      });
    });
}

function isSheet(url) {
  return SHEET_PATH.test(url.pathname);
}

/* Keep a score sheet as a plain page request (no htmx headers), and only the most
 * recently kept few. */
function keepSheet(url, answered) {
  var request = new Request(url, { credentials: "same-origin", cache: "no-store" });
  return (answered ? Promise.resolve(answered) : fetch(request)).then(function (response) {
    if (!response.ok || response.redirected || response.type !== "basic") return;
    // The whole page first: the stored copy is replaced only by one that arrived whole.
    return response.arrayBuffer().then(function (body) {
      return caches.open(CACHE).then(function (cache) {
        return cache.put(url, new Response(body, {
          status: response.status, statusText: response.statusText, headers: response.headers
        })).then(function () { return cache; });
      });
    }).then(function (cache) {
      return cache.keys().then(function (keys) {
        var sheets = keys.filter(function (k) { return isSheet(new URL(k.url)); });
        return Promise.all(sheets.slice(0, Math.max(0, sheets.length - SHEETS_KEPT)).map(function (k) {
          return cache.delete(k);
        }));
      });
    });
  }).catch(function () { return null; });
}

function forgetSheets() {
  return caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return isSheet(new URL(k.url)); }).map(function (k) {
        return cache.delete(k);
      }));
    });
  });
}

function sheetPage(event, request) {
  var network = fetch(request).then(function (response) {
    event.waitUntil(keepSheet(request.url, response.clone()));
    return response;
  });
  var timeout = new Promise(function (resolve) {
    setTimeout(resolve, NETWORK_TIMEOUT_MS, null);
  });
  event.waitUntil(network.catch(function () { return null; }));
  return Promise.race([network.catch(function () { return null; }), timeout])
    .then(function (response) {
      if (response) return response;
      return fromCache(request, true).then(function (cached) {
        if (cached) return cached;
        return network.catch(function () { return offlinePage(); });
      });
    });
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "keep-page" || typeof data.url !== "string") return;
  var url = new URL(data.url, self.location.origin);
  if (url.origin !== self.location.origin || !isSheet(url)) return;
  var assets = (Array.isArray(data.assets) ? data.assets : []).filter(function (asset) {
    var a = new URL(asset, self.location.origin);
    return a.origin === self.location.origin && a.pathname.indexOf(STATIC_PREFIX) === 0;
  });
  event.waitUntil(Promise.all([keepSheet(url.href)].concat(assets.map(function (asset) {
    return fromCache(asset).then(function (cached) {
      if (cached) return null;
      return fetch(asset).then(function (response) { store(new Request(asset), response); });
    }).catch(function () { return null; });
  }))));
});

function otherPage(request) {
  return fetch(request).catch(function () { return offlinePage(); });
}

var engine = null;
function searchEngine() {
  if (engine) return Promise.resolve(engine);
  return fromCache(INDEX_URL).then(function (cached) {
    return cached || fetch(INDEX_URL);
  }).then(function (response) {
    return response.json();
  }).then(function (index) {
    engine = self.RulesSearch.createEngine(index);
    return engine;
  });
}

function escapeAttr(text) {
  return self.RulesSearch.escapeHtml(text);
}

/* /rules/search/ without a network: the results partial for htmx, or the stored search
 * page with the results put in. */
function offlineSearch(request) {
  var url = new URL(request.url);
  var q = (url.searchParams.get("q") || "").trim().slice(0, 200);
  var ruleset = url.searchParams.get("ruleset") || "";
  var panel = url.searchParams.get("panel") === "1";
  return searchEngine().then(function (found) {
    if (!found.rulesets[ruleset]) ruleset = "";
    var results = self.RulesSearch.renderResults(found, {
      q: q, ruleset: ruleset, panel: panel, searchUrl: SEARCH_URL, offline: true
    });
    var htmx = request.headers.get("HX-Request") === "true" &&
      request.headers.get("HX-History-Restore-Request") !== "true";
    if (htmx) {
      return new Response(results, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    }
    return fromCache(SEARCH_URL).then(function (shell) {
      if (!shell) return offlinePage();
      return shell.text().then(function (page) {
        page = page.replace(/<!--rules-results-->[\s\S]*?<!--\/rules-results-->/, results);
        page = page.replace('name="q" value=""', 'name="q" value="' + escapeAttr(q) + '"');
        if (ruleset) {
          page = page.replace('<option value="' + ruleset + '">',
            '<option value="' + ruleset + '" selected>');
        }
        return new Response(page, { headers: { "Content-Type": "text/html; charset=utf-8" } });
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === LOGOUT_URL) {
    // Signing out: the score sheets kept on this device go too.
    event.waitUntil(forgetSheets());
    return;
  }
  if (request.method !== "GET") return;

  if (url.pathname === SEARCH_URL) {
    event.respondWith(fetch(request).catch(function () { return offlineSearch(request); }));
    return;
  }
  if (url.pathname === INDEX_URL || (isRulesPage(url) && /\/panel\/$/.test(url.pathname))) {
    event.respondWith(staleWhileRevalidate(event, request));
    return;
  }
  if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(cacheFirst(request));
    return;
  }
  if (request.mode === "navigate") {
    if (isSheet(url)) event.respondWith(sheetPage(event, request));
    else event.respondWith(isRulesPage(url) ? rulesPage(event, request) : otherPage(request));
  }
});
{% endautoescape %}
