/* scorekeeper — the score sheet when the connection or the browser lets a player down.
 *
 *  - A hand saved is written to the outbox (offline-queue.js) before it is sent, with a
 *    key made on this phone: offline it waits there, shown on the sheet, and is sent by
 *    itself when the connection returns (in order, retried with backoff). However often
 *    it is sent, the server records it once. A tap on the table's tools waits in the
 *    same outbox (table-tools.js puts it there) and goes in its turn, once.
 *  - A hand the server refuses (another phone recorded that hand, the game is over…) is
 *    held with the reason until the user re-enters it as the next hand or discards it.
 *  - An entry in progress is kept per game and hand number (offline-drafts.js): it
 *    survives a reload and Back/Forward; one overtaken by another phone is held too.
 *  - The live poll pauses while the page is hidden, offline or sending, and a page
 *    restored from the back/forward cache refreshes at once.
 *  - What a part of the sheet swapped in leaves out because it is the same for every
 *    phone (the form token, the entry's key) is filled in here.
 * Without this file (or without IndexedDB) the sheet's forms post as before.
 */

import { outbox as store } from "./offline-queue.js";
import { drafts } from "./offline-drafts.js";
import { ahead } from "./offline-ahead.js";
import { keepPage } from "./offline-keep.js";
import { showSaved } from "./sheet.js";

var outbox = document.getElementById("sheet-outbox");
var game = outbox ? outbox.dataset.game : "";
var sheetUrl = outbox ? outbox.dataset.sheetUrl : "";
var loginPath = document.body.dataset.loginUrl;   // sent there once signed out
var SEND_TIMEOUT_MS = 12000;
var MAX_DELAY_MS = 60000;

var items = [];          // this game's outbox (hands and tool actions), in the order made
var storeOk = !!outbox;
var pristine = null;     // the entry panel as the server sent it: { html, number }
var flushing = false;
var attempt = 0;         // failed sends in a row, for the backoff
var retryTimer = 0;
var retryAt = 0;
var note = "";           // a passing message ("2 hands sent")
var noteTimer = 0;

