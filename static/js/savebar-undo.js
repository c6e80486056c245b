/* scorekeeper — Undo in the save bar, for a few seconds after a hand is saved.
 *
 * sheet.js says "saved" in the save bar (``sk:saved``); this adds an Undo button beside
 * Save that takes the hand back through the sheet's own undo of the last hand (the
 * ``#savebar-undo`` form, rendered only for those who may change the sheet, with the
 * hand's number in its address, so it can never undo another hand). It is offered only
 * for a new hand this phone has just sent and the server recorded: not for a hand kept
 * on the phone to send later, nor for a correction. It goes after UNDO_SECONDS, when the
 * next hand's entry begins, or once used.
 */

var UNDO_SECONDS = 8;
var FRESH_MS = 20000;     // a save's answer later than this is not "just saved"
var sent = null;          // { number, at }: the new hand this phone last sent
var shown = null;         // { button, timer, form, end }

// The entry form sent (by htmx, or by offline-sheet.js's outbox: both see this first).
document.addEventListener("submit", function (e) {
  var form = e.target;
  if (!form.matches || !form.matches("#entry form.entry-form")) return;
  var panel = form.closest("#entry");
  sent = panel && panel.dataset.mode === "new" && !panel.dataset.local
    ? { number: Number(panel.dataset.number), at: Date.now() } : null;
}, true);

// A hand kept on this phone moves the panel on without the server: nothing to undo.
document.addEventListener("htmx:load", function (e) {
  var elt = e.detail && e.detail.elt;
  if (elt && elt.id === "entry" && elt.dataset.local) sent = null;
});

function hide() {
  if (!shown) return;
  window.clearTimeout(shown.timer);
  if (shown.button.parentNode) shown.button.parentNode.removeChild(shown.button);
  if (shown.form) {
    shown.form.removeEventListener("input", hide, true);
    shown.form.removeEventListener("sk:changed", hide, true);
  }
  shown = null;
}

document.addEventListener("sk:saved", function () {
  hide();
  var just = sent;
  sent = null;
  if (!just || Date.now() - just.at > FRESH_MS) return;
  var undo = document.getElementById("savebar-undo");
  var bar = document.querySelector("#entry .savebar");
  var save = bar && bar.querySelector(".entry-save");
  if (!undo || !save || Number(undo.dataset.hand) !== just.number) return;
  var button = document.createElement("button");
  button.type = "submit";
  button.className = "button secondary savebar-undo";
  button.setAttribute("form", "savebar-undo");
  button.textContent = gettext("Undo");
  var more = document.createElement("span");
  more.className = "visually-hidden";
  // Translators: read after "Undo" by screen readers: the button's whole name is "Undo hand 3".
  more.textContent = " " + interpolate(gettext("hand %(number)s"), { number: just.number }, true);
  button.appendChild(more);
  button.addEventListener("click", function () {
    // The form posts (htmx); the bar's own Undo goes at once.
    window.setTimeout(hide, 0);
  });
  bar.insertBefore(button, save);
  var form = bar.closest("form");
  shown = { button: button, form: form, timer: window.setTimeout(hide, UNDO_SECONDS * 1000) };
  if (form) {
    form.addEventListener("input", hide, true);
    form.addEventListener("sk:changed", hide, true);
  }
});
