/* scorekeeper — live updates of the sheet through the events server.
 *
 * The sheet's poller (#sheet-poller) carries the URL of its game's event stream
 * (data-events: a signed, expiring ticket) and the version it shows (data-version).
 * While the stream is open nothing polls; an event says which
 * version the game is at and from which hand its sheet changed ({"v": 8, "from": 7}),
 * and this file asks the usual live/ URL for just those rows (&from=7&to=8), merges
 * them into the grid, and lets htmx swap the rest (banner, scoreboard, panel…).
 * A gap in the versions (a missed event), an event without "from": the whole sheet is
 * asked for. A hand's event comes with the live answer kept for it when the server has
 * one for this kind of phone (an "answer" event just before: scorekeeper/live/pushed.py):
 * a phone showing the version before, its entry for that hand, swaps it in as it would
 * the answer it asks for, and asks nothing; any other phone asks, as before. The
 * stream's first event ("hello") says the game's version and its table tools'
 * revision: a phone showing both asks nothing.
 * Without a stream the phone polls (backoff.js): every 2 s ± 25 % where no events
 * server is configured; where the stream broke, from within 8 s of the break and
 * backing off while the server answers "nothing new" (exponential with full jitter,
 * to 16 s); in both, backing off to 60 s while the server does not answer or asks to
 * wait, never before its Retry-After. A broken stream is opened again after a
 * jittered wait (within 1 s, then backing off to 15 s, full jitter), so that a room of
 * phones whose events server restarted neither polls nor reconnects all at once, and
 * every stream is back within 15 s of the servers (longer caps left phones off the
 * stream for minutes after a short outage). The poller's own "every 2s"
 * trigger (for pages without this file) is held back: this file sends the polls.
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

import { Backoff, Timer, refused } from "./backoff.js";

var source = null, sourceGame = "", sourceUrl = "", streaming = false;
var pending = {}, busy = false, lastHeard = 0;
// The server sends a "ping" every 25 s: a stream silent for this long is dead.
var SILENT_MS = 70000;
// Without a stream, the live answer is polled; a broken stream is reopened.
var polls = new Backoff({ base: 2000, quietCap: 16000, cap: 60000 }), pollTimer = new Timer();
var reconnects = new Backoff({ base: 500, cap: 15000 }), reconnectTimer = new Timer();
// The grace after a break, before the first poll (its own timer: a poll already waiting
// is not put off by every refused try to reconnect).
var graceTimer = new Timer();
// An answer asked for while streaming (after an event or a hello) and refused (503 while
// the app sheds load, 429, no answer at all) is asked for again, never before its
// Retry-After: otherwise the phone would stay behind until the game's next change.
var retries = new Backoff({ base: 1000, cap: 15000 }), retryTimer = new Timer();
// The first poll after the stream broke: within 8 s (it is most often back sooner).
var FIRST_POLL_STEP = 2;
// How long a phone whose stream broke waits for its first try to reconnect before it
// polls (the try itself comes within 1 s; a room reconnecting at once takes longer).
var RECONNECT_GRACE_MS = 5000;

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

// ---- the poll, when there is no stream ---------------------------------------------
// Whether the poller polls at all: a game over asks no more (its poller has no "every").
function pollable() {
  var p = poller();
  return !!p && document.visibilityState !== "hidden" && navigator.onLine &&
    /\bevery\b/.test(p.getAttribute("hx-trigger") || "");
}

function keepPolling() {
  if (streaming || !pollable()) { pollTimer.stop(); return; }
  if (!pollTimer.pending()) pollTimer.run(poll, polls.delay());
}

function poll() {
  if (streaming || !pollable()) return;
  refresh();   // its answer (htmx:afterRequest) sets the next wait
}

function polled(e) {
  var elt = e.detail && e.detail.elt, xhr = e.detail && e.detail.xhr;
  if (!elt || elt.id !== "sheet-poller" || !xhr || xhr.skCounted) return;
  xhr.skCounted = true;
  if (streaming) { askedAgain(xhr, e.detail.requestConfig); return; }
  // "Nothing new" backs off only where a stream is expected back.
  var wait = polls.after(xhr.status, xhr.getResponseHeader("Retry-After"), xhr.status === 200, !!ticket.url);
  if (pollable()) pollTimer.run(poll, wait); else pollTimer.stop();
}
document.addEventListener("htmx:afterRequest", polled);

// While streaming: an answer this file asked for (after an event or a hello: "sse=1")
// that was refused is asked for again (the rows it asked for, else the whole sheet),
// after the wait the refusals so far and the server's Retry-After ask. A poll sent
// before the stream opened needs nothing more: the stream's hello says what is missing.
function askedAgain(xhr, config) {
  var status = xhr.status, path = String((config && config.path) || "");
  if (path.indexOf("sse=1") < 0) return;
  if (!refused(status)) { retries.reset(); return; }
  var wait = retries.after(status, xhr.getResponseHeader("Retry-After"), false, false);
  var rows = /[?&]from=(\d+)&to=(\d+)/.exec(path);
  if (rows && pending[+rows[2]] === undefined) pending[+rows[2]] = +rows[1];
  else if (!rows) pending.whole = true;
  retryTimer.run(ask, wait);
}
document.addEventListener("htmx:sendError", polled);

// ---- the stream ---------------------------------------------------------------------

function broken() {
  close();   // reopened here, after a jittered wait, not by EventSource's own fixed one
  reconnects.fail();
  reconnectTimer.run(connect, reconnects.delay());
  if (reconnects.step <= 1) {
    // The first try after a break (its server restarted: nginx opens the stream on the
    // other) comes within 1 s. Nothing polls while it is on its way, this file nor
    // table-tools.js ("reconnecting"), so that a room whose server restarted does not
    // poll Django meanwhile; polling starts when that try fails, or after a grace.
    mark("reconnecting");
    pollTimer.stop();
    graceTimer.run(function () {
      if (streaming) return;
      mark("poll");
      polls.from(FIRST_POLL_STEP);
      keepPolling();
    }, RECONNECT_GRACE_MS);
    return;
  }
  // A later try refused: the poll goes on at its own pace (the wait it has, if one is
  // pending: restarting it at every refusal would put it off for as long as they come).
  graceTimer.stop();
  mark("poll");
  polls.from(FIRST_POLL_STEP);
  keepPolling();
}

function connect() {
  var p = poller();
  var sheet = document.getElementById("sheet");
  var game = sheet ? sheet.dataset.game || "" : "";
  keepTicket(p, game);
  var url = window.EventSource && p && document.visibilityState !== "hidden" && navigator.onLine ? p.dataset.events || "" : "";
  // The answers pushed on the stream name the page's host (their links are absolute).
  if (url) url += (url.indexOf("?") < 0 ? "?" : "&") + "host=" + encodeURIComponent(location.host);
  // ...and are said in the page's language: only answers in it are pushed to this phone.
  if (url) url += "&lang=" + encodeURIComponent(document.documentElement.lang || "en");
  if (!url) {
    if (source) { close(); mark("off"); }
    keepPolling();   // no stream (or none configured): the poll does the work
    return;
  }
  if (source && source.readyState !== EventSource.CLOSED && sourceGame === game) return;
  if (reconnectTimer.pending() && url === sourceUrl) { keepPolling(); return; }   // its turn comes
  reconnectTimer.stop();
  close();
  sourceGame = game;
  sourceUrl = url;
  var stream = new EventSource(url);
  source = stream;
  stream.addEventListener("open", function () {
    if (stream !== source) return;
    streaming = true;
    lastHeard = Date.now();
    pollTimer.stop();
    mark("events");
    awaitHello();   // what changed between the page and the stream, if anything
  });
  stream.addEventListener("hello", function (e) {
    if (stream !== source) return;
    lastHeard = Date.now();
    reconnects.reset();
    polls.reset();
    onHello(e.data);
  });
  // The table's tools changed (static/js/table-tools.js takes what the event says they
  // now are, or asks for them, if behind).
  stream.addEventListener("tools", function (e) {
    if (stream !== source) return;
    lastHeard = Date.now();
    var said;
    try { said = JSON.parse(e.data) || {}; } catch (err) { said = {}; }
    tools(said.r, said.s);
  });
  stream.addEventListener("change", function (e) {
    if (stream !== source) return;
    lastHeard = Date.now();
    onChange(e.data);
  });
  stream.addEventListener("answer", function (e) {
    if (stream !== source) return;
    lastHeard = Date.now();
    onAnswer(e.data);
  });
  stream.addEventListener("ping", function () { lastHeard = Date.now(); });
  stream.addEventListener("error", function () {
    if (stream !== source) return;
    broken();   // the poll takes over until the stream is back
  });
}

/* The table's tools may have changed: `r` their revision (undefined: not said), `s`
 * what every phone shows of them now (a tap's event says it; undefined: not said). */
