/* New game form: team choices only when playing in partners, and a seat is either a
 * player picked from the list or a new name typed (picking one clears the other). */
(function () {
  "use strict";

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
    var errors = form.querySelector(".form-errors");
    if (errors) { errors.scrollIntoView({ block: "center" }); errors.focus({ preventScroll: true }); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    enhance(document.getElementById("new-game-form"));
  });
  document.addEventListener("htmx:load", function (e) {
    var elt = e.detail.elt;
    if (elt && elt.id === "new-game-form") enhance(elt);
  });
})();
