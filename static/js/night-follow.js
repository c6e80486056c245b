/* A game of a night: when the night's next game starts, the sheet's live answer brings
 * "next game" (#night-next[data-follow], templates/nights/_next.html) and this phone (or
 * the table display) moves on to it by itself, a moment later (saying so); so does the
 * night's page, whose "now playing" part is asked for every few seconds. A page opened
 * on an old game of the night shows the way on without moving (it moves when a game
 * newer than the one it showed starts); a phone with hands still waiting to send stays
 * (its outbox sends them first; the link is there). */
var atLoad = null, leaving = false, WAIT_MS = 600;

function target() {
  var next = document.getElementById("night-next");
  return next && next.dataset.follow ? next : null;
}

function waiting() {
  return !!document.querySelector("#sheet-outbox:not([hidden])");
}

function follow() {
  var next = target();
  if (!next || next.dataset.follow === atLoad || leaving || waiting()) return;
  leaving = true;
  next.setAttribute("role", "status");
  var said = document.createElement("span");
  said.className = "night-next-moving";
  said.textContent = " " + gettext("Opening it…");
  next.appendChild(said);
  window.setTimeout(function () { window.location.assign(next.dataset.follow); }, WAIT_MS);
}

document.addEventListener("DOMContentLoaded", function () {
  var next = target();
  atLoad = next ? next.dataset.follow : null;
});
document.addEventListener("htmx:oobAfterSwap", follow);
document.addEventListener("htmx:afterSettle", follow);
