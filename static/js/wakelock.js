/* Keep the screen on while a score sheet is open (Screen Wake Lock API, where the
 * browser has it). The lock drops whenever the page is hidden, so ask again when it
 * comes back; a first tap also retries, for browsers that want a user gesture. */

var lock = null;

function request() {
  if (!("wakeLock" in navigator)) return;
  if (document.visibilityState !== "visible" || (lock && !lock.released)) return;
  navigator.wakeLock.request("screen").then(function (sentinel) {
    lock = sentinel;
    document.documentElement.dataset.wakeLock = "on";
    sentinel.addEventListener("release", function () {
      document.documentElement.dataset.wakeLock = "off";
    });
  }).catch(function () {
    /* refused (battery saver, not a secure context…): the sheet works anyway */
  });
}

document.addEventListener("visibilitychange", request);
document.addEventListener("pointerdown", request, { passive: true });
request();