function el(tag, className, text) {
  var node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function handText(number) { return interpolate(gettext("Hand %(number)s"), { number: number }, true); }

/* The words "hand 3" in the page's language, as a pattern (null: English, whose own
 * pattern the callers use as they always did). */
function handWords() {
  // Translators: "hand 3": also finds the hand's number in the server's texts (legends, the save bar's label); the same words as the templates' translations.
  var words = gettext("hand %(number)s");
  if (words === "hand %(number)s" || words.indexOf("%(number)s") < 0) return null;
  return new RegExp(words.split("%(number)s").map(function (part) {
    return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }).join("\\d+"), "i");
}

/* A server's text about one hand, about hand ``to`` instead ("Who won hand 3?"). */
function renumbered(text, to) {
  var words = handWords();
  if (!words) return text.replace(/\bhand \d+\b/, "hand " + to);
  return text.replace(words, function (m) { return m.replace(/\d+/, String(to)); });
}

function isHand(item) { return store.kindOf(item) === "hand"; }
function pending() { return items.filter(function (i) { return i.state !== "held"; }); }
function waiting() { return pending().filter(isHand); }
function held() { return items.filter(function (i) { return i.state === "held"; }); }

function entryPanel() {
  var panel = document.getElementById("entry");
  return panel && panel.dataset.mode === "new" ? panel : null;
}

// ---- entries in progress (drafts, offline-drafts.js) --------------------------------

function fieldsOf(form, submitter) { return drafts.fieldsOf(form, submitter); }
function isEmpty(pairs) { return drafts.isEmpty(pairs); }
function readDraft(number) { return drafts.read(game, number); }
function writeDraft(number, pairs) { drafts.write(game, number, pairs); }
function saveDraft(form) { drafts.save(game, form); }
function fill(form, pairs) { drafts.fill(form, pairs); }

/* Drafts for hands the sheet has moved past were overtaken by another phone: held, not
 * thrown away. */
function holdOvertaken(number) {
  var found = drafts.takeOlder(game, number);
  if (!storeOk) return;
  found.forEach(function (draft) {
    var n = draft.number;
    var item = {
      key: store.newKey(), kind: "hand", game: game, number: n, action: "", body: "",
      fields: draft.fields, summary: drafts.summaryOf(game, draft.fields), seq: store.nextSeq(),
      savedAt: new Date().toISOString(), state: "held",
      reason: interpolate(gettext("Hand %(number)s was saved on another phone while this entry was being made: it was not sent."), { number: n }, true)
    };
    items.push(item);
    store.put(item).catch(function () { /* kept on screen for now */ });
  });
  if (found.length) render();
}

// ---- the outbox on the sheet ----------------------------------------------------

function button(text, className, onClick) {
  var b = el("button", "button " + className, text);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

function render() {
  if (!outbox) return;
  var offline = !navigator.onLine;
  var wait = waiting(), hold = held();
  outbox.textContent = "";
  var status = el("div", "outbox-status");
  status.setAttribute("role", "status");
  if (offline) {
    var p = el("p", "outbox-offline");
    p.appendChild(el("strong", "", gettext("Offline.")));
    p.appendChild(document.createTextNode(" " + gettext("Hands you save are kept on this phone and sent when the connection returns.")));
    status.appendChild(p);
  }
  if (wait.length) {
    var line = el("p", "outbox-waiting");
    line.appendChild(el("strong", "", interpolate(ngettext("%(n)s hand waiting to send", "%(n)s hands waiting to send", wait.length), { n: wait.length }, true)));
    var when = flushing ? " · " + gettext("sending…") : offline ? " · " + gettext("sent when back online") :
      retryAt ? " · " + interpolate(gettext("next try in %(seconds)s s"), { seconds: Math.max(1, Math.round((retryAt - Date.now()) / 1000)) }, true) : "";
    line.appendChild(document.createTextNode(when));
    status.appendChild(line);
    var list = el("ol", "outbox-list");
    wait.forEach(function (item) {
      var li = el("li", "outbox-item");
      li.appendChild(el("strong", "", handText(item.number)));
      li.appendChild(document.createTextNode(" · " + item.summary));
      list.appendChild(li);
    });
    status.appendChild(list);
    if (!offline && !flushing) status.appendChild(button(gettext("Send now"), "secondary outbox-send", function () { flush(); }));
  }
  if (note) status.appendChild(el("p", "outbox-note", note));
  if (status.childNodes.length) outbox.appendChild(status);
  var panel = entryPanel();
  hold.forEach(function (item) {
    var box = el("div", "outbox-held");
    box.setAttribute("role", "alert");
    box.dataset.key = item.key;
    var head = el("p", "outbox-held-head");
    head.appendChild(el("strong", "", interpolate(gettext("Hand %(number)s was not saved."), { number: item.number }, true)));
    head.appendChild(document.createTextNode(" " + (item.reason || "")));
    box.appendChild(head);
    box.appendChild(el("p", "outbox-held-entry", item.summary));
    var actions = el("div", "button-row outbox-held-actions");
    if (item.confirm) {
      // An unlikely hand: the server asks before saving it (see confirm.js).
      (item.question || []).forEach(function (line) { box.insertBefore(el("p", "entry-confirm-line", line), box.lastChild); });
      actions.appendChild(button(gettext("Save anyway"), "outbox-confirm", function () { confirmHeld(item); }));
      if (panel) actions.appendChild(button(gettext("Fix it"), "secondary outbox-reenter", function () { reenter(item); }));
    } else if (panel) {
      actions.appendChild(button(interpolate(gettext("Enter it as hand %(number)s"), { number: panel.dataset.number }, true), "outbox-reenter", function () { reenter(item); }));
    }
    actions.appendChild(button(gettext("Discard it"), "secondary outbox-discard", function () { discard(item); }));
    box.appendChild(actions);
    outbox.appendChild(box);
  });
  outbox.hidden = !outbox.childNodes.length;
  ahead.waiting(wait);
}

function say(text) {
  note = text;
  window.clearTimeout(noteTimer);
  noteTimer = window.setTimeout(function () { note = ""; render(); }, 8000);
  render();
}

function reenter(item) {
  var panel = entryPanel();
  if (!panel) return;
  var number = panel.dataset.number;
  var form = panel.querySelector("form.entry-form");
  if (form && !isEmpty(fieldsOf(form)) &&
      !window.confirm(interpolate(gettext("Replace the entry in progress for hand %(number)s with hand %(other)s's?"), { number: number, other: item.number }, true))) return;
  writeDraft(number, item.fields);
  items = items.filter(function (i) { return i.key !== item.key; });
  store.remove(item.key).catch(function () { /* already gone */ });
  renderPanel(Number(number));
  say(interpolate(gettext("Hand %(other)s's entry is in the form as hand %(number)s: check it, then save."), { other: item.number, number: number }, true));
  var fresh = document.getElementById("entry");
  if (fresh) fresh.scrollIntoView({ block: "start" });
}

/* "Save anyway" for a held unlikely hand: it goes again, carrying the confirmation. */
function confirmHeld(item) {
  var body = new URLSearchParams(item.body);
  body.set("confirm", item.confirm);
  item.body = body.toString();
  item.fields = item.fields.filter(function (p) { return p[0] !== "confirm"; }).concat([["confirm", item.confirm]]);
  item.state = "waiting";
  item.reason = "";
  delete item.confirm;
  delete item.question;
  items = items.filter(function (i) { return i.key !== item.key; }).concat([item]);
  store.put(item).catch(function () { /* kept on screen for now */ }).then(function () { flush(); });
  render();
}

function discard(item) {
  if (!window.confirm(interpolate(gettext("Discard hand %(number)s's entry? It was never saved."), { number: item.number }, true))) return;
  items = items.filter(function (i) { return i.key !== item.key; });
  store.remove(item.key).catch(function () { /* already gone */ });
  say(interpolate(gettext("Hand %(number)s's entry was discarded."), { number: item.number }, true));
}

// ---- the entry panel --------------------------------------------------------------

/* Show the entry panel for ``number``: the server's panel, renumbered when hands
 * saved on this phone are still waiting (their dealer and ranks come with the sheet
 * once they are sent). */
function renderPanel(number) {
  var current = document.getElementById("entry");
  if (!pristine || !current) return;
  var holder = document.createElement("template");
  holder.innerHTML = pristine.html;
  var panel = holder.content.firstElementChild;
  if (number !== pristine.number) {
    panel.dataset.number = String(number);
    panel.dataset.local = "1";
    var field = panel.querySelector('input[name="number"]');
    if (field) field.value = String(number);
    var heading = panel.querySelector("#entry-heading");
    if (heading) {
      heading.textContent = interpolate(gettext("Enter hand %(number)s"), { number: number }, true) + " ";
      heading.appendChild(el("small", "muted", gettext("· after the hands waiting to send")));
    }
    panel.querySelectorAll(".entry-save").forEach(function (b) {
      if (!b.classList.contains("winner-button")) b.textContent = interpolate(gettext("Save hand %(number)s"), { number: number }, true);
    });
    panel.querySelectorAll("legend, h3").forEach(function (n) {
      n.childNodes.forEach(function (t) {
        if (t.nodeType === 3) t.textContent = renumbered(t.textContent, number);
      });
    });
    // The coming hand's dealer, pad values and facts, where the sheet carries them.
    var known = ahead.panel(panel, number);
    panel.querySelectorAll(known === "known" ? ".preview" : ".hand-callout, .reminder, .preview").forEach(function (n) { n.remove(); });
    panel.querySelectorAll("[data-storage-key]").forEach(function (n) { n.removeAttribute("data-storage-key"); });
  }
  ahead.banner(number);
  current.replaceWith(panel);
  if (window.htmx) window.htmx.process(panel);
  panel.dispatchEvent(new CustomEvent("htmx:load", { bubbles: true, detail: { elt: panel } }));
}

document.addEventListener("sk:panel", function (e) {
  var panel = e.target;
  if (!outbox || panel.id !== "entry" || panel.dataset.mode !== "new") return;
  var number = Number(panel.dataset.number);
  if (!panel.dataset.local) {
    pristine = { html: panel.outerHTML, number: number };
    holdOvertaken(number);
  }
  drafts.learnNames(game, panel);
  var form = panel.querySelector("form.entry-form");
  var draft = readDraft(number);
  if (form && draft) {
    fill(form, draft.fields);
    e.detail.restored = true;
  }
  render();
});

["input", "change", "sk:changed"].forEach(function (type) {
  document.addEventListener(type, function (e) {
    var form = e.target && e.target.closest ? e.target.closest("#entry form.entry-form") : null;
    if (form) saveDraft(form);
  });
});

// ---- saving a hand ----------------------------------------------------------------

/* A kept hand is sent with the page's current form token, not the one its form had when
   it was kept: a sign-in elsewhere, or a page served from the phone's copy, may have
   made that one stale. */
function withCurrentToken(body) {
  var params = new URLSearchParams(body), token = store.csrfToken();
  if (token) params.set("csrfmiddlewaretoken", token);
  return params.toString();
}

/* The server refused an expired token: its answer (the app's "form had expired" page)
   carries a current one. Take it for the page and its forms; true if there was one. */
function renewToken(html) {
  var doc = new DOMParser().parseFromString(html || "", "text/html");
  var headers = doc.body ? doc.body.getAttribute("hx-headers") : null;
  var token = "";
  try { token = JSON.parse(headers || "{}")["X-CSRFToken"] || ""; } catch (e) { token = ""; }
  if (!token || token === store.csrfToken()) return false;
  document.body.setAttribute("hx-headers", headers);
  document.querySelectorAll('input[name="csrfmiddlewaretoken"]').forEach(function (input) {
    input.value = token;
  });
  return true;
}

function setSaving(form, on) {
  if (!form) return;
  form.querySelectorAll(".entry-save").forEach(function (b) { b.disabled = on; });
  form.classList.toggle("is-saving", on);
}

document.addEventListener("submit", function (e) {
  var form = e.target;
  if (!storeOk || !window.htmx || !form.matches || !form.matches("#entry form.entry-form")) return;
  var panel = form.closest("#entry");
  if (!panel || panel.dataset.mode !== "new") return;
  var submitter = e.submitter;
  if (submitter && submitter.hasAttribute("formaction") && submitter.formAction !== form.action) return;
  e.preventDefault();
  e.stopPropagation();
  if (form.classList.contains("is-saving")) return;
  var number = Number(panel.dataset.number);
  var pairs = fieldsOf(form, submitter);
  var key = store.newKey();
  var body = new URLSearchParams();
  var token = form.querySelector('input[name="csrfmiddlewaretoken"]');
  if (token) body.append("csrfmiddlewaretoken", token.value);
  body.append("idempotency_key", key);
  body.append("number", String(number));
  pairs.forEach(function (p) { body.append(p[0], p[1]); });
  var item = {
    key: key, kind: "hand", game: game, number: number, action: form.action, body: body.toString(),
    fields: pairs, summary: drafts.summaryOf(game, pairs), seq: store.nextSeq(),
    savedAt: new Date().toISOString(), state: "waiting", reason: ""
  };
  var direct = navigator.onLine && !pending().length && !flushing;
  setSaving(form, true);
  store.put(item).then(function () {
    items.push(item);
    writeDraft(number, null);
    if (direct) return sendOne(item, true);
    setSaving(form, false);
    kept(number);
    flush();
  }, function () {
    // The phone cannot keep it: post the form as before.
    storeOk = false;
    setSaving(form, false);
    if (window.htmx) window.htmx.trigger(form, "submit"); else form.submit();
  });
}, true);

/* A hand kept on the phone: the panel moves on to the next hand. */
function kept(number) {
  renderPanel(number + 1);
  render();
  // On to the next hand's first question, the standings line above it (the outbox at
  // the top says what waits to send).
  var question = document.querySelector("#entry fieldset legend");
  var fieldset = question ? question.closest("fieldset") : null;
  if (!fieldset) { outbox.scrollIntoView({ block: "start" }); return; }
  fieldset.scrollIntoView({ block: "start" });
  fieldset.setAttribute("tabindex", "-1");
  fieldset.focus({ preventScroll: true });
}

function reasonFrom(status, html) {
  var doc = new DOMParser().parseFromString(html || "", "text/html");
  var found = doc.querySelector(".entry-errors p, #sheet-notice .notice, .form-errors, main p");
  var text = found ? found.textContent.trim().replace(/\s+/g, " ").replace(/^Not saved[:.]\s*/, "") : "";
  // The page's heading in the page's language (the same words as the server's "Not saved").
  // Translators: the start of the server's heading over a refused hand ("Not saved: 2 things to fix."); the same words as the templates' translation.
  var notSaved = gettext("Not saved");
  if (text.indexOf(notSaved) === 0 && /^[:.]/.test(text.slice(notSaved.length))) {
    text = text.slice(notSaved.length + 1).replace(/^\s+/, "");
  }
  text = text.charAt(0).toUpperCase() + text.slice(1);
  if (status === 403) return gettext("You may not change this sheet any more.");
  if (status === 404) return gettext("The game is gone: it was deleted, or it is no longer shared with you.");
  return text || interpolate(gettext("The server refused it (%(status)s)."), { status: status }, true);
}

/* The question an unlikely hand came back with: { lines, token }, or null. */
function questionFrom(html) {
  var doc = new DOMParser().parseFromString(html || "", "text/html");
  var box = doc.querySelector(".entry-confirm[data-confirm]");
  if (!box) return null;
  var lines = Array.prototype.map.call(box.querySelectorAll(".entry-confirm-line"), function (p) {
    return p.textContent.trim();
  });
  return { lines: lines.concat([gettext("Save anyway?")]), token: box.dataset.confirm };
}

/* The answer of a saved hand is the table's live answer, every part out of band
   (HX-Reswap: none); a refusal (409) is the whole sheet. */
function swapSheet(html, reswap) {
  var sheet = document.getElementById("sheet");
  if (!sheet || !window.htmx) return;
  window.htmx.swap(sheet, html, { swapStyle: reswap === "none" ? "none" : "outerHTML" });
  keepPage();
  // As after any save: the next hand's first question in view, or the notice to read.
  showSaved();
}

/* Post a kept hand by htmx (its HX-* headers and the page's hx-headers, the form token)
 * from the outbox, outside #sheet (not a write the stream waits for, live.js). Its
 * answer is read before anything is swapped (held, kept, or the sheet to show): the
 * handler only takes it. Resolves with the XMLHttpRequest, or null if none was sent. */
function post(item) {
  var answer = null;
  var values = new FormData();
  new URLSearchParams(withCurrentToken(item.body)).forEach(function (value, name) {
    values.append(name, value);
  });
  // The version this page shows as it is sent: the answer brings the saved hand's rows
  // alone if nothing else changed since, else the whole grid.
  var shown = document.getElementById("sheet-poller");
  if (shown && shown.dataset.version) values.set("shown", shown.dataset.version);
  var sheet = document.getElementById("sheet");
  return window.htmx.ajax("POST", item.action, {
    source: outbox,
    target: sheet || outbox,
    values: values,
    headers: { "Idempotency-Key": item.key },
    handler: function (elt, info) { answer = info.xhr; }
  }).then(function () { return answer; });
}

/* Send one hand. Resolves "sent", "held", "kept" (try again later). */
function sendOne(item, direct) {
  var form = direct ? document.querySelector("#entry form.entry-form") : null;
  return post(item).then(function (xhr) {
    if (!xhr) throw new Error("not sent");
    var html = xhr.responseText;
    var status = xhr.status;
    var reswap = xhr.getResponseHeader("HX-Reswap") || "";
    var signedOut = !!xhr.responseURL && new URL(xhr.responseURL).pathname === loginPath;
    if (signedOut || status >= 500 || status === 429 || status === 408 || status === 0) {
      if (signedOut) say(gettext("Sign in again: the hands kept on this phone are sent once you are signed in."));
      throw new Error("not yet");
    }
    // An expired form token (a sign-in, or a late answer that set the cookie back):
    // send it again at once with the current one the refusal carries, once per hand.
    if (status === 403 && xhr.getResponseHeader("X-CSRF-Failure") && !item.renewed && renewToken(html)) {
      item.renewed = true;
      return sendOne(item, direct);
    }
    items = items.filter(function (i) { return i.key !== item.key; });
    // Taps made while it was on its way are not an entry another phone overtook.
    if (status !== 422) writeDraft(item.number, null);
    if (status === 200 || (status === 422 && direct)) {
      store.remove(item.key);
      if (direct) { setSaving(form, false); swapSheet(html, reswap); }
      return { outcome: "sent", status: status, html: html, reswap: reswap };
    }
    item.state = "held";
    item.reason = reasonFrom(status, html);
    var asked = status === 422 ? questionFrom(html) : null;
    if (asked) {
      item.reason = gettext("It waits for a yes:");
      item.question = asked.lines;
      item.confirm = asked.token;
    }
    items.push(item);
    return store.put(item).then(function () {
      if (direct) { setSaving(form, false); if (status === 409) swapSheet(html); render(); }
      return { outcome: "held", status: status, html: html };
    });
  }).catch(function () {
    if (items.indexOf(item) < 0 && item.state !== "held") items.push(item);
    if (direct) {
      setSaving(form, false);
      kept(item.number);
      scheduleRetry();
    }
    return { outcome: "kept" };
  });
}

/* Send a tap on the table's tools kept here, by table-tools.js's sender: once the
 * server has answered (whatever it said) it is done; else it waits its turn again. */
function sendTool(item) {
  var send = store.senderFor(item);
  if (!send) return Promise.resolve({ outcome: "kept" });
  return send(item).then(function () {
    items = items.filter(function (i) { return i.key !== item.key; });
    return store.remove(item.key).catch(function () { /* sent: gone from the page */ })
      .then(function () { return { outcome: "sent" }; });
  }, function () { return { outcome: "kept" }; });
}

function scheduleRetry() {
  window.clearTimeout(retryTimer);
  if (!pending().length) { retryAt = 0; return; }
  var delay = Math.min(MAX_DELAY_MS, 2000 * Math.pow(2, attempt));
  attempt += 1;
  retryAt = Date.now() + delay;
  retryTimer = window.setTimeout(function () { retryAt = 0; flush(); }, delay);
  render();
}

/* Send what waits (hands and tool actions), oldest first, one at a time. */
function flush() {
  if (flushing || !storeOk || !window.htmx || !navigator.onLine || !pending().length) { render(); return; }
  flushing = true;
  window.clearTimeout(retryTimer);
  retryAt = 0;
  render();
  var sent = 0, refused = 0, last = null;
  function next() {
    var item = pending()[0];
    if (!item) return Promise.resolve(true);
    if (!isHand(item)) {
      return sendTool(item).then(function (result) { return result.outcome === "kept" ? false : next(); });
    }
    return sendOne(item, false).then(function (result) {
      if (result.outcome === "kept") return false;
      if (result.outcome === "sent") sent += 1; else refused += 1;
      last = result;
      return next();
    });
  }
  next().then(function (done) {
    flushing = false;
    if (done) attempt = 0; else scheduleRetry();
    if (sent || refused) {
      if (last && (last.status === 200 || last.status === 409)) swapSheet(last.html, last.reswap);
      else refreshSheet();
      if (sent) say(interpolate(ngettext("%(n)s hand kept on this phone was sent and saved.", "%(n)s hands kept on this phone were sent and saved.", sent), { n: sent }, true));
    }
    render();
  });
}

/* The whole sheet, asked and swapped in by htmx (sheet.js shows what was saved). */
function refreshSheet() {
  var sheet = document.getElementById("sheet");
  if (!sheet || !window.htmx) return;
  window.htmx.ajax("GET", sheetUrl, { source: outbox, target: sheet, swap: "outerHTML" })
    .then(keepPage, function () { /* the poll catches up */ });
}

// A tap on the table's tools kept in the outbox (table-tools.js): it goes in its turn.
document.addEventListener("sk:outbox", function (e) {
  var item = e.detail && e.detail.item;
  if (!storeOk || !item || item.game !== game) return;
  if (!items.some(function (i) { return i.key === item.key; })) items.push(item);
  flush();
});

// ---- what a part swapped in leaves out ----------------------------------------------
// The live answer is one fragment for every phone (cached per game version): its forms
// carry no form token and the entry no key of its own. The token is the page's
// (hx-headers, which htmx sends with every request too); a key is made here, as the
// outbox makes one for each hand it keeps (replacing this one on submit).

function fillIn(root) {
  if (!root || !root.querySelectorAll) return;
  var token = store.csrfToken();
  if (token) {
    root.querySelectorAll('input[name="csrfmiddlewaretoken"]').forEach(function (input) {
      if (!input.value) input.value = token;
    });
  }
  root.querySelectorAll('#entry form.entry-form input[name="idempotency_key"]').forEach(function (input) {
    if (!input.value) input.value = store.newKey();
  });
}

document.addEventListener("htmx:load", function (e) { fillIn(e.detail && e.detail.elt); });
document.addEventListener("DOMContentLoaded", function () { fillIn(document); });

// ---- the live poll ----------------------------------------------------------------

function poller() { return document.getElementById("sheet-poller"); }

document.addEventListener("htmx:beforeRequest", function (e) {
  var elt = e.detail && e.detail.elt;
  if (!elt) return;
  var hidden = document.visibilityState === "hidden";
  if (elt.id === "sheet-poller" && (hidden || !navigator.onLine || flushing || waiting().length)) {
    e.preventDefault();
  } else if (!navigator.onLine && elt.closest && elt.closest("#sheet")) {
    e.preventDefault();   // nothing to ask the server offline
    if (elt.id !== "preview") say(gettext("Offline: that needs the connection. Hands you save are kept on this phone."));
  }
});

function refreshNow() {
  var p = poller();
  if (p && window.htmx && navigator.onLine && document.visibilityState !== "hidden" && !waiting().length) {
    window.htmx.trigger(p, "sk-refresh");
  }
}

document.addEventListener("visibilitychange", function () {
  if (document.visibilityState === "visible") { refreshNow(); flush(); }
});

window.addEventListener("pageshow", function (e) {
  if (!e.persisted) return;
  // Restored from the back/forward cache: what the other phones did meanwhile, at once.
  load().then(function () { refreshNow(); flush(); });
});

window.addEventListener("online", function () { attempt = 0; render(); flush(); refreshNow(); });
window.addEventListener("offline", render);

// ---- start --------------------------------------------------------------------------

function load() {
  if (!storeOk) return Promise.resolve();
  return store.list(game).then(function (found) {
    items = found;
    var panel = entryPanel();
    var after = waiting().reduce(function (n, i) { return Math.max(n, i.number + 1); }, 0);
    if (panel && after > Number(panel.dataset.number)) renderPanel(after);
    render();
  }, function () {
    storeOk = false;
    render();
  });
}

if (outbox) {
  // A hand that has no answer in this long is kept and sent again later (htmx's timeout
  // for the requests made from the outbox's element).
  outbox.setAttribute("hx-request", JSON.stringify({ timeout: SEND_TIMEOUT_MS }));
  document.addEventListener("DOMContentLoaded", function () {
    load().then(function () { flush(); });
  });
}
