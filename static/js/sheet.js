/* scorekeeper — the score sheet's progressive enhancement.
 *
 * The sheet works without this file: every form posts and every link loads a page. With
 * it, the entry panel gets tally pads (tap the cards left in a hand, see the points
 * live), a pass counter for D$%n You! that survives a reload, and helpers for Dirty
 * Deals. Points shown here are a convenience added up from the table the server sends
 * (the engine's own card values); what is saved is always scored by the server.
 * No inline script or style anywhere: the page runs under a strict CSP.
 */

function each(root, selector, fn) {
  if (!root || !root.querySelectorAll) return;
  if (root.matches && root.matches(selector)) fn(root);
  root.querySelectorAll(selector).forEach(fn);
}

function el(tag, className, text) {
  var node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function changed(form) {
  form.dispatchEvent(new CustomEvent("sk:changed", { bubbles: true }));
}

function checkedValue(form, name) {
  var input = form.querySelector('input[name="' + name + '"]:checked');
  return input ? input.value : "";
}

function buzz() {
  if (navigator.vibrate) {
    try { navigator.vibrate(12); } catch (e) { /* not allowed: fine */ }
  }
}

// ---- cards: parsing what a pad holds -----------------------------------------------

var SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
var SYMBOL_SUIT = { "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C" };
var UNO_WILDS = { "W": "W", "WILD": "W", "W+4": "W+4", "WD4": "W+4", "+4": "W+4", "WILD+4": "W+4", "W4": "W+4" };
var UNO_ALIASES = { "SKIP": "S", "REVERSE": "R", "REV": "R", "D2": "+2", "DRAW2": "+2", "DT": "+2" };

// A card is { key, suit, code }: key is the pad button (rank or UNO value), suit the
// suit or colour letter, "" when not given. Suits and colours score nothing in these
// games, so a rank alone ("4", "T") or value alone ("7", "S", "R", "+2") is a card too,
// and is sent as typed: the server stores what the table reported. As on the server, a
// bare "R" is a Reverse; "RR" is the red one and "R7" a red 7. (offline-ahead.js reads
// a hand kept on the phone with it, as a pad reads it.)
export function parseCard(token, config, byKey) {
  var text = token.toUpperCase().replace(/\s+/g, "");
  if (config.kind === "french") {
    text = text.replace(/[♠♤♥♡♦♢♣♧]/g, function (s) { return SYMBOL_SUIT[s]; });
    if (text === "JK" || text === "JOKER" || text === "JKR" || text === "🃏") return { key: "JK", suit: "", code: "JK" };
    var alone = text === "T" ? "10" : text;
    if (byKey[alone]) return { key: alone, suit: "", code: alone };
    var rank = text.slice(0, -1), suit = text.slice(-1);
    if (!SUIT_SYMBOL[suit]) { rank = text.slice(1); suit = text.charAt(0); }
    if (rank === "T") rank = "10";
    if (!SUIT_SYMBOL[suit] || !byKey[rank] || rank === "JK") return null;
    return { key: rank, suit: suit, code: rank + suit };
  }
  if (UNO_WILDS[text]) return { key: UNO_WILDS[text], suit: "", code: UNO_WILDS[text] };
  var only = UNO_ALIASES[text] || text;
  if (byKey[only] && only.charAt(0) !== "W") return { key: only, suit: "", code: only };
  var colour = text.charAt(0), value = text.slice(1);
  value = UNO_ALIASES[value] || value;
  if ("RYGB".indexOf(colour) < 0 || !colour || !byKey[value] || value.charAt(0) === "W") return null;
  return { key: value, suit: colour, code: colour + value };
}

// The code of a pad button with a suit (or colour) picked, or "" for none: then the
// code is the rank (or value) alone.
function codeFor(config, key, suit) {
  if (config.kind === "french") return key === "JK" ? "JK" : key + suit;
  return key.charAt(0) === "W" ? key : suit + key;
}

function tokens(input) {
  return input.value.split(/[\s,]+/).filter(Boolean);
}


// ---- tally pads (Dirt, Dirty UNO) --------------------------------------------------

function enhancePads(panel, form) {
  var script = panel.querySelector("#pad-config");
  if (!script) return;
  var config = JSON.parse(script.textContent);
  var byKey = {};
  config.values.forEach(function (v) { byKey[v.key] = v; });
  var pads = Array.prototype.slice.call(panel.querySelectorAll(".pad"));

  // Cards entered on the pads in play: by code, and by pad button (rank or value,
  // with or without suit), the two limits the server checks.
  function usedCounts() {
    var used = { code: {}, key: {} };
    pads.forEach(function (pad) {
      var input = pad.querySelector(".cards-input");
      if (input.disabled) return;
      tokens(input).forEach(function (t) {
        var card = parseCard(t, config, byKey);
        if (!card) return;
        used.code[card.code] = (used.code[card.code] || 0) + 1;
        used.key[card.key] = (used.key[card.key] || 0) + 1;
      });
    });
    return used;
  }

  // Copies of a rank (or value) in the deck, over all suits (or colours).
  function keyCopies(key) {
    if (!byKey[key].suited) return config.deck[codeFor(config, key, "")] || 0;
    var total = 0;
    config.suits.forEach(function (s) { total += config.deck[codeFor(config, key, s.key)] || 0; });
    return total;
  }

  function winner() { return checkedValue(form, "winner"); }

  function padPoints(pad) {
    var input = pad.querySelector(".cards-input");
    var sum = 0, unknown = 0;
    tokens(input).forEach(function (t) {
      var card = parseCard(t, config, byKey);
      if (card) sum += byKey[card.key].points; else unknown += 1;
    });
    return { sum: sum, unknown: unknown, count: tokens(input).length };
  }

  function render(pad) {
    var input = pad.querySelector(".cards-input");
    var points = pad.querySelector(".points-input");
    var chips = pad.querySelector(".pad-chips");
    var out = pad.querySelector(".pad-points");
    chips.textContent = "";
    tokens(input).forEach(function (t, index) {
      var card = parseCard(t, config, byKey);
      var chip = el("button", "chip");
      chip.type = "button";
      chip.dataset.index = String(index);
      if (card) {
        var value = byKey[card.key];
        chip.appendChild(el("span", "chip-rank", value.key === "JK" ? gettext("Joker") : value.label));
        // A card entered by rank (or value) alone shows no suit: none was reported.
        if (card.suit) {
          var suitText = config.kind === "french" ? SUIT_SYMBOL[card.suit] : card.suit;
          chip.appendChild(el("span", "chip-suit", suitText));
        }
        if (config.kind === "uno" && (card.suit || !value.suited)) chip.classList.add("uno-" + (card.suit || "W"));
        if (config.kind === "french" && (card.suit === "H" || card.suit === "D")) chip.classList.add("red");
        if (value.marked) chip.classList.add("marked");
        var named = card.suit || !value.suited ? card.code :
          interpolate(config.kind === "french" ? gettext("%(card)s, any suit") : gettext("%(card)s, any colour"), { card: card.code }, true);
        // The name starts with what the chip shows (WCAG 2.5.3, label in name).
        chip.setAttribute("aria-label", interpolate(ngettext(
          "%(shown)s — take back %(card)s (%(points)s points)", "%(shown)s — take back %(card)s (%(points)s points)", value.points),
          { shown: chip.textContent, card: named, points: value.points }, true));
      } else {
        chip.classList.add("bad");
        chip.appendChild(el("span", "chip-rank", t + "?"));
        chip.setAttribute("aria-label", interpolate(gettext("%(shown)s — take back %(text)s, not a card"), { shown: chip.textContent, text: t }, true));
      }
      chips.appendChild(chip);
    });
    if (!chips.childNodes.length) chips.appendChild(el("span", "chip-empty", gettext("No cards yet")));
    var isOut = pad.classList.contains("is-out");
    // What the pad adds up to is kept as data too (data-points, data-won): the save bar
    // (sheet-layout.js) reads it whatever the page's language.
    if (isOut) {
      var won = config.scoring === "standard" ? standardWinner() : "";
      out.textContent = won ? interpolate(gettext("scores %(points)s"), { points: won }, true) : "0";
      out.dataset.won = won;
      out.dataset.points = "";
    } else if (pad.dataset.mode === "points") {
      out.textContent = points.value === "" ? gettext("– pts") : interpolate(gettext("%(points)s pts"), { points: points.value }, true);
      out.dataset.points = points.value;
    } else {
      var p = padPoints(pad);
      out.textContent = !p.count ? gettext("– pts") : p.unknown ?
        interpolate(gettext("%(points)s pts + ?"), { points: p.sum }, true) : interpolate(gettext("%(points)s pts"), { points: p.sum }, true);
      // (A sum with cards not read stays whole on the save bar, as it shows here.)
      out.dataset.points = !p.count ? "" : p.unknown ? out.textContent : String(p.sum);
    }
    pad.classList.toggle("has-cards", tokens(input).length > 0);
  }

  function standardWinner() {
    // Dirty UNO standard scoring: whoever went out scores the others' cards.
    var total = 0, unknown = false;
    pads.forEach(function (pad) {
      if (pad.classList.contains("is-out")) return;
      if (pad.dataset.mode === "points") {
        var v = parseInt(pad.querySelector(".points-input").value, 10);
        if (isNaN(v)) unknown = true; else total += v;
      } else {
        var p = padPoints(pad);
        if (!p.count || p.unknown) unknown = true;
        total += p.sum;
      }
    });
    return total + (unknown ? "…" : "");
  }

  function renderAll() { pads.forEach(render); }

  function setMode(pad, mode) {
    pad.dataset.mode = mode;
    pad.querySelectorAll(".mode-button").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.mode === mode ? "true" : "false");
    });
    applyDisabled(pad);
  }

  function applyDisabled(pad) {
    var isOut = pad.classList.contains("is-out");
    pad.querySelector(".cards-input").disabled = isOut || pad.dataset.mode === "points";
    pad.querySelector(".points-input").disabled = isOut || pad.dataset.mode !== "points";
    pad.querySelectorAll(".pad-key, .pad-suit, .mode-button, .chip").forEach(function (b) {
      b.disabled = isOut;
    });
  }

  function applyWinner() {
    var w = winner();
    pads.forEach(function (pad) {
      pad.classList.toggle("is-out", pad.dataset.player === w);
      applyDisabled(pad);
    });
    renderAll();
  }

  function message(pad, text) {
    var box = pad.querySelector(".pad-message");
    box.textContent = text;
    if (text) {
      window.clearTimeout(box._timer);
      box._timer = window.setTimeout(function () { box.textContent = ""; }, 4000);
    }
  }

  function add(pad, key) {
    var value = byKey[key];
    var input = pad.querySelector(".cards-input");
    var used = usedCounts();
    var chosen = value.suited ? pad.dataset.suit || "" : "";
    // With no suit picked the card goes in by rank alone: suits score nothing, and
    // what is stored is what the table reported.
    var code = codeFor(config, key, chosen);
    var all = keyCopies(key);
    if (chosen && (used.code[code] || 0) >= (config.deck[code] || 0)) {
      var held = config.deck[code] || 0;
      message(pad, interpolate(ngettext(
        "There is only %(n)s × %(card)s in %(deck)s, all entered.", "There are only %(n)s × %(card)s in %(deck)s, all entered.", held),
        { n: held, card: code, deck: config.deck_name }, true));
      return;
    }
    if ((used.key[key] || 0) >= all) {
      message(pad, key === "JK" ?
        interpolate(ngettext("All %(n)s jokers in %(deck)s are already entered.", "All %(n)s jokers in %(deck)s are already entered.", all),
          { n: all, deck: config.deck_name }, true) :
        interpolate(ngettext("All %(n)s × %(card)s in %(deck)s are already entered.", "All %(n)s × %(card)s in %(deck)s are already entered.", all),
          { n: all, card: value.label, deck: config.deck_name }, true));
      return;
    }
    input.value = tokens(input).concat([code]).join(" ");
    // A suit applies to the next card only: the usual case is "any suit".
    if (chosen) selectSuit(pad, "");
    message(pad, "");
    buzz();
    renderAll();
    changed(form);
  }

  function selectSuit(pad, suit) {
    pad.dataset.suit = suit;
    pad.querySelectorAll(".pad-suit").forEach(function (x) {
      x.setAttribute("aria-pressed", x.dataset.suit === suit ? "true" : "false");
    });
  }

  pads.forEach(function (pad) {
    var input = pad.querySelector(".cards-input");
    var points = pad.querySelector(".points-input");
    var suits = pad.querySelector(".pad-suits");
    var keys = pad.querySelector(".pad-keys");

    // Translators: the suit button for a card entered without its suit (suits score nothing).
    var any = el("button", "pad-suit", gettext("Any"));
    any.type = "button";
    any.dataset.suit = "";
    any.setAttribute("aria-pressed", "true");
    any.title = config.kind === "french" ? gettext("Suits score nothing: record the rank alone") : gettext("Colours score nothing: record the value alone");
    suits.appendChild(any);
    config.suits.forEach(function (s) {
      var b = el("button", "pad-suit" + (s.red ? " red" : "") + (config.kind === "uno" ? " uno-" + s.key : ""), config.kind === "uno" ? s.label.charAt(0) : s.label);
      b.type = "button";
      b.dataset.suit = s.key;
      b.setAttribute("aria-pressed", "false");
      b.setAttribute("aria-label", config.kind === "uno" ? s.label : { S: gettext("spades"), H: gettext("hearts"), D: gettext("diamonds"), C: gettext("clubs") }[s.key]);
      suits.appendChild(b);
    });
    config.values.forEach(function (v) {
      var b = el("button", "pad-key" + (v.marked ? " marked" : ""));
      b.type = "button";
      b.dataset.key = v.key;
      b.appendChild(el("span", "key-label", v.label));
      b.appendChild(document.createTextNode(" "));
      b.appendChild(el("span", "key-points", String(v.points)));
      // Its name is what it shows ("A 15"), then what it does (WCAG 2.5.3, label in name).
      var adds = { card: v.key === "JK" ? gettext("a joker") : v.label, points: v.points, mark: config.marked_as };
      b.appendChild(el("span", "visually-hidden", " " + interpolate(v.marked ?
        ngettext("— add %(card)s, %(points)s points (%(mark)s)", "— add %(card)s, %(points)s points (%(mark)s)", v.points) :
        ngettext("— add %(card)s, %(points)s points", "— add %(card)s, %(points)s points", v.points), adds, true)));
      keys.appendChild(b);
    });

    suits.addEventListener("click", function (e) {
      var b = e.target.closest(".pad-suit");
      if (b) selectSuit(pad, b.dataset.suit);
    });
    keys.addEventListener("click", function (e) {
      var b = e.target.closest(".pad-key");
      if (b) add(pad, b.dataset.key);
    });
    pad.querySelector(".pad-chips").addEventListener("click", function (e) {
      var chip = e.target.closest(".chip");
      if (!chip) return;
      var list = tokens(input);
      list.splice(parseInt(chip.dataset.index, 10), 1);
      input.value = list.join(" ");
      renderAll();
      changed(form);
    });
    pad.querySelectorAll(".mode-button").forEach(function (b) {
      b.addEventListener("click", function () {
        setMode(pad, b.dataset.mode);
        renderAll();
        if (b.dataset.mode === "points") points.focus();
      });
    });
    points.addEventListener("input", renderAll);
    input.addEventListener("input", renderAll);
    setMode(pad, points.value !== "" && input.value.trim() === "" ? "points" : "cards");
  });

  form.querySelectorAll('input[name="winner"]').forEach(function (r) {
    r.addEventListener("change", applyWinner);
  });
  applyWinner();
}

