/* scorekeeper — the score sheet laid out for a phone.
 *
 * Works beside sheet.js (which builds the tally pads and scores them live) and only
 * arranges what is there:
 *   - the save bar at the bottom of the screen says the hand's points as entered so
 *     far, read from the pads (Dirt, Dirty UNO) or from the server's preview (D$%n You!,
 *     Dirty Deals), and rises above the on-screen keyboard;
 *   - one player's pad is open at a time, the others folded to a summary line (name,
 *     cards, points); choosing who went out opens the first other player's pad, and
 *     "Next" moves on. Without this file every pad stays open (plain <details open>).
 * No inline script or style: CSS custom properties are set through the CSSOM only.
 */

var root = document.documentElement;

function each(node, selector, fn) {
  if (!node || !node.querySelectorAll) return;
  if (node.matches && node.matches(selector)) fn(node);
  node.querySelectorAll(selector).forEach(fn);
}

function checkedValue(form, name) {
  var input = form.querySelector('input[name="' + name + '"]:checked');
  return input ? input.value : "";
}

function checkedLabel(form, name) {
  var input = form.querySelector('input[name="' + name + '"]:checked');
  if (!input || !input.value) return "";
  var label = input.closest("label");
  return label ? label.textContent.replace(/\s+/g, " ").trim() : "";
}

function text(node) {
  return node ? node.textContent.replace(/\s+/g, " ").trim() : "";
}

// The sticky top bar and the save bar: what the page shows between them is the room
// a pad has.
function topInset() {
  var bar = document.querySelector(".topbar");
  if (!bar) return 0;
  var style = window.getComputedStyle(bar);
  return style.position === "sticky" || style.position === "fixed" ? bar.getBoundingClientRect().bottom : 0;
}

function bottomInset() {
  var bar = document.querySelector("#entry .savebar");
  if (!bar) return window.innerHeight;
  return Math.min(window.innerHeight, bar.getBoundingClientRect().top);
}

// Scroll as little as possible to show ``node`` whole (or its top, when it is taller
// than the room between the bars).
function reveal(node) {
  var rect = node.getBoundingClientRect();
  var top = topInset() + 8;
  var bottom = bottomInset() - 8;
  var by = 0;
  if (rect.bottom > bottom) by = Math.min(rect.bottom - bottom, rect.top - top);
  else if (rect.top < top) by = rect.top - top;
  if (by) window.scrollBy(0, by);
}

// ---- the save bar ------------------------------------------------------------------

function padValue(pad, scoring) {
  var node = pad.querySelector(".pad-points");
  var shown = text(node);
  // What sheet.js shows, as data (data-points, data-won): the words are the page's language.
  var data = node ? node.dataset : {};
  if (pad.classList.contains("is-out")) {
    // Dirty UNO standard: whoever went out scores the others' cards ("…" while some
    // are still to enter); nothing to say before any are.
    var won = scoring !== "standard" ? "" : data.won !== undefined ? data.won : shown.replace(/^scores\s*/, "");
    if (/^0…?$/.test(won)) won = "";
    // Translators: the save bar's summary of a player who went out ("Ana out +12").
    return won ? interpolate(gettext("out +%(points)s"), { points: won }, true) : gettext("out");
  }
  return (data.points !== undefined ? data.points : shown.replace(/\s*pts$/, "")) || "–";
}

function padCards(pad) {
  if (pad.classList.contains("is-out")) return gettext("went out");
  if (pad.dataset.mode === "points") {
    return pad.querySelector(".points-input").value === "" ? "" : gettext("counted");
  }
  var chips = [];
  pad.querySelectorAll(".pad-chips .chip").forEach(function (chip) { chips.push(text(chip)); });
  return chips.join(" ");
}

function fromPreview(panel) {
  var box = panel.querySelector("#preview");
  if (!box) return null;
  var rows = box.querySelectorAll(".preview-table tbody tr");
  if (rows.length) {
    var parts = [];
    rows.forEach(function (row) {
      var cells = row.querySelectorAll("td");
      if (cells.length < 3) return;
      parts.push(text(cells[0]) + " " + text(cells[cells.length - 2]));
    });
    return parts.join(" · ");
  }
  var error = box.querySelector(".preview-error");
  if (!error) return null;
  var said = text(error).replace(/^Not complete yet:\s*/, "");
  // The same words in the page's language (the server's "Not complete yet: …").
  // Translators: the start of the server's preview error ("Not complete yet: …"); the same words as the templates' translation.
  var lead = gettext("Not complete yet:");
  return said.indexOf(lead) === 0 ? said.slice(lead.length).replace(/^\s+/, "") : said;
}

