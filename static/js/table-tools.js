/* scorekeeper — the table's tools on the sheet and the table display (issue 18).
 *
 * The section [data-table-tools] (templates/games/_table_tools.html) names its game's
 * tools URL (games/<pk>/table/). The shared state (negotiation timer, who leads, draw
 * penalty, direction of play) comes with the page and with the live answer after a
 * hand (#table-tools-state, games/_table_tools_state.html); a running timer comes as
 * the moment it ends on the server's clock, with the server's "now", so every phone
 * counts down to the same instant whatever its own clock says. A tap's "tools" event
 * (live.js's "sk-live-tools"; the stream's "hello" too) says what the tools now are,
 * for the game's version it was made at: a phone showing that version takes it and
 * asks nothing; a phone a hand behind it waits for the live answer on its way (which
 * brings the tools as they were when it was made) and takes the event's if they are
 * newer. The URL is asked only when the stream says the revision moved past the one
 * shown without saying to what (a missed stretch), with the state's ETag: "304 Not
 * Modified" when it is current; not while this phone's own tap is on its way (its
 * event comes before its answer, which is the state). Without the stream it is polled, with
 * the waits of backoff.js (as live.js polls the sheet: 2 s where no events server is
 * configured; where the stream broke, doubling to 16 s while nothing changes; to 60 s
 * while the server does not answer; never before its Retry-After). A game over asks
 * nothing.
 * A state is taken only if it is not older than the one shown (game version and tools
 * revision); the live answer's copy is kept per version, so its "now" only ever moves
 * this phone's idea of the server's clock forward.
 * A tap applies at once on this phone and waits in the sheet's outbox (offline-queue.js,
 * with the hands) until it is sent, in its turn, once: offline, until the phone is back
 * online, while the timer goes on counting from what the phone knew. At zero the phone
 * beeps (Web Audio) and vibrates, where it may. The red-aces check needs no server at
 * all. The shared state last seen is kept in localStorage, for a reload offline.
 */

import { outbox } from "./offline-queue.js";
import { Backoff, Timer, refused } from "./backoff.js";

var polls = new Backoff({ base: 2000, quietCap: 16000, cap: 60000 }), pollTimer = new Timer();
// A read the stream asked for (a "tools" event, a hello) and the app refused (503 while
// it sheds load, 429, no answer) is made again, never before its Retry-After: else the
// tools would stay as they were until the next tap.
var retries = new Backoff({ base: 1000, cap: 15000 }), retryTimer = new Timer();
var el = null, url = "", game = "", mayChange = false, key = "";
var state = null, offset = 0, clockKnown = false, busy = false, again = false, audio = null;
var seenEnd = null, beeped = null;
// What a "tools" event said while the sheet was behind it (the live answer is on its
// way): { r: revision, s: the state at s.version }; asked for if no answer came.
var toldState = null, toldTimer = new Timer(), TOLD_WAIT_MS = 4000;
var queued = 0;          // this phone's taps not yet answered by the server
var heard = null;        // the revision the stream told of while they were on their way
var outboxOk = false;    // the sheet's outbox sends them (offline-sheet.js)

function near(a, b) { return a !== null && b !== null && Math.abs(a - b) < 1500; }

function now() { return Date.now() + offset; }   // the server's clock, as well as known
function $(sel) { return el ? el.querySelector(sel) : null; }
function all(sel) { return el ? Array.prototype.slice.call(el.querySelectorAll(sel)) : []; }

function read(name, fallback) {
  try { var v = JSON.parse(localStorage.getItem(key + name) || "null"); return v === null ? fallback : v; }
  catch (e) { return fallback; }
}
function write(name, value) {
  try { localStorage.setItem(key + name, JSON.stringify(value)); } catch (e) { /* full or off */ }
}

// ---- the timer --------------------------------------------------------------------

