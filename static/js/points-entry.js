/* scorekeeper — typed points on the sheet's entry, as the entry template asks for them:
 *   - a button with data-flip-sign="<input id>" changes the sign of that input's number
 *     (a phone's number keyboard often has no minus);
 *   - a button with data-fill-blank="<selector>" puts 0 in every blank input of its form
 *     that matches the selector ("everyone else scored nothing").
 * Both go through an "input" event, so the save bar and the kept draft see the change.
 */

function changed(input) {
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
}

document.addEventListener("click", function (e) {
  var flip = e.target.closest && e.target.closest("[data-flip-sign]");
  if (flip) {
    var input = document.getElementById(flip.dataset.flipSign);
    if (!input) return;
    var text = input.value.trim().replace("\u2212", "-");
    if (text === "" || text === "-") input.value = text === "-" ? "" : "-";
    else input.value = text.charAt(0) === "-" ? text.slice(1) : "-" + text;
    changed(input);
    input.focus();
    return;
  }
  var fill = e.target.closest && e.target.closest("[data-fill-blank]");
  if (fill) {
    var form = fill.closest("form") || document;
    form.querySelectorAll(fill.dataset.fillBlank).forEach(function (field) {
      if (field.value.trim() === "" || field.value.trim() === "-") {
        field.value = "0";
        changed(field);
      }
    });
  }
});