// ---- D$%n You!: the pass counter and the pot ----------------------------------------

function enhancePasses(panel, form) {
  var pot = panel.querySelector(".pot-live");
  if (!pot) return;
  var start = parseInt(pot.dataset.potStart, 10) || 0;
  var key = pot.dataset.storageKey || "";
  var rows = Array.prototype.slice.call(panel.querySelectorAll(".pass-row"));

  function passInput(pid) { return form.querySelector('input[name="passes_' + pid + '"]'); }

  if (key) {
    var prefix = key.split(":").slice(0, 3).join(":") + ":";
    try {
      var saved = JSON.parse(window.localStorage.getItem(key) || "{}");
      rows.forEach(function (row) {
        var input = passInput(row.dataset.player);
        if (input && input.value === "" && saved[row.dataset.player]) input.value = saved[row.dataset.player];
      });
      for (var i = window.localStorage.length - 1; i >= 0; i--) {
        var k = window.localStorage.key(i);
        if (k && k.indexOf(prefix) === 0 && k !== key) window.localStorage.removeItem(k);
      }
    } catch (e) { /* storage unavailable: taps live in the form only */ }
  }

  function sync(store) {
    var passes = 0, data = {};
    rows.forEach(function (row) {
      var input = passInput(row.dataset.player);
      var n = Math.max(0, parseInt(input.value, 10) || 0);
      var cap = Math.max(0, parseInt(row.dataset.cap, 10) || 0);
      row.querySelector(".pass-count").textContent = String(n);
      row.classList.toggle("broke", cap === 0);
      passes += Math.min(n, cap);
      if (n) data[row.dataset.player] = n;
    });
    pot.querySelector(".pot-value").textContent = String(start + passes);
    pot.querySelector(".pot-passes").textContent = String(passes);
    askLastChip();
    if (store && key) {
      try { window.localStorage.setItem(key, JSON.stringify(data)); } catch (e) { /* ignore */ }
    }
  }

  // "Who paid the last chip?" only when the passes leave nobody holding chips (every
  // player who held chips after the ante passed at least that many times).
  var lastChip = panel.querySelector(".last-chip-pick");
  function askLastChip() {
    if (!lastChip) return;
    var holders = 0, broke = 0;
    rows.forEach(function (row) {
      var cap = Math.max(0, parseInt(row.dataset.cap, 10) || 0);
      if (!cap) return;
      holders += 1;
      if ((parseInt(passInput(row.dataset.player).value, 10) || 0) >= cap) broke += 1;
    });
    var asked = holders > 0 && broke === holders;
    lastChip.hidden = !asked;
    lastChip.querySelectorAll('input[name="last_chip"]').forEach(function (r) {
      r.disabled = !asked;
      if (!asked) r.checked = false;
    });
  }

  rows.forEach(function (row) {
    var input = passInput(row.dataset.player);
    row.querySelector(".pass-tap").addEventListener("click", function () {
      input.value = String((parseInt(input.value, 10) || 0) + 1);
      buzz();
      row.classList.remove("tapped");
      void row.offsetWidth;
      row.classList.add("tapped");
      sync(true);
      changed(form);
    });
    row.querySelector(".pass-minus").addEventListener("click", function () {
      input.value = String(Math.max(0, (parseInt(input.value, 10) || 0) - 1));
      sync(true);
      changed(form);
    });
    input.addEventListener("input", function () { sync(true); });
  });

  function applyWinner() {
    var w = checkedValue(form, "winner");
    form.querySelectorAll(".dy-row[data-player]").forEach(function (row) {
      var left = row.querySelector(".cards-left-input");
      var isOut = row.dataset.player === w;
      row.classList.toggle("is-out", isOut);
      left.disabled = isOut;
      left.placeholder = isOut ? "0" : "–";
    });
  }
  form.querySelectorAll('input[name="winner"]').forEach(function (r) {
    r.addEventListener("change", applyWinner);
  });
  applyWinner();
  sync(false);
}