function leftMs() {
  var t = state && state.timer;
  if (!t) return null;
  if (t.running && t.ends_at) return Math.max(0, t.ends_at - now());
  return Math.max(0, Math.round(t.remaining * 1000));
}

function clock(ms) {
  var s = Math.ceil(ms / 1000), m = Math.floor(s / 60);
  s = s % 60;
  return m + ":" + (s < 10 ? "0" : "") + s;
}

function beep() {
  try {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    if (audio.state === "suspended") audio.resume();
    [0, 0.35, 0.7].forEach(function (at) {
      var osc = audio.createOscillator(), gain = audio.createGain();
      osc.type = "square";
      osc.frequency.value = 880;
      gain.gain.value = 0.15;
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start(audio.currentTime + at);
      osc.stop(audio.currentTime + at + 0.2);
    });
  } catch (e) { /* no sound here */ }
  if (navigator.vibrate) { try { navigator.vibrate([300, 150, 300, 150, 300]); } catch (e) { /* no */ } }
}

// A first tap lets the page make sound later (browsers want a gesture first).
document.addEventListener("pointerdown", function () {
  try {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (Ctx && !audio) audio = new Ctx();
    if (audio && audio.state === "suspended") audio.resume();
  } catch (e) { /* no sound here */ }
}, { passive: true });

function tick() {
  var box = $("[data-tool=timer]");
  if (!box || !state || !state.timer) return;
  var t = state.timer, ms = leftMs(), name = box.dataset.timerName || gettext("timer");
  var face = $("[data-timer-clock]");
  var text = clock(ms);
  if (face.textContent !== text) face.textContent = text;
  var running = t.running && ms > 0;
  var status = running ? gettext("Running") : ms <= 0 ? gettext("Time's up!") : t.state === "paused" ? gettext("Paused") :
    interpolate(gettext("Ready: %(time)s"), { time: clock(t.seconds * 1000) }, true);
  box.dataset.timerState = running ? "running" : ms <= 0 ? "done" : t.state;
  var line = $("[data-timer-status]");
  if (line.textContent !== status) line.textContent = status;
  // Sound only for a countdown seen running here, not for an end found after a reload.
  if (running) seenEnd = t.ends_at;
  else if (t.running && ms <= 0 && near(seenEnd, t.ends_at) && !near(beeped, t.ends_at)) {
    beeped = t.ends_at;
    beep();
  }
  var start = $("[data-act=timer-start]"), pause = $("[data-act=timer-pause]");
  if (start) { start.disabled = running; start.textContent = interpolate(t.state === "paused" && ms > 0 ? gettext("Resume %(name)s") : gettext("Start %(name)s"), { name: name }, true); }
  if (pause) pause.disabled = !running;
}

// ---- showing the state --------------------------------------------------------------

function render() {
  if (!el || !state) return;
  el.hidden = !el.querySelector(".tool");
  tick();
  var leader = $("[data-leader-name]");
  if (leader) {
    var card = leader.dataset.card || (leader.dataset.card = leader.textContent);
    leader.textContent = state.leader_name || card;
    var select = $("[data-leader-select]");
    if (select && document.activeElement !== select) select.value = state.leader ? String(state.leader) : "";
  }
  var count = $("[data-penalty-count]");
  if (count) {
    count.textContent = String(state.penalty);
    // (The count stands before it, in its own element.)
    // Translators: after a count shown apart: "Next player draws 2 cards".
    $("[data-penalty-unit]").textContent = ngettext("card", "cards", state.penalty);
    var box = $("[data-penalty-buttons]");
    var tools = state.tools && state.tools.penalty;
    if (box && tools) {
      var clear = box.querySelector("[data-act=penalty-clear]");
      all("[data-act=penalty-add]").forEach(function (b) { b.remove(); });
      tools.forEach(function (t) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "button";
        b.dataset.act = "penalty-add";
        b.dataset.amount = String(t.amount);
        b.textContent = "+ " + t.label + " (" + t.amount + ")";
        box.insertBefore(b, clear);
      });
    }
  }
  var dir = $("[data-direction]");
  if (dir) dir.textContent = state.clockwise ? gettext("clockwise ↻") : gettext("counter-clockwise ↺");
  var sync = $("[data-tools-sync]");
  if (sync) {
    sync.hidden = !queued;
    sync.textContent = queued ? interpolate(ngettext(
      "Offline: %(n)s change kept on this phone, sent when back online.",
      "Offline: %(n)s changes kept on this phone, sent when back online.", queued), { n: queued }, true) : "";
  }
}

