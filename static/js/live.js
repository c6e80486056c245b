/* scorekeeper — live updates of the sheet through the events server.
 *
 * The sheet's poller (#sheet-poller) carries the URL of its game's event stream
 * (data-events: a signed, expiring ticket) and the version it shows (data-version).
 * While the stream is open the every-2-s poll is held back; an event says which
 * version the game is at and from which hand its sheet changed ({"v": 8, "from": 7}),
 * and this file asks the usual live/ URL for just those rows (&from=7&to=8), merges
 * them into the grid, and lets htmx swap the rest (banner, scoreboard, panel…).
 * A gap in the versions (a missed event), an event without "from" or a stream that
 * cannot open: the whole sheet is asked for, or the poll simply goes on as before.
 * Like the poll, the stream stops when the game is over, the page hidden or offline
 * (offline-sheet.js's rules hold our requests too), and starts again on return.
 *
 * Not htmx's SSE extension (django-htmx ships it for htmx 2: {% htmx_script
 * extensions="hx-sse" %}), because what it does is not this protocol:
 *  - it binds a stream to an element (sse-connect): opened when the element is
 *    processed, closed when it is swapped out. The ticket is on #sheet-poller, swapped
 *    by every answer: each would close the stream and open another (and a "hello"
 *    with it). Nothing else closes it but a message from the server (sse-close): not
 *    the page going hidden or offline, nor the game ending; a refused ticket is tried
 *    again for ever (every 0.5 to 64 s) instead of polling until a new one comes; a
 *    stream that went silent without an error is not noticed;
 *  - an event either swaps its data in (sse-swap) or triggers an element's request
 *    (hx-trigger="sse:change"), always the same one. Each event here is JSON read
 *    against the version shown: nothing to ask when current, a random wait before
 *    asking when behind (hello), the rows from..to when the versions follow on, the
 *    whole sheet after a gap, one request at a time and none while this phone's own
 *    save is on its way. A trigger filter cannot say that (and htmx evaluates filters
 *    with Function(), which the page's Content Security Policy forbids).
 * What would be left of it is `new EventSource(url)` and its listeners: kept here.
 */

var source = null, sourceGame = "", failedUrl = "", streaming = false;
var pending = {}, busy = false, lastHeard = 0;
// The server sends a "ping" every 25 s: a stream silent for this long is dead.
var SILENT_MS = 70000;

function poller() { return document.getElementById("sheet-poller"); }

function shownVersion() {
  var p = poller();
  return p ? parseInt(p.dataset.version, 10) || 0 : 0;
}

function mark(state) { document.documentElement.setAttribute("data-live", state); }

function close() {
  if (source) source.close();
  source = null;
  streaming = false;
}

// ---- the ticket ---------------------------------------------------------------------
// The live answer is one fragment for every phone: the poller it brings may carry no
// ticket. It keeps the one this page had, unless the game is over (the poller asks no
// more every 2 s), when the stream has nothing more to say.
var ticket = { game: "", url: "" };

function keepTicket(p, game) {
  if (!p) return;
  if (p.dataset.events) {
    ticket = { game: game, url: p.dataset.events };
  } else if (ticket.url && ticket.game === game && /\bevery\b/.test(p.getAttribute("hx-trigger") || "")) {
    p.dataset.events = ticket.url;
  }
}

