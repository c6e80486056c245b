/* The Rules button on the score sheet (templates/rules/_overlay.html).
 *
 * A click opens the game's rules in a <dialog> over the sheet instead of following the
 * link, so a hand being entered stays exactly as it is. The rules load once (from
 * /rules/<slug>/panel/, kept by the service worker for offline use) and keep their
 * scroll position between openings. The phone's back gesture closes the dialog rather
 * than leaving the sheet.
 */

var openDialog = null;

/* The rules, asked by htmx (its headers and the page's hx-headers go with it) and
 * swapped into the dialog; an answer that is not a success swaps nothing. */
function load(dialog, url) {
  var body = dialog.querySelector("[data-rules-body]");
  if (!body || body.getAttribute("data-loaded") === "1") return;
  var failed = function () {
    var said = document.createElement("p");
    said.className = "rules-loading";
    said.textContent = gettext("The rules could not be loaded. Check the connection, or open them in a new tab.");
    body.textContent = "";
    body.appendChild(said);
  };
  window.htmx.ajax("GET", url, { source: body, target: body, swap: "innerHTML" }).then(function () {
    if (body.querySelector("[data-rules-panel-for]")) body.setAttribute("data-loaded", "1");
    else failed();
  }, failed);
}

function open(button) {
  var dialog = document.getElementById(button.getAttribute("data-rules-open"));
  // Without htmx (or a dialog) the link opens the rules in a new tab.
  if (!dialog || typeof dialog.showModal !== "function" || !window.htmx) return false;
  load(dialog, button.getAttribute("data-rules-panel-url"));
  if (!dialog.open) {
    dialog.showModal();
    openDialog = dialog;
    try { history.pushState({ rulesDialog: dialog.id }, ""); } catch (e) { /* ignore */ }
  }
  return true;
}

function close(dialog) {
  if (dialog.open) dialog.close();
}

document.addEventListener("click", function (event) {
  var target = event.target;
  if (!target.closest) return;
  var button = target.closest("[data-rules-open]");
  if (button) {
    if (open(button)) event.preventDefault();
    return;
  }
  if (target.closest("[data-rules-close]")) {
    var dialog = target.closest("dialog");
    if (dialog) close(dialog);
    return;
  }
  // A tap on the backdrop (the dialog element itself, outside its content) closes it.
  if (target.tagName === "DIALOG" && target.classList.contains("rules-dialog")) {
    var box = target.getBoundingClientRect();
    var inside = event.clientX >= box.left && event.clientX <= box.right &&
      event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) close(target);
    return;
  }
  // Links into the rules shown in the dialog scroll there without touching the sheet's
  // address; the paragraph a search hit opens is marked, as :target marks it on a page.
  var link = target.closest('.rules-dialog a[href^="#rp-"]');
  if (link) {
    var found = document.getElementById(link.getAttribute("href").slice(1));
    if (found) {
      event.preventDefault();
      var marked = link.closest(".rules-dialog").querySelector(".rules-target");
      if (marked) marked.classList.remove("rules-target");
      found.classList.add("rules-target");
      found.scrollIntoView({ block: "start" });
    }
  }
});

document.addEventListener("close", function (event) {
  var dialog = event.target;
  if (!(dialog instanceof HTMLElement) || !dialog.classList.contains("rules-dialog")) return;
  if (openDialog === dialog) openDialog = null;
  if (history.state && history.state.rulesDialog === dialog.id) history.back();
}, true);

window.addEventListener("popstate", function () {
  if (openDialog && openDialog.open) {
    var dialog = openDialog;
    openDialog = null;
    dialog.close();
  }
});