function tools(r, s) { document.dispatchEvent(new CustomEvent("sk-live-tools", { detail: { r: r, s: s } })); }

function refresh() {
  var p = poller();
  if (p && window.htmx) window.htmx.trigger(p, "sk-refresh");
}

// ---- the stream's first event: the game's version ----------------------------------
// A phone that shows it asks nothing; one that is behind asks after a random moment,
// so that a whole room reconnecting (the events server restarted) does not ask Django
// at once. Only the phones of games changed while their stream was away are behind
// (at 1,000 tables and 8 hands a second, some 100 of 4,000 for a 3 s restart), and the
// 4 of a game share one answer: 0.75 s spreads them enough (make bench-live, scenario c).
// A server that says nothing (an older one) is asked as before.
var HELLO_WAIT_MS = 3000, JITTER_MS = 750, helloTimer = 0;

function awaitHello() {
  window.clearTimeout(helloTimer);
  helloTimer = window.setTimeout(function () { refresh(); tools(); }, HELLO_WAIT_MS);
}

function onHello(data) {
  window.clearTimeout(helloTimer);
  var said = {};
  try { said = JSON.parse(data) || {}; } catch (e) { said = {}; }
  var v = typeof said.v === "number" ? said.v : null;
  // The tools: table-tools.js takes what the server heard them become (`s`, when it
  // did), or asks for them, only if its revision is behind this one.
  if (v !== null && v <= shownVersion()) { tools(said.r, said.s); return; }   // the sheet is current
  // One version behind, the server may say which hand the change began at (`f`, as its
  // "change" event did): the rows from it on, the answer the phones that heard it share.
  var first = typeof said.f === "number" ? said.f : null;
  window.setTimeout(function () {
    if (typeof v !== "number") pending.whole = true;
    else if (pending[v] === undefined) pending[v] = v === shownVersion() + 1 ? first : null;
    ask();
  }, Math.random() * JITTER_MS);
}