function connect() {
  var p = poller();
  var sheet = document.getElementById("sheet");
  var game = sheet ? sheet.dataset.game || "" : "";
  keepTicket(p, game);
  if (!window.EventSource) return;   // the poll does the work
  var url = p && document.visibilityState !== "hidden" && navigator.onLine ? p.dataset.events || "" : "";
  if (!url) { if (source) { close(); mark("off"); } return; }
  if (source && source.readyState !== EventSource.CLOSED && sourceGame === game) return;
  if (url === failedUrl) return;   // refused: poll until the sheet brings a new ticket
  close();
  sourceGame = game;
  var stream = new EventSource(url);
  source = stream;
  stream.addEventListener("open", function () {
    if (stream !== source) return;
    streaming = true;
    lastHeard = Date.now();
    failedUrl = "";
    mark("events");
    awaitHello();   // what changed between the page and the stream, if anything
    tools();
  });
  stream.addEventListener("hello", function (e) {
    if (stream !== source) return;
    lastHeard = Date.now();
    onHello(e.data);
  });
  // The table's tools changed (static/js/table-tools.js asks for them).
  stream.addEventListener("tools", function () {
    if (stream !== source) return;
    lastHeard = Date.now();
    tools();
  });
  stream.addEventListener("change", function (e) {
    if (stream !== source) return;
    lastHeard = Date.now();
    onChange(e.data);
  });
  stream.addEventListener("ping", function () { lastHeard = Date.now(); });
  stream.addEventListener("error", function () {
    if (stream !== source) return;
    streaming = false;   // the poll takes over until the stream is back
    mark("poll");
    if (stream.readyState === EventSource.CLOSED) {
      failedUrl = url;
      source = null;
    }
  });
}

function tools() { document.dispatchEvent(new CustomEvent("sk-live-tools")); }

function refresh() {
  var p = poller();
  if (p && window.htmx) window.htmx.trigger(p, "sk-refresh");
}

// ---- the stream's first event: the game's version ----------------------------------
// A phone that shows it asks nothing; one that is behind asks after a random moment,
// so that a whole room reconnecting (the events server restarted) does not ask Django
// at once. A server that says nothing (an older one) is asked as before.
var HELLO_WAIT_MS = 3000, JITTER_MS = 1500, helloTimer = 0;

function awaitHello() {
  window.clearTimeout(helloTimer);
  helloTimer = window.setTimeout(refresh, HELLO_WAIT_MS);
}

function onHello(data) {
  window.clearTimeout(helloTimer);
  var v = null;
  try { v = JSON.parse(data).v; } catch (e) { v = null; }
  if (typeof v === "number" && v <= shownVersion()) return;   // current
  window.setTimeout(function () {
    if (typeof v === "number") pending[v] = pending[v] === undefined ? null : pending[v];
    else pending.whole = true;
    ask();
  }, Math.random() * JITTER_MS);
}

function onChange(data) {
  var change;
  try { change = JSON.parse(data); } catch (e) { return; }
  if (typeof change.v !== "number") { pending.whole = true; tools(); }
  else pending[change.v] = typeof change.from === "number" ? change.from : null;
  ask();
}

// ---- this phone's own write in flight --------------------------------------------
// The event of a hand saved here arrives before the save's answer (which brings the
// new sheet): wait for that answer instead of asking for the same hand again (for at
// most WRITE_WAIT_MS: an answer that never comes holds nothing up for long).
var writes = 0, writeStarted = 0, WRITE_WAIT_MS = 15000;

function isWrite(e) {
  var config = (e.detail && e.detail.requestConfig) || {};
  var sheet = document.getElementById("sheet");
  var elt = e.detail && e.detail.elt;
  return String(config.verb || "").toLowerCase() === "post" && !!sheet && !!elt && sheet.contains(elt);
}

function writing() { return writes > 0 && Date.now() - writeStarted < WRITE_WAIT_MS; }

document.addEventListener("htmx:beforeSend", function (e) {
  var xhr = e.detail && e.detail.xhr;
  if (!xhr || !isWrite(e)) return;
  xhr.skWrite = true;   // (its form may be swapped out before the answer's event)
  writes++;
  writeStarted = Date.now();
});
document.addEventListener("htmx:afterRequest", function (e) {
  var xhr = e.detail && e.detail.xhr;
  if (!xhr || !xhr.skWrite) return;
  xhr.skWrite = false;
  writes = Math.max(0, writes - 1);
  if (!writes) window.setTimeout(ask, 0);   // after the answer was swapped in
});

