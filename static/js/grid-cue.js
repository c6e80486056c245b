/* scorekeeper — a cue that the score sheet's grid goes on past the screen's edge.
 *
 * With many players the grid scrolls sideways inside its frame. The side that has more
 * shows a fade with an arrow (.grid-frame.more-right / .more-left, in sheet.css), and a
 * visually hidden line says it to screen readers ("3 more columns to the right"),
 * updated as the grid is scrolled, the window resized or the grid replaced by a live
 * update. Without this file the grid simply scrolls. No inline style: the left cue's
 * place (after the sticky hand column) is a custom property set through the CSSOM.
 */

function plural(n) { return interpolate(ngettext("%(n)s more column", "%(n)s more columns", n), { n: n }, true); }

function update(scroller) {
  var frame = scroller.parentElement;
  if (!frame || !frame.classList.contains("grid-frame")) return;
  var box = scroller.getBoundingClientRect();
  var sticky = scroller.querySelector("thead .hand-col");
  var edge = sticky ? sticky.getBoundingClientRect().right : box.left;
  var left = 0, right = 0;
  scroller.querySelectorAll("thead th:not(.hand-col)").forEach(function (th) {
    var r = th.getBoundingClientRect();
    if (r.right > box.right + 1) right += 1;
    else if (r.left < edge - 1) left += 1;
  });
  frame.classList.toggle("more-right", right > 0);
  frame.classList.toggle("more-left", left > 0);
  if (sticky) frame.style.setProperty("--grid-cue-left", Math.round(edge - box.left) + "px");
  var said = "";
  if (right && left) said = interpolate(gettext("The score sheet goes on: %(right)s to the right, %(left)s to the left. Scroll sideways to see them."), { right: plural(right), left: plural(left) }, true);
  else if (right) said = interpolate(gettext("The score sheet goes on: %(right)s to the right. Scroll sideways to see them."), { right: plural(right) }, true);
  else if (left) said = interpolate(gettext("The score sheet goes on: %(left)s to the left."), { left: plural(left) }, true);
  var line = frame.nextElementSibling;
  if (line && line.classList.contains("grid-cue-text") && line.textContent !== said) line.textContent = said;
}

var pending = false;
function updateAll() {
  if (pending) return;
  pending = true;
  window.requestAnimationFrame(function () {
    pending = false;
    document.querySelectorAll(".grid-frame > .grid-scroll").forEach(update);
  });
}

// Scroll events do not bubble: listen in the capture phase, for whichever grid it is.
document.addEventListener("scroll", function (e) {
  var target = e.target;
  if (target && target.classList && target.classList.contains("grid-scroll")) update(target);
}, true);
window.addEventListener("resize", updateAll);
document.addEventListener("DOMContentLoaded", function () {
  updateAll();
  // A live update or a save replaces the grid: look again once the page has changed.
  var sheet = document.getElementById("sheet") || document.body;
  if (window.MutationObserver) new MutationObserver(updateAll).observe(sheet.parentNode || sheet, { childList: true, subtree: true });
});
window.addEventListener("load", updateAll);
