/* scorekeeper — entries in progress on the score sheet, kept per game and hand number in
 * sessionStorage so they survive a reload and Back/Forward (offline-sheet.js uses them).
 * drafts (exported):
 *   fieldsOf(form, submitter)  the entry's fields as [name, value] pairs (no tokens)
 *   isEmpty(pairs)             nothing typed
 *   read(game, number)         the saved draft { fields, at } or null
 *   write(game, number, pairs) keep pairs (or forget the draft when empty or null)
 *   save(game, form)           keep the new-hand entry form's fields
 *   fill(form, pairs)          put saved values back into a form
 *   takeOlder(game, number)    remove and return the drafts of hands before number
 *                              ([{ number, fields }]): hands another phone recorded
 *   learnNames(game, panel)    remember the names of the players the panel shows
 *                              (sessionStorage "sk:names:<game>", kept-draft.js too)
 *   summaryOf(game, pairs)     an entry in a line: "Ana went out · Bo: JK A · Cy: 4"
 */

var SKIP = { csrfmiddlewaretoken: 1, idempotency_key: 1, number: 1, edit_number: 1 };

function prefix(game) { return "sk:draft:" + game + ":"; }

function fieldsOf(form, submitter) {
  var data;
  try { data = new FormData(form, submitter || undefined); } catch (e) {
    data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
  }
  var pairs = [];
  data.forEach(function (value, name) {
    if (!SKIP[name] && typeof value === "string") pairs.push([name, value]);
  });
  return pairs;
}

function isEmpty(pairs) {
  return !pairs.some(function (p) { return p[1].trim() !== ""; });
}

function read(game, number) {
  try {
    var saved = JSON.parse(window.sessionStorage.getItem(prefix(game) + number) || "null");
    return saved && Array.isArray(saved.fields) ? saved : null;
  } catch (e) { return null; }
}

function write(game, number, pairs) {
  try {
    var key = prefix(game) + number;
    if (!pairs || isEmpty(pairs)) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, JSON.stringify({ fields: pairs, at: Date.now() }));
  } catch (e) { /* storage full or refused: the entry lives in the form only */ }
}

function save(game, form) {
  var panel = form.closest("#entry");
  if (!panel || panel.dataset.mode !== "new") return;
  write(game, panel.dataset.number, fieldsOf(form));
}

/* Put saved values back into a form not yet enhanced by sheet.js. */
function fill(form, pairs) {
  var values = {};
  pairs.forEach(function (p) { (values[p[0]] = values[p[0]] || []).push(p[1]); });
  Array.prototype.forEach.call(form.elements, function (field) {
    var name = field.name;
    if (!name || SKIP[name]) return;
    var type = (field.type || "").toLowerCase();
    if (type === "submit" || type === "button" || type === "hidden" || type === "file") return;
    var list = values[name] || [];
    if (type === "radio" || type === "checkbox") {
      field.checked = list.indexOf(field.value) >= 0;
    } else {
      field.value = list.length ? list.shift() : "";
    }
  });
}

function takeOlder(game, number) {
  var start = prefix(game);
  var found = [];
  try {
    for (var i = 0; i < window.sessionStorage.length; i++) {
      var key = window.sessionStorage.key(i);
      if (key && key.indexOf(start) === 0 && Number(key.slice(start.length)) < number) found.push(key);
    }
  } catch (e) { return []; }
  var taken = [];
  found.forEach(function (key) {
    var n = Number(key.slice(start.length));
    var draft = read(game, n);
    window.sessionStorage.removeItem(key);
    if (draft && !isEmpty(draft.fields)) taken.push({ number: n, fields: draft.fields });
  });
  return taken;
}

// ---- what an entry says, in a line ----------------------------------------------

var labels = {};   // player id -> name, read from the panel
var labelsOf = null;   // the game they are of
var verb = "out";   // how the panel asks who won the hand: "out", "won" or "claimed"

function namesFor(game) {
  if (labelsOf === game) return;
  labelsOf = game;
  try {
    labels = JSON.parse(window.sessionStorage.getItem("sk:names:" + game) || "{}") || {};
  } catch (e) { labels = {}; }
}

function learnNames(game, panel) {
  namesFor(game);
  verb = panel.querySelector(".winner-buttons") ? "won" : panel.querySelector(".suit-pick") ? "claimed" : "out";
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

function nameOf(id) { return labels[id] || interpolate(gettext("player %(id)s"), { id: id }, true); }

/* "Ana went out" (or won it, or claimed). */
function winnerText(name) {
  var said = verb === "won" ? gettext("%(name)s won it") : verb === "claimed" ? gettext("%(name)s claimed") : gettext("%(name)s went out");
  return interpolate(said, { name: name }, true);
}

function summaryOf(game, pairs) {
  namesFor(game);
  var parts = [], per = {}, order = [];
  pairs.forEach(function (p) {
    var name = p[0], value = p[1].trim();
    if (!value) return;
    var m = /^(cards|points|passes|cards_left)_(\d+)$/.exec(name);
    if (m) {
      if (!per[m[2]]) { per[m[2]] = []; order.push(m[2]); }
      var text = {
        cards: value,
        points: interpolate(gettext("%(n)s pts"), { n: value }, true),
        passes: interpolate(gettext("%(n)s passes"), { n: value }, true),
        cards_left: interpolate(gettext("%(n)s cards left"), { n: value }, true)
      }[m[1]];
      per[m[2]].push(text);
    } else if (name === "winner") {
      parts.unshift(winnerText(nameOf(value)));
    } else if (name === "suit") {
      parts.push(interpolate(gettext("suit %(suit)s"), { suit: value }, true));
    } else if (name === "surplus") {
      parts.push(interpolate(gettext("surplus %(cards)s"), { cards: value }, true));
    } else if (name === "bower_holder") {
      parts.push(interpolate(gettext("bower with %(name)s"), { name: nameOf(value) }, true));
    } else if (name === "surplus_count") {
      parts.push(interpolate(gettext("%(n)s surplus"), { n: value }, true));
    }
  });
  order.forEach(function (id) { parts.push(nameOf(id) + ": " + per[id].join(", ")); });
  return parts.join(" · ") || gettext("nothing entered");
}

export const drafts = {
  fieldsOf: fieldsOf, isEmpty: isEmpty, read: read, write: write, save: save,
  fill: fill, takeOlder: takeOlder, learnNames: learnNames, summaryOf: summaryOf
};