/* Whether `data` is not older than the state shown: a later game version and tools
 * revision, or the same. */
function notOlder(data) {
  if (!state) return true;
  var v = data.version, r = data.revision;
  return (typeof v !== "number" || typeof state.version !== "number" || v >= state.version) && r >= state.revision;
}

/* The server's clock. `sentAt` known (this phone asked, now): its "now" was somewhere
 * between asking and the answer. Else (the page, the live answer's copy, which may be
 * older than the moment) its "now" was before `receivedAt`: the clock is at least that
 * far ahead, which only moves the estimate forward. */
function clockFrom(data, sentAt, receivedAt) {
  if (sentAt) {
    offset = data.server_now - (sentAt + receivedAt) / 2;
  } else {
    var least = data.server_now - receivedAt;
    offset = clockKnown ? Math.max(offset, least) : least;
  }
  clockKnown = true;
}

function take(data, sentAt, receivedAt) {
  if (!data || typeof data.server_now !== "number") return;
  if (!sentAt && !notOlder(data)) return;   // an older copy (the asked-for answer is the truth)
  clockFrom(data, sentAt, receivedAt || Date.now());
  state = data;
  write("state", { data: data, offset: offset, at: Date.now() });
  render();
  settle();
}

/* A tap's event said the tools' state `s` (at revision `r`) for the version this phone
 * shows: it is the one a read would give, but for the viewer's own parts, kept (the
 * hand's tools, whether it may change them) and the leader's name, found on the page.
 * False when the name cannot be (then the phone asks). */
function fromTold(r, s) {
  var name = null;
  if (s.leader) {
    if (state.leader === s.leader) name = state.leader_name;
    else {
      var option = $("[data-leader-select] option[value='" + Number(s.leader) + "']");
      if (!option) return false;
      name = option.textContent;
    }
  }
  take(Object.assign({}, state, s, { revision: r, leader_name: name, etag: null }), 0, Date.now());
  return true;
}

/* The version the sheet shows (live.js's): the live answer of a later one is on its way. */
function sheetVersion() {
  var p = document.getElementById("sheet-poller");
  return p ? parseInt(p.dataset.version, 10) || 0 : 0;
}

/* A state was taken: the event heard while behind is done with, taken, or asked for. */
function settle() {
  var w = toldState;
  if (!w || !state) return;
  if (w.r <= state.revision) { toldState = null; toldTimer.stop(); return; }
  if (state.version < w.s.version && sheetVersion() < w.s.version) return;   // still on its way
  toldState = null;
  toldTimer.stop();
  if (state.version !== w.s.version || !fromTold(w.r, w.s)) loadTold();
}

function finished() {
  var p = document.getElementById("sheet-poller");
  return (state && state.finished) || (!!p && !/\bevery\b/.test(p.getAttribute("hx-trigger") || ""));
}

/* The stream holds, or its first try to reconnect is on its way (live.js): no poll. */
function streaming() {
  var live = document.documentElement.getAttribute("data-live");
  return live === "events" || live === "reconnecting";
}

/* Whether an events stream is expected back (the page named one): then "nothing new"
 * backs the poll off; without one, the poll keeps its beat. */
function streamExpected() {
  var p = document.getElementById("sheet-poller");
  return !!p && !!p.dataset.events;
}

