/* scorekeeper — the score sheet by keyboard.
 *
 * Works beside sheet.js (which builds the card pads) and sheet-layout.js (one pad open
 * at a time), and only changes how the keyboard reaches what they built:
 *   - each pad's buttons (Cards/Total, the cards entered, the suits, the card keys) are
 *     one Tab stop: arrow keys move between them (Up/Down by row, as laid out), Home and
 *     End to the first and last (WAI-ARIA toolbar pattern, roving tabindex);
 *   - typing a rank adds that card to the pad holding the focus (A K Q J, 2–9, 0 or T
 *     for 10, X for a joker; Dirty UNO: 0–9, S R D for +2, W and F for Wild +4), a suit
 *     letter picks the suit of the next card, Backspace takes the last card back; the
 *     keys are shown in a hint while the pad has the keyboard's focus;
 *   - "Next" hands the focus to the next pad's keys, not to the folded pad;
 *   - the skip link at the top of the sheet goes to the hand's first question.
 * Every change goes through the pads' own buttons (a click), so what is entered and
 * checked is exactly what a tap would enter.
 */

var MEMBERS = ".mode-button, .chip, .pad-suit, .pad-key";

// Typed character -> pad key, per kind of deck. Letters are matched upper-case.
var FRENCH_KEYS = { A: "A", K: "K", Q: "Q", J: "J", T: "10", "0": "10", X: "JK", "*": "JK" };
"23456789".split("").forEach(function (d) { FRENCH_KEYS[d] = d; });
var FRENCH_SUITS = { S: "S", H: "H", D: "D", C: "C" };
var UNO_KEYS = { S: "S", R: "R", D: "+2", "+": "+2", W: "W", F: "W+4" };
"0123456789".split("").forEach(function (d) { UNO_KEYS[d] = d; });

function visible(node) {
  return !node.disabled && node.getClientRects().length > 0;
}

function members(pad) {
  var body = pad.querySelector(".pad-body");
  if (!body) return [];
  return Array.prototype.filter.call(body.querySelectorAll(MEMBERS), visible);
}

function kindOf(panel) {
  var script = panel.querySelector("#pad-config");
  if (!script) return "";
  try { return JSON.parse(script.textContent).kind || ""; } catch (e) { return ""; }
}

// The one member that takes the Tab stop: the last one focused while still there,
// else the first card key (what a hand's entry is mostly made of).
function current(pad, list) {
  if (pad._roving && list.indexOf(pad._roving) >= 0) return pad._roving;
  var keys = list.filter(function (b) { return b.classList.contains("pad-key"); });
  // Nothing shown (the pad folded): the first key still holds the stop for later.
  return keys[0] || list[0] || pad.querySelector(".pad-key");
}

function rove(pad) {
  var list = members(pad);
  var chosen = current(pad, list);
  pad.querySelectorAll(MEMBERS).forEach(function (b) {
    b.setAttribute("tabindex", b === chosen ? "0" : "-1");
  });
  return chosen;
}

function roveAll(panel) {
  panel.querySelectorAll(".pad").forEach(rove);
}

function focusMember(pad, node) {
  if (!node) return;
  pad._roving = node;
  rove(pad);
  node.focus();
}

// The member in the row above (-1) or below (+1) nearest in x, as laid out on screen.
function vertical(list, from, step) {
  var at = from.getBoundingClientRect();
  var x = at.left + at.width / 2;
  var best = null, bestRow = null, bestDx = Infinity;
  list.forEach(function (node) {
    if (node === from) return;
    var r = node.getBoundingClientRect();
    var dy = step > 0 ? r.top - at.bottom : at.top - r.bottom;
    if (dy < -2) return;                 // not above (or below) this row
    var row = Math.round(step > 0 ? r.top : -r.bottom);
    var dx = Math.abs(r.left + r.width / 2 - x);
    if (bestRow === null || row < bestRow - 2 || (Math.abs(row - bestRow) <= 2 && dx < bestDx)) {
      best = node; bestRow = row; bestDx = dx;
    }
  });
  return best;
}