// ---- Dirty Deals: the claimed suit, its bower, and who can hold it ------------------

function enhanceDeals(panel, form) {
  var script = panel.querySelector("#bowers");
  if (!script) return;
  var bowers = JSON.parse(script.textContent);

  function update() {
    var suit = checkedValue(form, "suit");
    var claimant = checkedValue(form, "winner");
    var bower = bowers[suit] || "";
    form.querySelectorAll(".surplus-suit").forEach(function (group) {
      var claimed = group.dataset.suit === suit;
      group.classList.toggle("is-claimed", claimed);
      group.querySelectorAll("input").forEach(function (i) { i.disabled = claimed; });
    });
    var bowerInSurplus = false;
    form.querySelectorAll(".card-check").forEach(function (label) {
      var isBower = label.dataset.code === bower;
      label.classList.toggle("is-bower", isBower);
      if (isBower && label.querySelector("input").checked) bowerInSurplus = true;
    });
    var name = form.querySelector(".bower-name");
    if (name) name.textContent = bower ? " " + bower.charAt(0) + SUIT_SYMBOL[bower.charAt(1)] : "";
    form.querySelectorAll('.bower-pick .chip-radio[data-player]').forEach(function (label) {
      var radio = label.querySelector("input");
      var blocked = label.dataset.player === claimant || bowerInSurplus;
      radio.disabled = blocked;
      label.classList.toggle("is-disabled", blocked);
      if (blocked && radio.checked) {
        radio.checked = false;
        form.querySelector('input[name="bower_holder"][value=""]').checked = true;
      }
    });
  }
  form.addEventListener("change", update);
  update();
}

