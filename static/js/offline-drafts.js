/* scorekeeper — entries in progress on the score sheet, kept per game and hand number in
 * sessionStorage so they survive a reload and Back/Forward (offline-sheet.js uses them).
 * window.SKDrafts:
 *   fieldsOf(form, submitter)  the entry's fields as [name, value] pairs (no tokens)
 *   isEmpty(pairs)             nothing typed
 *   read(game, number)         the saved draft { fields, at } or null
 *   write(game, number, pairs) keep pairs (or forget the draft when empty or null)
 *   save(game, form)           keep the new-hand entry form's fields
 *   fill(form, pairs)          put saved values back into a form
 *   takeOlder(game, number)    remove and return the drafts of hands before number
 *                              ([{ number, fields }]): hands another phone recorded
 */
(function () {
  "use strict";

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

  window.SKDrafts = {
    fieldsOf: fieldsOf, isEmpty: isEmpty, read: read, write: write, save: save,
    fill: fill, takeOlder: takeOlder
  };
})();
