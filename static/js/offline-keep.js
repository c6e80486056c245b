/* scorekeeper — keep the score sheet on the phone: the service worker stores this page
 * (and the files its tags load; every module they import it stored when it installed)
 * when it opens and after each change, so a reload without a connection still shows the
 * sheet and the hands waiting to be sent (offline-sheet.js). No inline script: the page
 * runs under a strict CSP. */

var timer = 0;

export function keepPage() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  window.clearTimeout(timer);
  timer = window.setTimeout(function () {
    navigator.serviceWorker.ready.then(function (registration) {
      if (!registration.active || !navigator.onLine) return;
      var assets = [];
      document.querySelectorAll("script[src], link[rel='stylesheet'][href]").forEach(function (node) {
        assets.push(node.src || node.href);
      });
      registration.active.postMessage({ type: "keep-page", url: window.location.pathname, assets: assets });
    });
  }, 300);
}

document.addEventListener("DOMContentLoaded", keepPage);
