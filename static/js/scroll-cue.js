/* scorekeeper — a cue in words under a box that scrolls sideways (the head-to-head
 * table by game on a phone): <p data-cue-for="ID" hidden> is shown while the box with
 * that id has more to the right than it shows, and hidden once it is scrolled to its
 * end or when it fits. Without this file the box's edge shadow is the only cue.
 */

function update(cue) {
  var box = document.getElementById(cue.getAttribute("data-cue-for"));
  if (!box) return;
  var more = box.scrollWidth - box.clientWidth - box.scrollLeft > 1;
  if (cue.hidden === more) cue.hidden = !more;
}

function setup(cue) {
  var box = document.getElementById(cue.getAttribute("data-cue-for"));
  if (!box || cue.dataset.cueReady) return;
  cue.dataset.cueReady = "1";
  box.addEventListener("scroll", function () { update(cue); }, { passive: true });
  window.addEventListener("resize", function () { update(cue); });
  update(cue);
}

document.querySelectorAll("[data-cue-for]").forEach(setup);
