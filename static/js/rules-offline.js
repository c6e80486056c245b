/* The rules without the network.
 *
 * In the service worker (importScripts, after static/vendor/minisearch): it answers
 * /rules/search/ when the network is gone, with MiniSearch over /rules/index.json, the
 * same paragraphs the server searches with SQLite FTS5 (scorekeeper/rules_index.py), one
 * hit per section linking to its best paragraph: RulesSearch.createEngine(index) and
 * RulesSearch.renderResults(engine, options).
 *
 * On the rules pages: a banner says when the device is offline, and "did you mean" links
 * fill the search box and search again in place.
 *
 * A classic script, not a module like the others: importScripts() loads only those, and
 * a module service worker is not one every phone runs.
 */
(function (root) {
  "use strict";

  // The page's JavaScript catalog (gettext…). The service worker, where the results
  // are made, has none: there the texts stay English.
  var gettext = typeof root.gettext === "function" ? root.gettext : function (s) { return s; };
  var ngettext = typeof root.ngettext === "function" ? root.ngettext :
    function (one, many, n) { return n === 1 ? one : many; };
  var interpolate = typeof root.interpolate === "function" ? root.interpolate :
    function (fmt, obj) { return fmt.replace(/%\(\w+\)s/g, function (m) { return String(obj[m.slice(2, -2)]); }); };

  /* A text of the catalog as HTML, its %(names)s filled with ``values`` (HTML already). */
  function said(text, values) { return interpolate(escapeHtml(text), values || {}, true); }

  var MAX_HITS = 10;
  var MIN_RELATIVE_SCORE = 0.25;
  var WORDS = /([\n\r\p{Z}\p{P}]+)/u; // MiniSearch's word boundaries, kept by split()

  function escapeHtml(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
  }

  function createEngine(index) {
    var stopwords = new Set(index.stopwords);
    var processTerm = function (term) {
      term = term.toLowerCase();
      return stopwords.has(term) ? null : index.numbers[term] || term;
    };
    var mini = new root.MiniSearch({
      fields: ["game_name", "title", "keywords", "defines", "text"],
      storeFields: ["game", "game_name", "section", "title", "anchor", "text", "url"],
      processTerm: processTerm,
      searchOptions: { boost: { title: 3, keywords: 2, defines: 12, text: 4 }, fuzzy: 0.2, prefix: true }
    });
    mini.addAll(index.documents);
    return { mini: mini, processTerm: processTerm, rulesets: index.games };
  }

  /* The excerpt around the first matching word, escaped, with the matches in <mark>. */
  function snippet(engine, text, terms) {
    var parts = text.split(WORDS).map(function (part, i) {
      var hit = i % 2 === 0 && terms.indexOf(engine.processTerm(part)) >= 0;
      return hit ? "<mark>" + escapeHtml(part) + "</mark>" : escapeHtml(part);
    });
    var first = parts.findIndex(function (part) { return part.indexOf("<mark>") === 0; });
    var from = Math.max(0, first - 10);
    from -= from % 2;
    var to = Math.min(parts.length, from + 48);
    return (from ? "…" : "") + parts.slice(from, to).join("") + (to < parts.length ? "…" : "");
  }

  function search(engine, q, ruleset) {
    var found = engine.mini.search(q, {
      filter: function (doc) { return !ruleset || doc.game === ruleset; }
    });
    var seen = new Set();
    var hits = [];
    found.forEach(function (doc) {
      var key = doc.game + "#" + doc.section;
      if (seen.has(key) || hits.length === MAX_HITS) return;
      if (doc.score < found[0].score * MIN_RELATIVE_SCORE) return;
      seen.add(key);
      hits.push({
        ruleset: doc.game, ruleset_name: doc.game_name, section: doc.section, title: doc.title,
        anchor: doc.anchor, url: doc.url, snippet: snippet(engine, doc.text, doc.terms)
      });
    });
    return hits;
  }

  /* The results block, as templates/rules/_results.html renders it. */
  function renderResults(engine, options) {
    var q = options.q;
    var ruleset = options.ruleset || "";
    var panel = !!options.panel;
    var rulesetName = engine.rulesets[ruleset] || "";
    var html = ['<div id="' + (panel ? "rules-panel-results" : "rules-results") +
      '" class="rules-results" aria-live="polite">'];
    if (q) {
      if (options.offline) {
        html.push('<p class="rules-offline-note">' + said(gettext("Offline: searching the rules saved on this device.")) + "</p>");
      }
      var hits = search(engine, q, ruleset);
      if (hits.length) {
        var found = { n: hits.length, q: escapeHtml(q), game: escapeHtml(rulesetName) };
        html.push('<p class="rules-results-count">' + said(rulesetName ?
          ngettext("%(n)s section for “%(q)s” in %(game)s", "%(n)s sections for “%(q)s” in %(game)s", hits.length) :
          ngettext("%(n)s section for “%(q)s”", "%(n)s sections for “%(q)s”", hits.length), found) + "</p>");
        html.push('<ol class="rules-hits">');
        hits.forEach(function (hit) {
          var here = panel && hit.ruleset === ruleset;
          html.push('<li class="rules-hit"><a class="rules-hit-link" href="' +
            escapeHtml(here ? "#rp-" + hit.anchor : hit.url) + '"' +
            (panel && !here ? ' target="_blank" rel="noopener"' : "") + ">" +
            '<span class="rules-hit-title">' + escapeHtml(hit.title) + "</span> " +
            (rulesetName ? "" : '<span class="rules-hit-game">' + escapeHtml(hit.ruleset_name) + "</span>") +
            '</a><p class="rules-hit-snippet">' + hit.snippet + "</p></li>");
        });
        html.push("</ol>");
      } else {
        html.push('<div class="rules-no-hits"><p><strong>' + said(rulesetName ?
          gettext("Nothing in the rules matches “%(q)s” in %(game)s.") : gettext("Nothing in the rules matches “%(q)s”."),
          { q: escapeHtml(q), game: escapeHtml(rulesetName) }) + "</strong></p>");
        if (ruleset && search(engine, q, "").length) {
          var params = new URLSearchParams({ q: q });
          if (panel) params.set("panel", "1");
          var link = '<a href="' +
            escapeHtml(options.searchUrl + "?" + params) + '" data-suggest-q="' + escapeHtml(q) +
            '" data-suggest-ruleset="">' + said(gettext("Search all games")) + "</a>";
          html.push('<ul class="rules-suggestions"><li>' +
            said(gettext("%(search_all)s for “%(q)s”"), { search_all: link, q: escapeHtml(q) }) + "</li></ul>");
        }
        html.push('<p class="rules-tip">' + said(gettext("Try one word a player would say: wild, skip, ante, bower, last card.")) + "</p></div>");
      }
    }
    html.push("</div>");
    return html.join("");
  }

  root.RulesSearch = {
    createEngine: createEngine,
    search: search,
    renderResults: renderResults,
    escapeHtml: escapeHtml
  };

  /* On a page: suggestion links fill the search box and search again in place, and a
   * banner says when the device is offline. */
  if (typeof document !== "undefined" && typeof window !== "undefined") {
    var showOffline = function () {
      var offline = !navigator.onLine;
      document.querySelectorAll("[data-offline-banner]").forEach(function (el) {
        el.hidden = !offline;
      });
    };
    window.addEventListener("online", showOffline);
    window.addEventListener("offline", showOffline);
    document.addEventListener("DOMContentLoaded", showOffline);

    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a[data-suggest-q]");
      if (!link) return;
      var results = link.closest(".rules-results");
      var form = results && document.querySelector('form[data-rules-search="' + results.id + '"]');
      if (!form || typeof form.requestSubmit !== "function") return;
      event.preventDefault();
      form.elements.q.value = link.getAttribute("data-suggest-q");
      var choice = form.elements.ruleset;
      if (choice) choice.value = link.getAttribute("data-suggest-ruleset") || "";
      form.requestSubmit();
    });
  }
})(typeof self !== "undefined" ? self : this);
