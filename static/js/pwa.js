/* Installable app + offline rules: registers the service worker named by data-sw (served
 * at the app's root, so that its scope, by default the folder it is in, is the whole app,
 * under a path prefix too). Loaded from templates/_pwa_head.html; no inline script, as
 * the Content Security Policy forbids it. */
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.getAttribute("data-sw");
  if (!url || !("serviceWorker" in navigator)) return;
  // Only where a service worker is allowed (https, or http on localhost).
  if (!window.isSecureContext) return;
  var register = function () {
    navigator.serviceWorker.register(url).catch(function () {
      /* Offline use is a bonus: the site works without it. */
    });
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();