// ---- the panel ---------------------------------------------------------------------

function enhancePanel(panel) {
  if (panel.dataset.enhanced) return;
  // Before the pads are built from the form's values: offline-sheet.js keeps a copy
  // of the panel as sent and puts back an entry in progress (a reload, Back/Forward).
  var before = new CustomEvent("sk:panel", { bubbles: true, detail: { restored: false } });
  panel.dispatchEvent(before);
  panel.dataset.enhanced = "1";
  panel.classList.add("js");
  var form = panel.querySelector("form.entry-form");
  if (!form) return;
  enhancePads(panel, form);
  enhancePasses(panel, form);
  enhanceDeals(panel, form);
  if (before.detail.restored) changed(form);
  var errors = panel.querySelector(".entry-errors");
  if (errors) {
    errors.scrollIntoView({ block: "center" });
    errors.focus({ preventScroll: true });
  }
}

function init(root) {
  each(root, ".entry-panel", enhancePanel);
}

document.addEventListener("DOMContentLoaded", function () { init(document); });
document.addEventListener("htmx:load", function (e) { init(e.detail.elt); });

// A refused hand comes back as 422 (or 409 when another phone was quicker), with the
// sheet and the message: show it instead of dropping it.
document.addEventListener("htmx:beforeSwap", function (e) {
  var status = e.detail.xhr.status;
  if (status === 422 || status === 409) {
    e.detail.shouldSwap = true;
    e.detail.isError = false;
  }
});