/* The state from the server; with the ETag of the one shown, "304" when it is current.
 * Resolves to the answer's status (0: none) and its Retry-After. */
function load() {
  if (!el || !navigator.onLine || !state || finished()) return Promise.resolve(null);
  if (busy) { again = true; return Promise.resolve(null); }
  busy = true;
  var sentAt = Date.now(), headers = { Accept: "application/json" };
  if (state.etag) headers["If-None-Match"] = state.etag;
  // The state as JSON, read here (nothing for htmx to swap): fetch().
  return fetch(url, { credentials: "same-origin", headers: headers, cache: "no-store" })
    .then(function (r) {
      var said = { status: r.status, retryAfter: r.headers.get("Retry-After"), changed: false };
      if (r.status !== 200) return said;
      return r.json().then(function (data) {
        if (!queued) { take(data, sentAt, Date.now()); said.changed = true; }   // else a tap's answer is newer
        return said;
      });
    })
    .catch(function () { return { status: 0, retryAfter: null, changed: false }; })
    .then(function (said) {
      busy = false;
      if (again) { again = false; load(); }
      return said;
    });
}

/* load(), for the stream: again after a refusal, while the stream holds. */
function loadTold() {
  retryTimer.stop();
  load().then(function (said) {
    if (!said || !streaming()) return;
    if (!refused(said.status)) { retries.reset(); return; }
    retryTimer.run(loadTold, retries.after(said.status, said.retryAfter, false, false));
  });
}

/* The stream said the tools changed (`r`: their revision, if it said; `s`: what they
 * now are, if it said): take `s`, or wait for the live answer, or ask — unless this
 * phone shows that revision already. */
function told(e) {
  var detail = e && e.detail ? e.detail : {}, r = detail.r, s = detail.s;
  if (state && typeof r === "number" && r <= state.revision) return;
  // Most often this phone's own tap, its event ahead of its answer: the answer brings
  // the state (asked for after it only if the stream told of a later revision).
  if (queued && navigator.onLine) { heard = Math.max(heard || 0, typeof r === "number" ? r : Infinity); return; }
  var said = state && typeof r === "number" && s && typeof s === "object" &&
    typeof s.version === "number" && typeof state.version === "number";
  if (said && s.version === state.version && fromTold(r, s)) return;
  if (said && s.version > state.version && sheetVersion() < s.version) {
    // A hand was saved just before the tap: its live answer is on its way.
    if (!toldState || r > toldState.r) toldState = { r: r, s: s };
    toldTimer.run(function () { toldState = null; loadTold(); }, TOLD_WAIT_MS);
    return;
  }
  loadTold();
}

// ---- without the stream: the poll ---------------------------------------------------

function keepPolling(wait) {
  if (!el || !state || streaming() || finished() || document.visibilityState === "hidden") {
    pollTimer.stop();
    return;
  }
  if (wait !== undefined || !pollTimer.pending()) pollTimer.run(poll, wait !== undefined ? wait : polls.delay());
}

function poll() {
  if (queued || streaming()) { keepPolling(); return; }
  load().then(function (said) {
    if (!said) { keepPolling(); return; }
    keepPolling(polls.after(said.status, said.retryAfter, said.changed, streamExpected()));
  });
}

/* The state that came with the page or the live answer (#table-tools-state). */
function fromPage() {
  var holder = document.getElementById("table-tools-state");
  var script = holder && holder.querySelector("script");
  if (!script) return null;
  try { return JSON.parse(script.textContent); } catch (e) { return null; }
}

// ---- changing it --------------------------------------------------------------------

