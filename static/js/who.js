/* scorekeeper — who is signed in, as the top bar says it, on a page the phone stored.
 *
 * Offline, the service worker answers with stored pages (the offline page, the rules,
 * a sheet seen before), each with the top bar it had when it was stored: "Sign in" to
 * someone signed in since, or their name after they signed out. Every page says who it
 * was rendered for and when (<body data-user data-rendered>, the server's clock); the
 * newest such word is remembered in localStorage ("sk:who"), and forgotten as the
 * phone signs out. A page older than what is remembered shows the remembered state in
 * its top bar instead: the name of whoever is signed in, or "Sign in" (never a name
 * after signing out).
 */

var KEY = "sk:who";
var body = document.body;   // a module runs once the page is parsed: it is there

function remembered() {
  try {
    var who = JSON.parse(window.localStorage.getItem(KEY) || "null");
    return who && typeof who.at === "number" ? who : null;
  } catch (e) { return null; }
}

function remember(user, at) {
  try { window.localStorage.setItem(KEY, JSON.stringify({ user: user, at: at })); } catch (e) { /* fine */ }
}

function show(user) {
  var nav = document.querySelector(".topnav");
  if (!nav) return;
  var who = nav.querySelector("[data-who]");
  var signIn = nav.querySelector("[data-sign-in]");
  nav.querySelectorAll("[data-signed-in]").forEach(function (node) { node.hidden = !user; });
  if (user) {
    if (signIn) signIn.hidden = true;
    if (who) { who.textContent = interpolate(gettext("Signed in as %(user)s"), { user: user }, true); who.hidden = false; }
    return;
  }
  if (who) { who.textContent = ""; who.hidden = true; }
  if (!signIn) {
    signIn = document.createElement("a");
    signIn.href = body.dataset.loginUrl || "/accounts/login/";
    signIn.setAttribute("data-sign-in", "");
    signIn.textContent = gettext("Sign in");
    nav.appendChild(signIn);
  }
  signIn.hidden = false;
}

var user = body.dataset.user || "";
var rendered = parseFloat(body.dataset.rendered || "0") || 0;
var known = remembered();
if (!known || rendered >= known.at) {
  remember(user, rendered);   // this page is the newest word on who is signed in
} else if (known.user !== user) {
  show(known.user);           // a stored page, older than what the phone knows
}

// Signing out: forget the name at once, before the answer arrives.
document.addEventListener("submit", function (e) {
  var form = e.target;
  if (form && form.matches && form.matches("form[data-sign-out]")) {
    var now = remembered();
    remember("", Math.max(rendered, now ? now.at : 0));
  }
}, true);