function updateBar(panel, form) {
  if (panel.querySelector(".savebar-jump")) return;
  var out = panel.querySelector(".savebar-points");
  var config = panel.querySelector("#pad-config");
  var scoring = config ? (JSON.parse(config.textContent).scoring || "") : "";
  var pads = panel.querySelectorAll(".pad");
  var summary = "";
  var asked = text(form.querySelector(".winner-pick legend")).toLowerCase();
  if (pads.length) {
    // What was entered, and how many hands are still to enter.
    var parts = [], missing = 0;
    pads.forEach(function (pad) {
      var sum = pad.querySelector(".pad-sum");
      if (sum) sum.textContent = padCards(pad);
      var value = padValue(pad, scoring);
      if (value === "–") missing += 1;
      else parts.push(pad.dataset.name + " " + value);
    });
    if (!checkedValue(form, "winner")) parts.push(asked || gettext("who went out?"));
    else if (missing) parts.push(interpolate(gettext("%(n)s to enter"), { n: missing }, true));
    summary = parts.join(" · ");
  } else {
    var previewed = fromPreview(panel);
    var bits = [];
    var pot = panel.querySelector(".pot-value");
    if (pot) bits.push(interpolate(gettext("Pot so far %(pot)s"), { pot: text(pot) }, true));
    var who = checkedLabel(form, "winner");
    if (previewed) bits.push(previewed);
    else if (who) bits.push(interpolate(pot ? gettext("%(name)s went out") : gettext("%(name)s claimed"), { name: who }, true));
    else if (asked) bits.push(asked);
    summary = bits.join(" · ");
  }
  if (out) out.textContent = summary;
}

function measureBar(panel) {
  var bar = panel.querySelector(".savebar");
  if (!bar) return;
  root.style.setProperty("--savebar-space", Math.ceil(bar.getBoundingClientRect().height) + "px");
}

function typing() {
  var field = document.activeElement;
  return field && /^(INPUT|TEXTAREA|SELECT)$/.test(field.tagName) && field.closest("#entry form") ? field : null;
}

// A field being typed in stays above the save bar (and so above the keyboard).
function keepFieldVisible() {
  var field = typing();
  if (!field) return;
  var bottom = bottomInset() - 8;
  var rect = field.getBoundingClientRect();
  if (rect.bottom > bottom) window.scrollBy(0, rect.bottom - bottom);
}

// The on-screen keyboard shrinks the visual viewport, not the layout one: lift the
// bar by what the keyboard covers, so Save stays above it.
function watchKeyboard() {
  var vv = window.visualViewport;
  if (!vv) return;
  function lift() {
    var covered = window.innerHeight - vv.height - vv.offsetTop;
    var open = Boolean(typing()) && covered > 80;
    root.style.setProperty("--keyboard", (open ? Math.round(covered) : 0) + "px");
    root.classList.toggle("keyboard-open", open);
    if (open) keepFieldVisible();
  }
  vv.addEventListener("resize", lift);
  vv.addEventListener("scroll", lift);
  document.addEventListener("focusin", lift);
  document.addEventListener("focusout", function () { window.setTimeout(lift, 50); });
}

// ---- one pad open at a time ----------------------------------------------------------

