/* The colour theme: auto (the system's), light or dark.
 *
 * The server renders <html data-theme="…"> from the "theme" cookie, so pages come up in
 * their theme with no script. This file (loaded in <head>, before the page is painted)
 *  - corrects a page the service worker kept from an earlier visit, whose data-theme is
 *    the one chosen back then;
 *  - makes the switch in the top bar instant: it sets the cookie itself instead of
 *    posting the form (which is what happens without JavaScript).
 * No colour is written here: the browser bar's colour is read from the CSS (--bar). */
(function () {
  "use strict";
  var THEMES = ["auto", "light", "dark"];
  // Read when shown (not when this file runs): the words are the page's language.
  function label(theme) {
    return { auto: gettext("Auto"), light: gettext("Light"), dark: gettext("Dark") }[theme];
  }
  var root = document.documentElement;

  function cookieTheme() {
    var match = document.cookie.match(/(?:^|;\s*)theme=(auto|light|dark)(?:;|$)/);
    return match ? match[1] : null;
  }

  var saved = cookieTheme();
  if (saved && saved !== root.getAttribute("data-theme")) root.setAttribute("data-theme", saved);

  function following(theme) {
    return THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
  }

  function barColour() {
    return getComputedStyle(root).getPropertyValue("--bar").trim();
  }

  // One <meta name="theme-color"> for the theme shown, two (one per system scheme) for auto.
  function updateThemeColour(theme) {
    var head = document.head;
    var metas = head.querySelectorAll('meta[name="theme-color"]');
    if (!metas.length) return;
    var anchor = metas[0];
    var make = function (content, media) {
      var meta = document.createElement("meta");
      meta.name = "theme-color";
      meta.content = content;
      if (media) meta.media = media;
      head.insertBefore(meta, anchor);
    };
    if (theme === "auto") {
      // Each scheme's bar colour, measured by showing it for a moment (no paint happens
      // in between: the style is read synchronously).
      root.setAttribute("data-theme", "light");
      var light = barColour();
      root.setAttribute("data-theme", "dark");
      var dark = barColour();
      root.setAttribute("data-theme", "auto");
      make(light, "(prefers-color-scheme: light)");
      make(dark, "(prefers-color-scheme: dark)");
    } else {
      make(barColour());
    }
    for (var i = 0; i < metas.length; i++) metas[i].remove();
  }

  function show(theme, button) {
    root.setAttribute("data-theme", theme);
    var next = following(theme);
    if (button) {
      button.value = next;
      button.title = interpolate(gettext("Colours: %(theme)s. Tap for %(next)s."), { theme: label(theme), next: label(next) }, true);
      var shown = button.querySelector(".theme-label");
      if (shown) shown.textContent = label(theme);
    }
    updateThemeColour(theme);
  }

  // The cookie's path is the app's root, as the server sets it (the form says which).
  function remember(theme, button) {
    var secure = location.protocol === "https:" ? "; Secure" : "";
    document.cookie = "theme=" + theme + "; Path=" + button.form.dataset.cookiePath +
      "; Max-Age=" + 365 * 24 * 3600 + "; SameSite=Lax" + secure;
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    var button = target && target.closest ? target.closest(".theme-switch") : null;
    if (!button) return;
    event.preventDefault();
    var theme = THEMES.indexOf(button.value) >= 0 ? button.value : "auto";
    remember(theme, button);
    show(theme, button);
  });

  // A kept page whose cookie changed since: bring the switch in line once it exists.
  if (saved) {
    document.addEventListener("DOMContentLoaded", function () {
      var button = document.querySelector(".theme-switch");
      if (button && button.value !== following(saved)) show(saved, button);
    });
  }
})();