function hintText(kind, config) {
  if (kind === "uno") {
    return gettext("Keys: 0–9 add that card, S skip, R reverse, D draw two, W wild, F wild draw four; Backspace takes the last card back; arrows move between the buttons.");
  }
  var jokers = config && config.values && config.values.some(function (v) { return v.key === "JK"; });
  return jokers ?
    gettext("Keys: A K Q J, 2–9, 0 for 10, X for a joker; S H D C pick the suit of the next card; Backspace takes the last card back; arrows move between the buttons.") :
    gettext("Keys: A K Q J, 2–9, 0 for 10; S H D C pick the suit of the next card; Backspace takes the last card back; arrows move between the buttons.");
}

function addHint(panel, pad, kind, config, index) {
  var keys = pad.querySelector(".pad-keys");
  if (!keys || pad.querySelector(".pad-keyhint")) return;
  var hint = document.createElement("p");
  hint.className = "pad-keyhint small";
  hint.id = "pad-keyhint-" + (pad.dataset.player || index);
  hint.textContent = hintText(kind, config);
  keys.parentNode.insertBefore(hint, keys.nextSibling);
  keys.setAttribute("aria-describedby", hint.id);
}

function shortcuts(pad, kind) {
  var table = kind === "uno" ? UNO_KEYS : FRENCH_KEYS;
  var byKey = {};
  Object.keys(table).forEach(function (ch) {
    var key = table[ch];
    if (ch === "T" || ch === "*" || ch === "+") return;   // aliases, not advertised
    byKey[key] = byKey[key] ? byKey[key] + " " + ch : ch;
  });
  pad.querySelectorAll(".pad-key").forEach(function (b) {
    if (byKey[b.dataset.key]) b.setAttribute("aria-keyshortcuts", byKey[b.dataset.key]);
  });
}

function enhance(panel) {
  if (panel.dataset.keys || !panel.querySelector(".pad .pad-key")) return;
  panel.dataset.keys = "1";
  var kind = kindOf(panel);
  var config = null;
  try { config = JSON.parse(panel.querySelector("#pad-config").textContent); } catch (e) { config = null; }
  var pads = Array.prototype.slice.call(panel.querySelectorAll(".pad"));
  pads.forEach(function (pad, index) {
    var body = pad.querySelector(".pad-body");
    if (body) {
      body.setAttribute("role", "toolbar");
      body.setAttribute("aria-label", interpolate(gettext("Cards for %(name)s"), { name: pad.dataset.name || gettext("this player") }, true));
    }
    addHint(panel, pad, kind, config, index);
    shortcuts(pad, kind);
    // The cards entered are rebuilt on every change: keep them out of the Tab order.
    var chips = pad.querySelector(".pad-chips");
    if (chips && window.MutationObserver) {
      new MutationObserver(function () { rove(pad); }).observe(chips, { childList: true });
    }
    pad.addEventListener("focusin", function (e) {
      if (e.target.matches && e.target.matches(MEMBERS) && pad.contains(e.target)) {
        pad._roving = e.target;
        rove(pad);
      }
    });
  });
  // Who went out, Cards/Total, a pad opened or folded: what is shown changes.
  var form = panel.querySelector("form.entry-form");
  var pending = false;
  function later() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () { pending = false; roveAll(panel); });
  }
  if (form) {
    ["click", "change", "input", "sk:changed", "toggle"].forEach(function (type) {
      form.addEventListener(type, later, true);
    });
  }
  roveAll(panel);
  later();
}

function padKind(pad) {
  var panel = pad.closest(".entry-panel");
  return panel ? kindOf(panel) : "";
}

function typeCard(pad, e) {
  if (!pad.open || pad.classList.contains("is-out") || pad.dataset.mode === "points") return false;
  var kind = padKind(pad);
  var ch = e.key.length === 1 ? e.key.toUpperCase() : "";
  if (!ch) return false;
  var key = (kind === "uno" ? UNO_KEYS : FRENCH_KEYS)[ch];
  if (kind === "french" && FRENCH_SUITS[ch]) {
    var suit = pad.querySelector('.pad-suit[data-suit="' + FRENCH_SUITS[ch] + '"]');
    if (suit && !suit.disabled) {
      // The same suit again goes back to "any suit".
      var again = suit.getAttribute("aria-pressed") === "true";
      (again ? pad.querySelector('.pad-suit[data-suit=""]') : suit).click();
      return true;
    }
  }
  if (!key) return false;
  var button = pad.querySelector('.pad-key[data-key="' + key + '"]');
  if (!button || button.disabled) return false;
  button.click();
  return true;
}

