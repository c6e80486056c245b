/* Installable app + offline rules: registers the service worker (served at /sw.js so it
 * controls the whole site). Loaded from templates/_pwa_head.html; no inline script, as
 * the Content Security Policy forbids it. */
(function () {
  "use strict";
  var script = document.currentScript;
  var url = (script && script.getAttribute("data-sw")) || "/sw.js";
  if (!("serviceWorker" in navigator)) return;
  // Only where a service worker is allowed (https, or http on localhost).
  if (!window.isSecureContext) return;
  var register = function () {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
      /* Offline use is a bonus: the site works without it. */
    });
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();