// One request at a time: events arriving meanwhile are asked for after it.
function ask() {
  var p = poller();
  if (busy || writing() || !p || !window.htmx) return;
  var shown = shownVersion(), latest = shown, whole = !!pending.whole, from = Infinity;
  Object.keys(pending).forEach(function (k) { if (k !== "whole") latest = Math.max(latest, +k); });
  if (!whole && latest <= shown) { pending = {}; return; }
  for (var v = shown + 1; v <= latest && !whole; v++) {
    if (typeof pending[v] !== "number") whole = true;
    else from = Math.min(from, pending[v]);
  }
  pending = {};
  var url = p.getAttribute("hx-get") + "&sse=1";
  if (!whole) url += "&from=" + from + "&to=" + latest;
  busy = true;
  var done = function () { busy = false; ask(); };
  window.htmx.ajax("GET", url, { source: p, swap: "none" }).then(done, done);
}

// While the stream is open, the poller's timer asks nothing (its sk-refresh, sent on
// a return to the page, and our own requests still go).
document.addEventListener("htmx:beforeRequest", function (e) {
  var elt = e.detail && e.detail.elt;
  if (!streaming || !elt || elt.id !== "sheet-poller") return;
  var config = e.detail.requestConfig || {};
  if (!config.triggeringEvent && String(config.path || "").indexOf("sse=1") < 0) e.preventDefault();
});

// ---- the changed rows, into the grid ------------------------------------------------

function merge(holder) {
  var grid = document.getElementById("sheet-grid");
  var template = holder.querySelector("template");
  var fresh = template && template.content.querySelector("#sheet-grid");
  var body = grid && grid.querySelector(".score-grid tbody");
  var freshBody = fresh && fresh.querySelector(".score-grid tbody");
  if (!body || !freshBody) { pending.whole = true; return; }
  var from = +holder.dataset.from, first = +holder.dataset.first, total = +holder.dataset.total;
  // Drop the rows from the changed hand on, and those now before the first one shown
  // (a divider row goes with the hand row before it).
  var drop = false;
  Array.prototype.slice.call(body.rows).forEach(function (tr) {
    if (tr.classList.contains("hand-row")) {
      var n = +tr.dataset.hand;
      drop = n >= from || n < first;
    } else if (!tr.classList.contains("divider")) {
      drop = true;   // "No hands yet."
    }
    if (drop) tr.remove();
  });
  Array.prototype.slice.call(freshBody.rows).forEach(function (tr) {
    if (total > 0 && !tr.classList.contains("hand-row") && !tr.classList.contains("divider")) return;
    body.appendChild(document.importNode(tr, true));
  });
  var scroller = grid.querySelector(".grid-scroll");
  var left = scroller ? scroller.scrollLeft : 0;
  var next = document.importNode(fresh, true);
  var slot = next.querySelector(".score-grid tbody");
  slot.parentNode.replaceChild(body, slot);
  grid.parentNode.replaceChild(next, grid);
  var newScroller = next.querySelector(".grid-scroll");
  if (newScroller) newScroller.scrollLeft = left;
  window.htmx.process(next);
}

document.addEventListener("htmx:oobBeforeSwap", function (e) {
  var target = e.detail && e.detail.target;
  if (!target || target.id !== "sheet-grid-delta") return;
  e.detail.shouldSwap = false;   // the empty holder stays; only the grid changes
  var fragment = e.detail.fragment;
  var holder = fragment && (fragment.id === "sheet-grid-delta" ? fragment : fragment.querySelector("#sheet-grid-delta"));
  if (holder) merge(holder);
});

// ---- when to stream ---------------------------------------------------------------

window.setInterval(function () {
  if (streaming && Date.now() - lastHeard > SILENT_MS) {
    close();   // the network dropped it without a word: poll, and open a new one
    mark("poll");
    connect();
  }
}, 15000);

document.addEventListener("DOMContentLoaded", connect);
document.addEventListener("htmx:afterSettle", connect);
document.addEventListener("htmx:oobAfterSwap", connect);
document.addEventListener("visibilitychange", connect);
window.addEventListener("online", connect);
window.addEventListener("offline", function () { close(); mark("off"); });
window.addEventListener("pagehide", function () { close(); });
window.addEventListener("pageshow", function (e) { if (e.persisted) connect(); });