function applyLocally(a) {
  var t = state.timer;
  if (a.action === "timer-start" && t && !(t.running && leftMs() > 0)) {
    var base = t.state === "paused" && t.remaining > 0 ? t.remaining : t.seconds;
    if (t.running || t.remaining <= 0) base = t.seconds;
    state.timer = { seconds: t.seconds, running: true, remaining: base, ends_at: now() + base * 1000, state: "running" };
  } else if (a.action === "timer-pause" && t && t.running) {
    state.timer = { seconds: t.seconds, running: false, remaining: leftMs() / 1000, ends_at: null, state: "paused" };
  } else if (a.action === "timer-reset" && t) {
    state.timer = { seconds: t.seconds, running: false, remaining: t.seconds, ends_at: null, state: "idle" };
  } else if (a.action === "penalty-add") {
    state.penalty += +a.amount;
  } else if (a.action === "penalty-clear") {
    state.penalty = 0;
  } else if (a.action === "direction-flip") {
    state.clockwise = !state.clockwise;
  } else if (a.action === "leader") {
    state.leader = a.player ? +a.player : null;
    var option = $("[data-leader-select] option[value='" + (a.player || "") + "']");
    state.leader_name = a.player && option ? option.textContent : null;
  }
}

/* Post one action. Its answer is JSON read here, not a part of the page for htmx to
 * swap: fetch(), with the page's form token (hx-headers, as htmx would send it).
 * Resolves once the server answered (whatever it said: { ok, data, sentAt }), rejects
 * when it did not or asks for later (the outbox sends it again in its turn). */
function send(a, to) {
  var body = new URLSearchParams();
  Object.keys(a).forEach(function (k) { if (a[k] !== undefined && a[k] !== null) body.append(k, a[k]); });
  var sentAt = Date.now();
  return fetch(to || url, {
    method: "POST", credentials: "same-origin", body: body,
    headers: { "X-CSRFToken": outbox.csrfToken(), Accept: "application/json" }
  }).then(function (r) {
    if (r.status >= 500 || r.status === 429 || r.status === 408) throw new Error("not yet");
    return r.json().then(function (data) { return { ok: r.ok, data: data, sentAt: sentAt }; },
      function () { return { ok: false, data: null, sentAt: sentAt }; });
  });
}

/* The server answered a tap: with none waiting behind it, its state is the truth. */
function answered(res) {
  queued = Math.max(0, queued - 1);
  if (!queued) {
    if (res && res.ok) take(res.data, res.sentAt); else load();
    if (res && res.ok && heard !== null && state && heard > state.revision) load();
    heard = null;
  }
  render();
}

// The sheet's outbox sends a kept tap in its turn, among the hands.
outbox.sender("tool", function (item) { return send(item.act, item.url).then(answered); });

/* Into the outbox, after whatever waits there. Without one (no IndexedDB, or a page
 * without the sheet's outbox) the tap is sent at once, and is lost offline. */
function keep(a) {
  var item = {
    key: outbox.newKey(), kind: "tool", game: game, url: url, act: a, seq: outbox.nextSeq(),
    savedAt: new Date().toISOString(), state: "waiting"
  };
  var put = outboxOk ? outbox.put(item) : Promise.reject(new Error("no outbox"));
  put.then(function () { outbox.wake(item); }, function () {
    outboxOk = false;
    send(a).then(answered, function () { answered(null); });
  });
}

function act(a) {
  if (!state || !mayChange) return;
  applyLocally(a);
  queued += 1;
  render();
  keep(a);
}

// ---- the red-aces check (this phone only) -------------------------------------------

function redAces() {
  var box = $("[data-tool=red-aces]");
  if (!box) return;
  var input = box.querySelector("[data-red-aces-count]");
  var verdict = box.querySelector("[data-red-aces-verdict]");
  var within = +box.dataset.within || 2;
  var raw = input.value.trim();
  if (raw === "" || isNaN(+raw)) {
    verdict.textContent = gettext("Enter how many cards were left over.");
    box.dataset.verdict = "";
    return;
  }
  var n = Math.round(+raw), off = Math.abs(n);
  var what = n === 0 ? gettext("came out exactly") : n > 0 ? interpolate(gettext("%(n)s left over"), { n: n }, true) :
    interpolate(gettext("%(n)s short"), { n: Math.abs(n) }, true);
  if (off <= within) {
    verdict.textContent = interpolate(gettext("Red aces are live for the dealer this hand (%(what)s)."), { what: what }, true);
    box.dataset.verdict = "live";
  } else {
    verdict.textContent = interpolate(gettext("Red aces are not live this hand (%(what)s; live within %(within)s either way)."), { what: what, within: within }, true);
    box.dataset.verdict = "dead";
  }
}