// After a save, the table goes on with the next hand: its first question comes into
// view (and takes the focus), and what was saved shows in the save bar for a while.
// With no next hand (the game is over) or a notice to read, the notice at the top.
var SAVED_SECONDS = 8;
// (Once per answer: a saved hand's answer swaps its parts out of band and leaves #sheet
// in place, so htmx tells each swapped part, and #sheet, with the same details.)
document.addEventListener("htmx:afterSwap", function (e) {
  var target = e.detail.target;
  if (target && target.id === "sheet" && e.target && e.target.id === "sheet") showSaved();
});
// offline-sheet.js sends the hands itself (its outbox) and swaps the sheet in: it
// calls this as htmx's swap would.
export function showSaved() {
  var sheet = document.getElementById("sheet");
  if (!sheet || sheet.querySelector(".entry-errors")) return;
  var flash = sheet.querySelector("#sheet-notice .flash");
  var question = sheet.querySelector("#entry[data-mode='new'] fieldset legend");
  if (!flash || sheet.querySelector("#sheet-notice .notice") || !question) {
    if (sheet.querySelector("#sheet-notice p")) {
      document.getElementById("sheet-notice").scrollIntoView({ block: "start" });
    }
    return;
  }
  var fieldset = question.closest("fieldset");
  fieldset.scrollIntoView({ block: "start" });
  fieldset.setAttribute("tabindex", "-1");
  fieldset.focus({ preventScroll: true });
  var bar = sheet.querySelector("#entry .savebar-text");
  if (bar) {
    // In place of the entry's summary until the next hand's entry begins, or a while.
    var said = document.createElement("span");
    said.className = "savebar-saved";
    said.setAttribute("role", "status");
    said.textContent = flash.textContent.trim();
    bar.appendChild(said);
    bar.classList.add("saved");
    var done = function () {
      bar.classList.remove("saved");
      if (said.parentNode) said.parentNode.removeChild(said);
    };
    setTimeout(done, SAVED_SECONDS * 1000);
    var form = sheet.querySelector("#entry form");
    if (form) form.addEventListener("input", done, { once: true });
    // savebar-undo.js offers Undo beside Save for as long.
    document.dispatchEvent(new CustomEvent("sk:saved"));
  }
}
