/* New game form: team choices only when playing in partners, and a seat is either a
 * player picked from the list or a new name typed (picking one clears the other). */

function enhance(form) {
  if (!form || form.dataset.enhanced) return;
  form.dataset.enhanced = "1";
  form.classList.add("js");
  var toggle = form.querySelector(".partners-toggle");
  function applyTeams() { form.classList.toggle("with-teams", !!(toggle && toggle.checked)); }
  if (toggle) toggle.addEventListener("change", applyTeams);
  applyTeams();
  form.querySelectorAll(".seat-row").forEach(function (row) {
    var pick = row.querySelector(".seat-player");
    var name = row.querySelector(".seat-name");
    pick.addEventListener("change", function () { if (pick.value) name.value = ""; });
    name.addEventListener("input", function () { if (name.value.trim()) pick.value = ""; });
  });
  keepStartToken(form);
  var errors = form.querySelector(".form-errors");
  if (errors) { errors.scrollIntoView({ block: "center" }); errors.focus({ preventScroll: true }); }
}

// Starting a game is idempotent: the form's one-time token is remembered in this
// history entry, so Back after "Start the game" (even when the browser loads the
// form afresh) sends the same token again and the server opens the game it started.
function keepStartToken(form) {
  var field = form.querySelector(".start-token");
  if (!field) return;
  var state = window.history.state || {};
  if (state.skStartToken) field.value = state.skStartToken;
  form.addEventListener("submit", function () {
    var now = window.history.state || {};
    if (now.skStartToken === field.value) return;
    var next = {};
    Object.keys(now).forEach(function (k) { next[k] = now[k]; });
    next.skStartToken = field.value;
    try { window.history.replaceState(next, ""); } catch (e) { /* state not kept: fine */ }
  });
}

document.addEventListener("DOMContentLoaded", function () {
  enhance(document.getElementById("new-game-form"));
});
document.addEventListener("htmx:load", function (e) {
  var elt = e.detail.elt;
  if (elt && elt.id === "new-game-form") enhance(elt);
});