// ---- wiring -------------------------------------------------------------------------

function setup() {
  var found = document.querySelector("[data-table-tools]");
  if (!found || found === el) return;
  el = found;
  url = el.dataset.url;
  game = el.dataset.game;
  mayChange = el.hasAttribute("data-may-change");
  key = "sk-table-" + game + "-";
  // The page's state, unless the one kept here is newer (a page kept for offline use).
  var kept = read("state", null), page = fromPage();
  if (kept && kept.data && (!page || kept.data.server_now > page.server_now)) {
    offset = kept.offset || 0;
    clockKnown = true;
    state = kept.data;
    render();
  } else if (page) {
    var nav = window.performance && performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    take(page, 0, nav && performance.timeOrigin ? performance.timeOrigin + nav.responseStart : Date.now());
  }
  outboxOk = mayChange && !!document.getElementById("sheet-outbox");
  if (outboxOk) {
    outbox.list(game).then(function (items) {
      queued += items.filter(function (i) { return outbox.kindOf(i) === "tool"; }).length;
      render();
    }, function () { outboxOk = false; });
  }
  // Taps kept by this file's older versions (localStorage "sk-table-<game>-queue")
  // move into the outbox once, in their order.
  var old = read("queue", null);
  if (old !== null) {
    try { localStorage.removeItem(key + "queue"); } catch (e) { /* read once anyway */ }
    if (mayChange && Array.isArray(old)) old.forEach(function (a) { queued += 1; keep(a); });
  }
  el.addEventListener("click", function (e) {
    var step = e.target.closest("[data-step]");
    if (step) {
      var input = el.querySelector("[data-red-aces-count]");
      input.value = String((parseInt(input.value, 10) || 0) + (+step.dataset.step));
      redAces();
      return;
    }
    var b = e.target.closest("button[data-act]");
    if (!b || b.disabled) return;
    act({ action: b.dataset.act, amount: b.dataset.amount });
  });
  el.addEventListener("input", function (e) { if (e.target.matches("[data-red-aces-count]")) redAces(); });
  el.addEventListener("change", function (e) {
    if (e.target.matches("[data-leader-select]")) act({ action: "leader", player: e.target.value });
  });
  var red = el.querySelector("[data-tool=red-aces]");
  if (red) { el.hidden = false; redAces(); }
  keepPolling();
}

document.addEventListener("DOMContentLoaded", setup);
document.addEventListener("sk-live-tools", told);
// A saved hand (the live answer) brings the tools of the hand in play with it.
document.addEventListener("htmx:oobAfterSwap", function (e) {
  var t = e.detail && e.detail.target;
  if (t && t.id === "table-tools-state" && !queued) {
    var data = fromPage();
    if (data) { take(data, 0, Date.now()); polls.reset(); }
  }
  keepPolling();   // (the stream's state may have changed with it)
});
window.addEventListener("online", function () { load(); keepPolling(); });   // (the outbox sends what waits)
window.addEventListener("offline", function () { pollTimer.stop(); render(); });
document.addEventListener("visibilitychange", function () {
  if (document.visibilityState === "hidden") pollTimer.stop();
  else keepPolling();   // (with the stream back, its hello says whether anything changed)
});
window.setInterval(tick, 250);
// The stream opened or broke (live.js marks the page): poll only without it.
new MutationObserver(function () { keepPolling(); }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-live"] });