function onChange(data) {
  var change;
  try { change = JSON.parse(data); } catch (e) { return; }
  if (typeof change.v !== "number") { pending.whole = true; tools(); }   // a resync
  else pending[change.v] = typeof change.from === "number" ? change.from : null;
  ask();
}

// ---- the answer pushed with a hand's event -------------------------------------------
// Its first line says the version it brings and the hand it was made for; the rest is
// the live answer, as games/<pk>/live/?hand=<that hand>&from=<it>&to=<version> gives it.
var pushed = null;

function onAnswer(data) {
  var nl = data.indexOf("\n"), head = null;
  try { head = JSON.parse(nl < 0 ? data : data.slice(0, nl)); } catch (e) { head = null; }
  pushed = head && nl > 0 && typeof head.v === "number" && typeof head.hand === "number" ?
    { v: head.v, hand: head.hand, html: data.slice(nl + 1) } : null;
}

// Whether the pushed answer is the one this phone would ask for: it shows the version
// just before, its entry is for the hand the answer was made for (the rows from it on),
// and it shows the last hands only (not ?hands=all).
function usable(latest, from) {
  var p = poller();
  if (!pushed || !p || pushed.v !== latest || latest !== shownVersion() + 1 || from !== pushed.hand) return false;
  if (/[?&]hands=/.test(location.search)) return false;
  var hand = /[?&]hand=([^&]*)/.exec(p.getAttribute("hx-get") || "");
  return !!hand && hand[1] === String(pushed.hand);
}

function swapPushed() {
  var html = pushed.html, latest = pushed.v;
  pushed = null;
  try {
    window.htmx.swap(poller(), html, { swapStyle: "none" });
  } catch (e) { /* asked for below */ }
  return shownVersion() >= latest;
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
  if (busy || writing() || retryTimer.pending() || !p || !window.htmx) return;
  var shown = shownVersion(), latest = shown, whole = !!pending.whole, from = Infinity;
  Object.keys(pending).forEach(function (k) { if (k !== "whole") latest = Math.max(latest, +k); });
  if (!whole && latest <= shown) { pending = {}; return; }
  for (var v = shown + 1; v <= latest && !whole; v++) {
    if (typeof pending[v] !== "number") whole = true;
    else from = Math.min(from, pending[v]);
  }
  pending = {};
  if (!whole && usable(latest, from) && swapPushed()) { connect(); ask(); return; }
  var url = p.getAttribute("hx-get") + "&sse=1";
  if (!whole) url += "&from=" + from + "&to=" + latest;
  busy = true;
  var done = function () { busy = false; ask(); };
  window.htmx.ajax("GET", url, { source: p, swap: "none" }).then(done, done);
}

// The poller's own timer ("every 2s") asks nothing: this file polls, with its waits
// (its sk-refresh, sent on a return to the page, and our own requests still go).
document.addEventListener("htmx:beforeRequest", function (e) {
  var elt = e.detail && e.detail.elt;
  if (!elt || elt.id !== "sheet-poller") return;
  var config = e.detail.requestConfig || {};
  if (!config.triggeringEvent && String(config.path || "").indexOf("sse=1") < 0) e.preventDefault();
});

// An answer to a poll whose poller was swapped out while it was asked for (a whole new
// sheet came in first: a save that ended the game, an undo) is older than the page:
// htmx would look for its out-of-band targets in the detached old sheet. It is dropped;
// the new sheet's poller asks for whatever is still missing. (htmx tells the detached
// poller itself, not the document.)
document.addEventListener("htmx:beforeRequest", function (e) {
  var elt = e.detail && e.detail.elt;
  if (!elt || elt.id !== "sheet-poller" || elt.skGuarded) return;
  elt.skGuarded = true;
  elt.addEventListener("htmx:beforeSwap", function (s) {
    if (!elt.isConnected) s.detail.shouldSwap = false;
  });
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
  // The network dropped it without a word: poll, and open a new one.
  if (streaming && Date.now() - lastHeard > SILENT_MS) broken();
}, 15000);

document.addEventListener("DOMContentLoaded", connect);
document.addEventListener("htmx:afterSettle", connect);
document.addEventListener("htmx:oobAfterSwap", connect);
document.addEventListener("visibilitychange", connect);
window.addEventListener("online", connect);
window.addEventListener("offline", function () { close(); mark("off"); pollTimer.stop(); graceTimer.stop(); });
window.addEventListener("pagehide", function () { close(); });
window.addEventListener("pageshow", function (e) { if (e.persisted) connect(); });