function foldPads(panel, form) {
  var pads = Array.prototype.slice.call(panel.querySelectorAll("details.pad"));
  if (!pads.length) return null;
  panel.classList.add("pads-folding");

  function winner() { return checkedValue(form, "winner"); }
  function playing() { return pads.filter(function (p) { return p.dataset.player !== winner(); }); }
  function entered(pad) {
    return pad.querySelector(".cards-input").value.trim() !== "" || pad.querySelector(".points-input").value !== "";
  }
  function after(pad) {
    var list = playing();
    var index = list.indexOf(pad);
    return index >= 0 ? list[index + 1] || null : list[0] || null;
  }

  function labelNext() {
    pads.forEach(function (pad) {
      var button = pad.querySelector(".pad-next");
      if (!button) return;
      var next = after(pad);
      button.textContent = next ? interpolate(gettext("Next: %(name)s ›"), { name: next.dataset.name }, true) : gettext("Done ✓");
      // Its name starts with what it shows (WCAG 2.5.3); "hand": the cards a player holds.
      button.setAttribute("aria-label", next ? interpolate(gettext("Next: %(name)s's hand"), { name: next.dataset.name }, true) :
        interpolate(gettext("Done: fold %(name)s's hand"), { name: pad.dataset.name }, true));
    });
  }

  function open(pad, scroll) {
    pads.forEach(function (p) {
      p.open = p === pad;
      p.classList.toggle("is-open", p === pad);
    });
    labelNext();
    if (pad && scroll) window.requestAnimationFrame(function () { reveal(pad); });
  }

  function firstToEnter() {
    var list = playing();
    for (var i = 0; i < list.length; i++) if (!entered(list[i])) return list[i];
    return null;
  }

  pads.forEach(function (pad) {
    var summary = pad.querySelector("summary");
    summary.addEventListener("click", function (e) {
      e.preventDefault();
      open(pad.open ? null : pad, true);
    });
    var next = pad.querySelector(".pad-next");
    if (next) {
      next.addEventListener("click", function () {
        var to = after(pad);
        open(to, true);
        if (!to) {
          var save = panel.querySelector(".entry-save");
          if (save) save.focus({ preventScroll: true });
        }
      });
    }
  });

  var broken = pads.filter(function (p) { return p.classList.contains("has-error"); })[0];
  open(broken || (winner() ? firstToEnter() : null), Boolean(broken));

  return {
    // ``byUser``: scroll the pad into view only for a tap, not for a restored entry.
    winnerChanged: function (byUser) {
      var current = pads.filter(function (p) { return p.open; })[0];
      var target = firstToEnter();
      if (!target && current && current.dataset.player !== winner()) target = current;
      open(target || playing()[0] || null, byUser);
    },
  };
}

// Screw Your Neighbour: the winner buttons save; the bar only leads to them, so it
// steps aside while they are on screen.
function jumpBar(panel) {
  var bar = panel.querySelector(".savebar-jump");
  var target = bar && panel.querySelector(".winner-buttons");
  if (!target || !window.IntersectionObserver) return;
  var seen = new IntersectionObserver(function (entries) {
    // A panel replaced after a save: stop watching it.
    if (!target.isConnected) { seen.disconnect(); return; }
    entries.forEach(function (entry) {
      bar.classList.toggle("is-away", entry.isIntersecting);
    });
  }, { threshold: 0.6 });
  seen.observe(target);
}

// ---- the panel -----------------------------------------------------------------------

function enhance(panel) {
  if (panel.dataset.layout) return;
  var form = panel.querySelector("form.entry-form");
  if (!form) return;
  panel.dataset.layout = "1";
  panel.classList.add("with-savebar");
  var folding = foldPads(panel, form);
  jumpBar(panel);
  var pending = false;

  function schedule() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () {
      pending = false;
      updateBar(panel, form);
      measureBar(panel);
    });
  }

  form.addEventListener("input", schedule);
  form.addEventListener("click", schedule);
  form.addEventListener("sk:changed", schedule);
  form.addEventListener("change", function (e) {
    if (folding && e.target && e.target.name === "winner") folding.winnerChanged(e.isTrusted);
    schedule();
  });
  panel.addEventListener("htmx:afterSwap", schedule);
  schedule();
}

function init(node) {
  each(node, ".entry-panel", enhance);
}

// Focused fields stay above the save bar when the browser scrolls them into view.
document.addEventListener("focusin", function () { window.setTimeout(keepFieldVisible, 300); });

window.addEventListener("resize", function () {
  var panel = document.getElementById("entry");
  if (panel) measureBar(panel);
});

watchKeyboard();
document.addEventListener("DOMContentLoaded", function () { init(document); });
document.addEventListener("htmx:load", function (e) { init(e.detail.elt); });
