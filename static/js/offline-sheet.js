/* scorekeeper — the score sheet when the connection or the browser lets a player down.
 *
 *  - A hand saved is written to the outbox (offline-queue.js) before it is sent, with a
 *    key made on this phone: offline it waits there, shown on the sheet, and is sent by
 *    itself when the connection returns (in order, retried with backoff). However often
 *    it is sent, the server records it once.
 *  - A hand the server refuses (another phone recorded that hand, the game is over…) is
 *    held with the reason until the user re-enters it as the next hand or discards it.
 *  - An entry in progress is kept per game and hand number (offline-drafts.js): it
 *    survives a reload and Back/Forward; one overtaken by another phone is held too.
 *  - The live poll pauses while the page is hidden, offline or sending, and a page
 *    restored from the back/forward cache refreshes at once.
 * Without this file (or without IndexedDB) the sheet's forms post as before.
 */
(function () {
  "use strict";

  var outbox = document.getElementById("sheet-outbox");
  var store = window.SKOutbox;
  var game = outbox ? outbox.dataset.game : "";
  var sheetUrl = outbox ? outbox.dataset.sheetUrl : "";
  var loginPath = document.body.dataset.loginUrl;   // sent there once signed out
  var drafts = window.SKDrafts;
  var SEND_TIMEOUT_MS = 12000;
  var MAX_DELAY_MS = 60000;

  var items = [];          // this game's outbox, in the order saved
  var storeOk = !!(outbox && store && drafts);
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

  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }

  function waiting() { return items.filter(function (i) { return i.state !== "held"; }); }
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
        key: store.newKey(), game: game, number: n, action: "", body: "",
        fields: draft.fields, summary: summaryOf(draft.fields), seq: store.nextSeq(),
        savedAt: new Date().toISOString(), state: "held",
        reason: "Hand " + n + " was saved on another phone while this entry was being made: it was not sent."
      };
      items.push(item);
      store.put(item).catch(function () { /* kept on screen for now */ });
    });
    if (found.length) render();
  }

  // ---- what an entry says, in a line ----------------------------------------------

  var labels = {};   // player id -> name, read from the panel
  var verb = "went out";

  function learnNames(panel) {
    verb = panel.querySelector(".winner-buttons") ? "won it" : panel.querySelector(".suit-pick") ? "claimed" : "went out";
    panel.querySelectorAll("[data-player][data-name]").forEach(function (node) {
      labels[node.dataset.player] = node.dataset.name;
    });
    panel.querySelectorAll('input[name="winner"]').forEach(function (input) {
      var label = input.closest("label");
      if (label && !labels[input.value]) labels[input.value] = label.textContent.trim();
    });
    panel.querySelectorAll("button[name='winner']").forEach(function (button) {
      var name = button.querySelector(".winner-name");
      if (name && !labels[button.value]) labels[button.value] = name.textContent.trim();
    });
    try { window.sessionStorage.setItem("sk:names:" + game, JSON.stringify(labels)); } catch (e) { /* fine */ }
  }

  function nameOf(id) { return labels[id] || "player " + id; }

  function summaryOf(pairs) {
    var parts = [], per = {}, order = [];
    pairs.forEach(function (p) {
      var name = p[0], value = p[1].trim();
      if (!value) return;
      var m = /^(cards|points|passes|cards_left)_(\d+)$/.exec(name);
      if (m) {
        if (!per[m[2]]) { per[m[2]] = []; order.push(m[2]); }
        var text = { cards: value, points: value + " pts", passes: value + " passes", cards_left: value + " cards left" }[m[1]];
        per[m[2]].push(text);
      } else if (name === "winner") {
        parts.unshift(nameOf(value) + " " + verb);
      } else if (name === "suit") {
        parts.push("suit " + value);
      } else if (name === "surplus") {
        parts.push("surplus " + value);
      } else if (name === "bower_holder") {
        parts.push("bower with " + nameOf(value));
      } else if (name === "surplus_count") {
        parts.push(value + " surplus");
      }
    });
    order.forEach(function (id) { parts.push(nameOf(id) + ": " + per[id].join(", ")); });
    return parts.join(" · ") || "nothing entered";
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
      p.appendChild(el("strong", "", "Offline."));
      p.appendChild(document.createTextNode(" Hands you save are kept on this phone and sent when the connection returns."));
      status.appendChild(p);
    }
    if (wait.length) {
      var line = el("p", "outbox-waiting");
      line.appendChild(el("strong", "", plural(wait.length, "hand", "hands") + " waiting to send"));
      var when = flushing ? " · sending…" : offline ? " · sent when back online" :
        retryAt ? " · next try in " + Math.max(1, Math.round((retryAt - Date.now()) / 1000)) + " s" : "";
      line.appendChild(document.createTextNode(when));
      status.appendChild(line);
      var list = el("ol", "outbox-list");
      wait.forEach(function (item) {
        var li = el("li", "outbox-item");
        li.appendChild(el("strong", "", "Hand " + item.number));
        li.appendChild(document.createTextNode(" · " + item.summary));
        list.appendChild(li);
      });
      status.appendChild(list);
      if (!offline && !flushing) status.appendChild(button("Send now", "secondary outbox-send", function () { flush(); }));
    }
    if (note) status.appendChild(el("p", "outbox-note", note));
    if (status.childNodes.length) outbox.appendChild(status);
    var panel = entryPanel();
    hold.forEach(function (item) {
      var box = el("div", "outbox-held");
      box.setAttribute("role", "alert");
      box.dataset.key = item.key;
      var head = el("p", "outbox-held-head");
      head.appendChild(el("strong", "", "Hand " + item.number + " was not saved."));
      head.appendChild(document.createTextNode(" " + (item.reason || "")));
      box.appendChild(head);
      box.appendChild(el("p", "outbox-held-entry", item.summary));
      var actions = el("div", "button-row outbox-held-actions");
      if (item.confirm) {
        // An unlikely hand: the server asks before saving it (see confirm.js).
        (item.question || []).forEach(function (line) { box.insertBefore(el("p", "entry-confirm-line", line), box.lastChild); });
        actions.appendChild(button("Save anyway", "outbox-confirm", function () { confirmHeld(item); }));
        if (panel) actions.appendChild(button("Fix it", "secondary outbox-reenter", function () { reenter(item); }));
      } else if (panel) {
        actions.appendChild(button("Enter it as hand " + panel.dataset.number, "outbox-reenter", function () { reenter(item); }));
      }
      actions.appendChild(button("Discard it", "secondary outbox-discard", function () { discard(item); }));
      box.appendChild(actions);
      outbox.appendChild(box);
    });
    outbox.hidden = !outbox.childNodes.length;
    if (window.SKAhead) window.SKAhead.waiting(wait);
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
        !window.confirm("Replace the entry in progress for hand " + number + " with hand " + item.number + "'s?")) return;
    writeDraft(number, item.fields);
    items = items.filter(function (i) { return i.key !== item.key; });
    store.remove(item.key).catch(function () { /* already gone */ });
    renderPanel(Number(number));
    say("Hand " + item.number + "'s entry is in the form as hand " + number + ": check it, then save.");
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
    if (!window.confirm("Discard hand " + item.number + "'s entry? It was never saved.")) return;
    items = items.filter(function (i) { return i.key !== item.key; });
    store.remove(item.key).catch(function () { /* already gone */ });
    say("Hand " + item.number + "'s entry was discarded.");
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
        heading.textContent = "Enter hand " + number + " ";
        heading.appendChild(el("small", "muted", "· after the hands waiting to send"));
      }
      panel.querySelectorAll(".entry-save").forEach(function (b) {
        if (!b.classList.contains("winner-button")) b.textContent = "Save hand " + number;
      });
      panel.querySelectorAll("legend, h3").forEach(function (n) {
        n.childNodes.forEach(function (t) {
          if (t.nodeType === 3) t.textContent = t.textContent.replace(/\bhand \d+\b/, "hand " + number);
        });
      });
      // The coming hand's dealer, pad values and facts, where the sheet carries them.
      var ahead = window.SKAhead ? window.SKAhead.panel(panel, number) : "unknown";
      panel.querySelectorAll(ahead === "known" ? ".preview" : ".dirt-callout, .reminder, .preview").forEach(function (n) { n.remove(); });
      panel.querySelectorAll("[data-storage-key]").forEach(function (n) { n.removeAttribute("data-storage-key"); });
    }
    if (window.SKAhead) window.SKAhead.banner(number);
    current.replaceWith(panel);
    var jump = document.querySelector("#sheet-banner .banner-jump");
    if (jump) jump.textContent = "Enter hand " + number + " ↓";
    if (window.htmx) window.htmx.process(panel);
    panel.dispatchEvent(new CustomEvent("htmx:load", { bubbles: true, detail: { elt: panel } }));
  }

  document.addEventListener("sk:panel", function (e) {
    var panel = e.target;
    if (!outbox || !drafts || panel.id !== "entry" || panel.dataset.mode !== "new") return;
    var number = Number(panel.dataset.number);
    if (!panel.dataset.local) {
      pristine = { html: panel.outerHTML, number: number };
      holdOvertaken(number);
    }
    learnNames(panel);
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
      if (form && drafts) saveDraft(form);
    });
  });

  // ---- saving a hand ----------------------------------------------------------------

  function csrfHeader() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) { return ""; }
  }

  /* A kept hand is sent with the page's current form token, not the one its form had when
     it was kept: a sign-in elsewhere, or a page served from the phone's copy, may have
     made that one stale. */
  function withCurrentToken(body) {
    var params = new URLSearchParams(body), token = csrfHeader();
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
    if (!token || token === csrfHeader()) return false;
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
    if (!storeOk || !form.matches || !form.matches("#entry form.entry-form")) return;
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
      key: key, game: game, number: number, action: form.action, body: body.toString(),
      fields: pairs, summary: summaryOf(pairs), seq: store.nextSeq(),
      savedAt: new Date().toISOString(), state: "waiting", reason: ""
    };
    var direct = navigator.onLine && !waiting().length && !flushing;
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
    outbox.scrollIntoView({ block: "start" });
  }

  function reasonFrom(status, html) {
    var doc = new DOMParser().parseFromString(html || "", "text/html");
    var found = doc.querySelector(".entry-errors p, #sheet-notice .notice, .form-errors, main p");
    var text = found ? found.textContent.trim().replace(/\s+/g, " ").replace(/^Not saved[:.]\s*/, "") : "";
    text = text.charAt(0).toUpperCase() + text.slice(1);
    if (status === 403) return "You may not change this sheet any more.";
    if (status === 404) return "The game is gone: it was deleted, or it is no longer shared with you.";
    return text || "The server refused it (" + status + ").";
  }

  /* The question an unlikely hand came back with: { lines, token }, or null. */
  function questionFrom(html) {
    var doc = new DOMParser().parseFromString(html || "", "text/html");
    var box = doc.querySelector(".entry-confirm[data-confirm]");
    if (!box) return null;
    var lines = Array.prototype.map.call(box.querySelectorAll(".entry-confirm-line"), function (p) {
      return p.textContent.trim();
    });
    return { lines: lines.concat(["Save anyway?"]), token: box.dataset.confirm };
  }

  function swapSheet(html) {
    var sheet = document.getElementById("sheet");
    if (!sheet || !window.htmx) return;
    window.htmx.swap(sheet, html, { swapStyle: "outerHTML" });
    if (window.SKKeepPage) window.SKKeepPage();
    // As after any save: the next hand's first question in view, or the notice to read.
    if (window.SKShowSaved) window.SKShowSaved();
  }

  /* Send one hand. Resolves "sent", "held", "kept" (try again later). */
  function sendOne(item, direct) {
    var form = direct ? document.querySelector("#entry form.entry-form") : null;
    var controller = window.AbortController ? new AbortController() : null;
    var timer = window.setTimeout(function () { if (controller) controller.abort(); }, SEND_TIMEOUT_MS);
    return fetch(item.action, {
      method: "POST",
      body: withCurrentToken(item.body),
      credentials: "same-origin",
      signal: controller ? controller.signal : undefined,
      headers: {
        "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8",
        "HX-Request": "true",
        "HX-Target": "sheet",
        "Idempotency-Key": item.key,
        "X-CSRFToken": csrfHeader()
      }
    }).then(function (response) {
      window.clearTimeout(timer);
      return response.text().then(function (html) {
        var status = response.status;
        var signedOut = response.redirected && new URL(response.url).pathname === loginPath;
        if (signedOut || status >= 500 || status === 429 || status === 408) {
          if (signedOut) say("Sign in again: the hands kept on this phone are sent once you are signed in.");
          throw new Error("not yet");
        }
        // An expired form token (a sign-in, or a late answer that set the cookie back):
        // send it again at once with the current one the refusal carries, once per hand.
        if (status === 403 && response.headers.get("X-CSRF-Failure") && !item.renewed && renewToken(html)) {
          item.renewed = true;
          return sendOne(item, direct);
        }
        items = items.filter(function (i) { return i.key !== item.key; });
        // Taps made while it was on its way are not an entry another phone overtook.
        if (status !== 422) writeDraft(item.number, null);
        if (status === 200 || (status === 422 && direct)) {
          store.remove(item.key);
          if (direct) { setSaving(form, false); swapSheet(html); }
          return { outcome: "sent", status: status, html: html };
        }
        item.state = "held";
        item.reason = reasonFrom(status, html);
        var asked = status === 422 ? questionFrom(html) : null;
        if (asked) {
          item.reason = "It waits for a yes:";
          item.question = asked.lines;
          item.confirm = asked.token;
        }
        items.push(item);
        return store.put(item).then(function () {
          if (direct) { setSaving(form, false); if (status === 409) swapSheet(html); render(); }
          return { outcome: "held", status: status, html: html };
        });
      });
    }).catch(function () {
      window.clearTimeout(timer);
      if (items.indexOf(item) < 0 && item.state !== "held") items.push(item);
      if (direct) {
        setSaving(form, false);
        kept(item.number);
        scheduleRetry();
      }
      return { outcome: "kept" };
    });
  }

  function scheduleRetry() {
    window.clearTimeout(retryTimer);
    if (!waiting().length) { retryAt = 0; return; }
    var delay = Math.min(MAX_DELAY_MS, 2000 * Math.pow(2, attempt));
    attempt += 1;
    retryAt = Date.now() + delay;
    retryTimer = window.setTimeout(function () { retryAt = 0; flush(); }, delay);
    render();
  }

  /* Send the waiting hands, oldest first, one at a time. */
  function flush() {
    if (flushing || !storeOk || !navigator.onLine || !waiting().length) { render(); return; }
    flushing = true;
    window.clearTimeout(retryTimer);
    retryAt = 0;
    render();
    var sent = 0, refused = 0, last = null;
    function next() {
      var item = waiting()[0];
      if (!item) return Promise.resolve(true);
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
        if (last && (last.status === 200 || last.status === 409)) swapSheet(last.html);
        else refreshSheet();
        if (sent) say(plural(sent, "hand", "hands") + " kept on this phone " + (sent === 1 ? "was" : "were") + " sent and saved.");
      }
      render();
    });
  }

  function refreshSheet() {
    fetch(sheetUrl, { credentials: "same-origin", headers: { "HX-Request": "true", "HX-Target": "sheet" } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(new Error(String(r.status))); })
      .then(swapSheet)
      .catch(function () { /* the poll catches up */ });
  }

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
      if (elt.id !== "preview") say("Offline: that needs the connection. Hands you save are kept on this phone.");
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
      var ahead = waiting().reduce(function (n, i) { return Math.max(n, i.number + 1); }, 0);
      if (panel && ahead > Number(panel.dataset.number)) renderPanel(ahead);
      render();
    }, function () {
      storeOk = false;
      render();
    });
  }

  if (outbox) {
    try {
      labels = JSON.parse(window.sessionStorage.getItem("sk:names:" + game) || "{}") || {};
    } catch (e) { labels = {}; }
    document.addEventListener("DOMContentLoaded", function () {
      load().then(function () { flush(); });
    });
  }
})();
