/* scorekeeper — the hand a guest was entering when their access to the game ended.
 *
 * The sheet keeps an entry in progress in sessionStorage (offline-drafts.js). When a
 * guest's link is revoked, or the owner removes them, their sheet is sent to
 * /games/<id>/ended/; there this file moves that entry into localStorage
 * ("sk:kept:<game>", so it outlives the tab), shows it read-only with Copy and Forget.
 * On the sheet, should the phone be let in again (a new link), it puts a kept entry
 * back among the drafts before the sheet restores them, so it returns to the entry
 * form (or is held as overtaken when that hand was recorded meanwhile).
 * No inline script: the page runs under a strict CSP.
 */

function keptKey(game) { return "sk:kept:" + game; }
function draftPrefix(game) { return "sk:draft:" + game + ":"; }

function readJson(storage, key) {
  try { return JSON.parse(storage.getItem(key) || "null"); } catch (e) { return null; }
}

function filled(fields) {
  return Array.isArray(fields) && fields.some(function (p) { return String(p[1]).trim() !== ""; });
}

// The newest entry in progress this tab kept for ``game``: { number, fields, at }.
function sessionDraft(game) {
  var start = draftPrefix(game), best = null;
  try {
    for (var i = 0; i < window.sessionStorage.length; i++) {
      var key = window.sessionStorage.key(i);
      if (!key || key.indexOf(start) !== 0) continue;
      var draft = readJson(window.sessionStorage, key);
      if (!draft || !filled(draft.fields)) continue;
      if (!best || (draft.at || 0) > best.at) {
        best = { number: Number(key.slice(start.length)), fields: draft.fields, at: draft.at || 0 };
      }
    }
  } catch (e) { return null; }
  return best;
}

function lines(kept) {
  var names = kept.names || {};
  function who(id) { return names[id] || interpolate(gettext("player %(id)s"), { id: id }, true); }
  var out = [interpolate(gettext("Hand %(number)s"), { number: kept.number }, true)], per = {}, order = [];
  kept.fields.forEach(function (p) {
    var name = p[0], value = String(p[1]).trim();
    if (!value) return;
    var m = /^(cards_left|cards|points|passes)_(\d+)$/.exec(name);
    if (m) {
      if (!per[m[2]]) { per[m[2]] = []; order.push(m[2]); }
      per[m[2]].push({
        cards: interpolate(gettext("cards %(cards)s"), { cards: value }, true),
        points: interpolate(gettext("%(n)s points"), { n: value }, true),
        passes: interpolate(gettext("%(n)s passes"), { n: value }, true),
        cards_left: interpolate(gettext("%(n)s cards left"), { n: value }, true)
      }[m[1]]);
    } else if (name === "winner") {
      out.push(interpolate(gettext("Went out (or won): %(name)s"), { name: who(value) }, true));
    } else if (name === "bower_holder") {
      out.push(interpolate(gettext("Bower: %(name)s"), { name: who(value) }, true));
    } else {
      out.push(name.replace(/_/g, " ") + ": " + value);
    }
  });
  order.forEach(function (id) { out.push(who(id) + ": " + per[id].join(", ")); });
  return out;
}

// ---- the "access ended" page --------------------------------------------------------

function showKept(box) {
  var game = box.dataset.game;
  var kept = readJson(window.localStorage, keptKey(game));
  var fresh = sessionDraft(game);
  if (fresh && (!kept || fresh.at >= (kept.at || 0))) {
    kept = {
      number: fresh.number, fields: fresh.fields, at: fresh.at,
      names: readJson(window.sessionStorage, "sk:names:" + game) || {}
    };
    try { window.localStorage.setItem(keptKey(game), JSON.stringify(kept)); } catch (e) { /* shown anyway */ }
  }
  if (!kept || !filled(kept.fields)) return;
  var text = lines(kept);
  var list = box.querySelector("[data-kept-lines]");
  list.textContent = "";
  text.forEach(function (line) {
    var item = document.createElement("li");
    item.textContent = line;
    list.appendChild(item);
  });
  var status = box.querySelector("[data-kept-status]");
  box.querySelector("[data-kept-copy]").addEventListener("click", function () {
    var said = function (words) { status.textContent = words; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text.join("\n")).then(
        function () { said(gettext("Copied.")); },
        function () { said(gettext("Could not copy: select the lines above instead.")); });
    } else {
      said(gettext("Could not copy: select the lines above instead."));
    }
  });
  box.querySelector("[data-kept-forget]").addEventListener("click", function () {
    try {
      window.localStorage.removeItem(keptKey(game));
      window.sessionStorage.removeItem(draftPrefix(game) + kept.number);
    } catch (e) { /* gone from the page anyway */ }
    list.textContent = "";
    box.hidden = true;
  });
  box.hidden = false;
}

// ---- the sheet, when the phone is let in again ---------------------------------------

function restoreKept() {
  var sheet = document.getElementById("sheet");
  var game = sheet ? sheet.dataset.game : "";
  if (!game || !document.querySelector("#entry form.entry-form")) return;
  var kept = readJson(window.localStorage, keptKey(game));
  if (!kept || !filled(kept.fields)) return;
  try {
    var key = draftPrefix(game) + kept.number;
    if (!readJson(window.sessionStorage, key)) {
      window.sessionStorage.setItem(key, JSON.stringify({ fields: kept.fields, at: kept.at || Date.now() }));
    }
    window.localStorage.removeItem(keptKey(game));
  } catch (e) { /* storage refused: the kept copy stays for next time */ }
}

var box = document.getElementById("kept-draft");
if (box) showKept(box);
else restoreKept();   // now, before the sheet restores its drafts on DOMContentLoaded
