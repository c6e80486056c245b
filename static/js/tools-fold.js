/* scorekeeper — folds on the score sheet that this phone keeps open or closed.
 *
 * A <details data-fold-key="…"> (the table tools, templates/games/sheet.html) is hidden
 * until script runs, since what it holds needs script too. Here it is shown, opened or
 * closed as it was last left on this phone (localStorage "sk-fold:<key>"), and every
 * tap on its summary is remembered. Closed unless this phone opened it: the sheet's
 * first screen is the hand in play.
 */

var PREFIX = "sk-fold:";

function read(key) {
  try { return window.localStorage.getItem(PREFIX + key); } catch (e) { return null; }
}

function write(key, value) {
  try { window.localStorage.setItem(PREFIX + key, value); } catch (e) { /* private mode: not kept */ }
}

function setUp(fold) {
  if (fold.dataset.foldReady) return;
  fold.dataset.foldReady = "1";
  var key = fold.dataset.foldKey;
  fold.open = read(key) === "open";
  fold.hidden = false;
  fold.addEventListener("toggle", function () { write(key, fold.open ? "open" : "closed"); });
}

function setUpAll(root) {
  (root || document).querySelectorAll("details[data-fold-key]").forEach(setUp);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { setUpAll(); });
else setUpAll();
document.addEventListener("htmx:load", function (e) { setUpAll(e.target && e.target.querySelectorAll ? e.target : document); });
