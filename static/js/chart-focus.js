/* scorekeeper — bring one line of a chart forward (templates/_line_chart.html).
 *
 * Each entry of a chart's key is a button: tapping or clicking it (or Enter / Space on
 * it) brings its player's line to the front, thicker, and fades the others; doing it
 * again, or Escape, shows them all alike again. Moving the keyboard focus onto an entry
 * previews its line the same way while it has the focus. The chart says which line is
 * forward through aria-pressed on the entry. No inline style: classes only (charts.css).
 */

function seriesOf(figure, index) {
  return figure.querySelector('.ch-series[data-series="' + index + '"]');
}

function show(figure, index) {
  var svg = figure.querySelector("svg");
  figure.classList.toggle("ch-focused", index !== null);
  figure.querySelectorAll(".ch-series").forEach(function (g) {
    g.classList.toggle("ch-front", g.getAttribute("data-series") === index);
  });
  if (index !== null) {
    var g = seriesOf(figure, index);
    // SVG paints in document order: the last child is drawn on top.
    if (g && svg && g.parentNode.lastElementChild !== g) g.parentNode.appendChild(g);
  }
}

function pressed(figure) {
  var on = figure.querySelector('.ch-key-item[aria-pressed="true"]');
  return on ? on.getAttribute("data-series") : null;
}

function setup(figure) {
  if (figure.dataset.chartFocus) return;
  figure.dataset.chartFocus = "1";
  var items = figure.querySelectorAll(".ch-key-item");
  items.forEach(function (item) {
    item.addEventListener("click", function () {
      var on = item.getAttribute("aria-pressed") === "true";
      items.forEach(function (other) { other.setAttribute("aria-pressed", "false"); });
      item.setAttribute("aria-pressed", on ? "false" : "true");
      show(figure, on ? null : item.getAttribute("data-series"));
    });
    item.addEventListener("focus", function () { show(figure, item.getAttribute("data-series")); });
    item.addEventListener("blur", function () { show(figure, pressed(figure)); });
    item.addEventListener("keydown", function (event) {
      if (event.key !== "Escape") return;
      items.forEach(function (other) { other.setAttribute("aria-pressed", "false"); });
      show(figure, null);
    });
  });
}

function setupAll(root) {
  (root || document).querySelectorAll("figure.ch").forEach(setup);
}

setupAll(document);
// The league page swaps its standings (and the race with them) in place.
document.body.addEventListener("htmx:afterSettle", function (event) { setupAll(event.target); });
