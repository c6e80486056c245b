/* Installable app + offline rules: registers the service worker named by data-sw (served
 * at the app's root, so that its scope, by default the folder it is in, is the whole app,
 * under a path prefix too). Loaded from templates/_pwa_head.html; no inline script, as
 * the Content Security Policy forbids it. */

function register(url) {
  navigator.serviceWorker.register(url).catch(function () {
    /* Offline use is a bonus: the site works without it. */
  });
}

// A module has no document.currentScript: the tag is found by what it carries.
var script = document.querySelector("script[data-sw]");
var url = script && script.getAttribute("data-sw");
// Only where a service worker is allowed (https, or http on localhost).
if (url && "serviceWorker" in navigator && window.isSecureContext) {
  if (document.readyState === "complete") register(url);
  else window.addEventListener("load", function () { register(url); });
}
