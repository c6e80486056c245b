/* scorekeeper — an unlikely hand's question ("Bob's 9,999 is far above this table's
 * usual. Save anyway?") and the list of an entry's problems, with script.
 *
 * Without this file both work as plain HTML: "Save anyway" submits the form with the
 * hidden confirm field, "Fix it" and the problem links are links to the fields. With it,
 * following one opens the player's folded pad and puts the cursor in the field. No
 * inline script: the page runs under a strict CSP.
 */

function reveal(target) {
  if (!target) return;
  var pad = target.closest ? target.closest("details") : null;
  if (pad && !pad.open) {
    var head = pad.querySelector("summary");
    // Opening through the summary lets the sheet's own folding keep one pad open.
    if (head) head.click(); else pad.open = true;
  }
  var around = pad || (target.closest ? target.closest(".dy-row, fieldset") : null);
  var field = target.matches && target.matches("input, select, textarea") ? target :
    (around && around.querySelector("input[aria-invalid]:not(:disabled), input:not([type=hidden]):not(:disabled)"));
  window.requestAnimationFrame(function () {
    target.scrollIntoView({ block: "center" });
    if (field && !field.disabled) field.focus({ preventScroll: true });
  });
}

document.addEventListener("click", function (e) {
  var link = e.target.closest ? e.target.closest(".entry-confirm-fix, .entry-problem-list a") : null;
  if (!link) return;
  var id = (link.getAttribute("href") || "").replace(/^#/, "");
  var target = id ? document.getElementById(id) : null;
  if (!target) return;
  e.preventDefault();
  if (link.classList.contains("entry-confirm-fix")) {
    // Fixing it: the question goes, and so does the confirmation of the old amount.
    var box = link.closest(".entry-confirm");
    var form = link.closest("form");
    var hidden = form ? form.querySelector('input[name="confirm"]') : null;
    if (hidden) hidden.remove();
    if (box) box.remove();
  }
  reveal(target);
});

function focusQuestion(root) {
  var box = root && root.querySelector ? root.querySelector(".entry-confirm") : null;
  if (!box) return;
  box.scrollIntoView({ block: "center" });
  box.focus({ preventScroll: true });
}

document.addEventListener("DOMContentLoaded", function () { focusQuestion(document); });
document.addEventListener("htmx:load", function (e) { focusQuestion(e.detail.elt); });