function takeBack(pad, chip) {
  var chips = Array.prototype.slice.call(pad.querySelectorAll(".pad-chips .chip"));
  if (!chips.length) return;
  var target = chip || chips[chips.length - 1];
  var index = chips.indexOf(target);
  var hadFocus = chip && document.activeElement === chip;
  target.click();
  if (hadFocus) {
    var left = pad.querySelectorAll(".pad-chips .chip");
    var next = left[Math.min(index, left.length - 1)];
    pad._roving = null;
    focusMember(pad, next || current(pad, members(pad)));
  }
}

document.addEventListener("keydown", function (e) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  var target = e.target;
  if (!target || !target.closest) return;
  var pad = target.closest("#entry .pad");
  if (!pad) return;
  if (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable) return;
  var member = target.matches(MEMBERS) && target.closest(".pad-body") ? target : null;
  if (member) {
    var list = members(pad);
    var at = list.indexOf(member);
    var to = null;
    switch (e.key) {
      case "ArrowRight": to = list[at + 1] || list[0]; break;
      case "ArrowLeft": to = list[at - 1] || list[list.length - 1]; break;
      case "ArrowDown": to = vertical(list, member, 1); break;
      case "ArrowUp": to = vertical(list, member, -1); break;
      case "Home": to = list[0]; break;
      case "End": to = list[list.length - 1]; break;
      default: break;
    }
    if (to || /^Arrow|^Home$|^End$/.test(e.key)) {
      e.preventDefault();
      if (to) focusMember(pad, to);
      return;
    }
    if (member.classList.contains("chip") && /^(Enter| |Backspace|Delete)$/.test(e.key)) {
      e.preventDefault();
      takeBack(pad, member);
      return;
    }
  }
  if ((e.key === "Backspace" || e.key === "Delete") && pad.open && (member || target.matches("summary"))) {
    e.preventDefault();
    takeBack(pad, null);
    return;
  }
  if (typeCard(pad, e)) e.preventDefault();
});

// "Next": the focus goes on to the keys of the pad it opened (the Next button itself
// is folded away). With no pad after it, sheet-layout.js gives Save the focus.
document.addEventListener("click", function (e) {
  var next = e.target && e.target.closest ? e.target.closest("#entry .pad-next") : null;
  if (!next) return;
  var from = next.closest(".pad");
  var active = document.activeElement;
  if (active && active !== next && active !== document.body) return;
  var open = Array.prototype.filter.call(document.querySelectorAll("#entry details.pad[open]"), function (p) {
    return p !== from;
  })[0];
  if (!open) return;
  var chosen = rove(open);
  if (chosen) chosen.focus({ preventScroll: true });
});

// The skip link: straight to the hand's first question (its chosen answer, else its
// first one), or to what stopped the last save.
document.addEventListener("click", function (e) {
  var link = e.target && e.target.closest ? e.target.closest("a.skip-link") : null;
  if (!link) return;
  var panel = document.getElementById("entry");
  var form = panel && panel.querySelector("form.entry-form");
  if (!form) return;
  e.preventDefault();
  var errors = panel.querySelector(".entry-errors");
  var question = form.querySelector("fieldset");
  var field = null;
  if (errors) {
    field = errors;
  } else if (question) {
    field = question.querySelector("input:checked:not([type=hidden])");
    if (!field || !visible(field)) {
      field = Array.prototype.filter.call(question.querySelectorAll("input:not([type=hidden]), button, select, textarea"), visible)[0] || null;
    }
  }
  if (!field) {
    field = Array.prototype.filter.call(form.querySelectorAll("input:not([type=hidden]), button, select, textarea, summary"), visible)[0] || null;
  }
  (question || panel).scrollIntoView({ block: "start" });
  if (field) field.focus({ preventScroll: true });
});

function init(root) {
  if (!root || !root.querySelectorAll) return;
  if (root.matches && root.matches(".entry-panel")) enhance(root);
  root.querySelectorAll(".entry-panel").forEach(enhance);
}

document.addEventListener("DOMContentLoaded", function () { init(document); });
document.addEventListener("htmx:load", function (e) { init(e.detail.elt); });
