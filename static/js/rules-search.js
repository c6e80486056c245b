/* Rules search in the browser: the same algorithm as games/rules_search.py (search, suggest,
 * snippet), run over /rules/index.json so that search also works offline.
 *
 * Used twice:
 *  - by the service worker (importScripts), to answer /rules/search/ when the network is
 *    gone: RulesSearch.createEngine(index) and RulesSearch.renderResults(...);
 *  - on the rules pages, where it makes "did you mean" links fill the search box, and
 *    shows the offline banner.
 * Keep it in step with games/rules_search.py: tests/browser/test_rules_offline.py compares them.
 */
(function (root) {
  "use strict";

  var TOKEN_RE = /\+[0-9]+|[a-z0-9]+|[♠♥♦♣]/g;
  var DIGITS_S_RE = /^([0-9]+)s$/;
  var DIGITS_RE = /^[0-9]+$/;

  function fold(text) {
    // "D$%n" has no letters to match; same length keeps offsets valid.
    return text.toLowerCase().split("d$%n").join("damn");
  }

  function escapeHtml(text) {
    return text
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&#x27;");
  }

  function sameList(a, b) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  function contains(sequence, phrase) {
    return find(sequence, phrase) >= 0;
  }

  function find(sequence, phrase) {
    var n = phrase.length;
    if (n === 0 || n > sequence.length) return -1;
    for (var i = 0; i <= sequence.length - n; i++) {
      var ok = true;
      for (var j = 0; j < n; j++) {
        if (sequence[i + j] !== phrase[j]) { ok = false; break; }
      }
      if (ok) return i;
    }
    return -1;
  }

  function editDistance(a, b) {
    var previous = [];
    for (var j = 0; j <= b.length; j++) previous.push(j);
    for (var i = 1; i <= a.length; i++) {
      var current = [i];
      for (var k = 1; k <= b.length; k++) {
        current.push(Math.min(previous[k] + 1, current[k - 1] + 1,
          previous[k - 1] + (a[i - 1] !== b[k - 1] ? 1 : 0)));
      }
      previous = current;
    }
    return previous[previous.length - 1];
  }

  function round6(x) {
    return Math.round(x * 1e6) / 1e6;
  }

  function Engine(index) {
    var self = this;
    this.index = index;
    this.w = index.weights;
    this.stopwords = new Set(index.stopwords);
    this.irregular = index.irregular;
    this.spelling = index.spelling;
    this.letters = index.letters;
    this.symbols = index.symbols;
    this.numberStems = {};
    Object.keys(index.numbers).forEach(function (word) {
      self.numberStems[self.stem(word)] = index.numbers[word];
    });
    this.rulesets = {};
    index.rulesets.forEach(function (r) { self.rulesets[r.slug] = r; });
    this.synonyms = index.synonyms.map(function (group) {
      return group.map(function (p) { return self.terms(p); });
    });
    this.gameNames = [];
    Object.keys(index.game_names).forEach(function (slug) {
      self.gameNames.push([slug, index.game_names[slug].map(function (n) { return self.terms(n); })]);
    });
    this.docs = [];
    this.vocabulary = new Map();
    index.docs.forEach(function (d, i) {
      var bodyTokens = self.tokenize(d.text);
      var bodyTerms = [];
      bodyTokens.forEach(function (t) { t.terms.forEach(function (x) { bodyTerms.push(x); }); });
      var keywordPhrases = d.keywords.map(function (k) { return self.terms(k); });
      var keywordTerms = new Set();
      keywordPhrases.forEach(function (p) { p.forEach(function (t) { keywordTerms.add(t); }); });
      var tf = new Map();
      bodyTerms.forEach(function (t) { tf.set(t, (tf.get(t) || 0) + 1); });
      self.docs.push({
        index: i, ruleset: d.ruleset, rulesetName: d.ruleset_name, section: d.section,
        title: d.title, text: d.text, url: d.url, titleTerms: self.terms(d.title),
        keywordPhrases: keywordPhrases, keywordTerms: keywordTerms, bodyTokens: bodyTokens,
        bodyTerms: bodyTerms, tf: tf, length: bodyTerms.length
      });
      [d.title, d.text].concat(d.keywords).forEach(function (source) {
        (fold(source).match(/[a-z]+/g) || []).forEach(function (word) {
          if (word.length >= 3 && !self.stopwords.has(word)) {
            self.vocabulary.set(word, (self.vocabulary.get(word) || 0) + 1);
          }
        });
      });
    });
    this.df = new Map();
    this.docs.forEach(function (doc) {
      var seen = new Set(tf_keys(doc));
      seen.forEach(function (t) { self.df.set(t, (self.df.get(t) || 0) + 1); });
    });
    var total = 0;
    this.docs.forEach(function (doc) { total += doc.length; });
    this.avgLength = total / this.docs.length;
  }

  function tf_keys(doc) {
    var keys = [];
    doc.tf.forEach(function (_, k) { keys.push(k); });
    doc.keywordTerms.forEach(function (k) { keys.push(k); });
    doc.titleTerms.forEach(function (k) { keys.push(k); });
    return keys;
  }

  Engine.prototype.stripSuffixes = function (word) {
    if (word.length <= 3 || DIGITS_RE.test(word)) return word;
    var n = word.length;
    if (word.endsWith("ies") && n > 4) {
      word = word.slice(0, -3) + "y";
    } else if (word.endsWith("es") && n > 4 &&
               ("sxz".indexOf(word[n - 3]) >= 0 || ["ch", "sh"].indexOf(word.slice(-4, -2)) >= 0)) {
      word = word.slice(0, -2);
    } else if (word.endsWith("s") && !(word.endsWith("ss") || word.endsWith("us") || word.endsWith("is"))) {
      word = word.slice(0, -1);
    }
    if (word.endsWith("ing") && word.length > 5) {
      word = word.slice(0, -3);
    } else if (word.endsWith("ed") && word.length > 4) {
      word = word.slice(0, -2);
    }
    var m = word.length;
    if (m > 3 && word[m - 1] === word[m - 2] && "lsz".indexOf(word[m - 1]) < 0) {
      word = word.slice(0, -1);
    }
    if (word.length > 3 && word.endsWith("e")) word = word.slice(0, -1);
    return word;
  };

  Engine.prototype.stem = function (word) {
    if (Object.prototype.hasOwnProperty.call(this.irregular, word)) word = this.irregular[word];
    var stemmed = this.stripSuffixes(word);
    return Object.prototype.hasOwnProperty.call(this.spelling, stemmed) ? this.spelling[stemmed] : stemmed;
  };

  Engine.prototype.termsOf = function (raw) {
    if (Object.prototype.hasOwnProperty.call(this.symbols, raw)) return [this.stem(this.symbols[raw])];
    if (raw[0] === "+") return ["draw", raw.slice(1)];
    var digits = DIGITS_S_RE.exec(raw);
    if (digits) return [digits[1]];
    if (this.stopwords.has(raw)) return [];
    if (raw.length === 1 && !DIGITS_RE.test(raw)) {
      return Object.prototype.hasOwnProperty.call(this.letters, raw) ? [this.letters[raw]] : [];
    }
    var term = this.stem(raw);
    return [Object.prototype.hasOwnProperty.call(this.numberStems, term) ? this.numberStems[term] : term];
  };

  Engine.prototype.tokenize = function (text) {
    var folded = fold(text);
    var tokens = [];
    var re = new RegExp(TOKEN_RE.source, "g");
    var m;
    while ((m = re.exec(folded)) !== null) {
      tokens.push({ start: m.index, end: m.index + m[0].length, terms: this.termsOf(m[0]) });
    }
    return tokens;
  };

  Engine.prototype.terms = function (text) {
    var out = [];
    this.tokenize(text).forEach(function (t) { t.terms.forEach(function (x) { out.push(x); }); });
    return out;
  };

  Engine.prototype.idf = function (term) {
    var n = this.docs.length;
    var df = this.df.get(term) || 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };

  Engine.prototype.has = function (doc, term) {
    return doc.tf.has(term) || doc.keywordTerms.has(term) || doc.titleTerms.indexOf(term) >= 0;
  };

  Engine.prototype.hasPhrase = function (doc, phrase) {
    if (phrase.length === 1) return this.has(doc, phrase[0]);
    return contains(doc.bodyTerms, phrase) || contains(doc.titleTerms, phrase) ||
      doc.keywordPhrases.some(function (k) { return contains(k, phrase); });
  };

  Engine.prototype.parseQuery = function (q) {
    var queryTerms = this.terms(q);
    var games = new Set();
    this.gameNames.forEach(function (entry) {
      var names = entry[1];
      for (var i = 0; i < names.length; i++) {
        var name = names[i];
        var at = name.length ? find(queryTerms, name) : -1;
        if (at >= 0 && queryTerms.length > name.length) {
          games.add(entry[0]);
          queryTerms = queryTerms.slice(0, at).concat(queryTerms.slice(at + name.length));
          break;
        }
      }
    });
    var originals = [];
    queryTerms.forEach(function (t) { if (originals.indexOf(t) < 0) originals.push(t); });
    var alternatives = {};
    originals.forEach(function (t) { alternatives[t] = []; });
    var phrases = [];
    if (queryTerms.length >= 2) phrases.push(queryTerms.slice());
    this.synonyms.forEach(function (group) {
      var present = group.filter(function (p) { return p.length && contains(queryTerms, p); });
      if (!present.length) return;
      var replaced = [];
      present.forEach(function (p) { p.forEach(function (t) { if (replaced.indexOf(t) < 0) replaced.push(t); }); });
      group.forEach(function (phrase) {
        if (!phrase.length || present.some(function (p) { return sameList(p, phrase); })) return;
        replaced.forEach(function (original) {
          var list = alternatives[original];
          if (!list.some(function (p) { return sameList(p, phrase); })) list.push(phrase);
        });
      });
    });
    return { originals: originals, alternatives: alternatives, phrases: phrases, games: games };
  };

  Engine.prototype.highlightTerms = function (query) {
    var found = new Set(query.originals);
    Object.keys(query.alternatives).forEach(function (k) {
      query.alternatives[k].forEach(function (p) { if (p.length === 1) found.add(p[0]); });
    });
    return found;
  };

  Engine.prototype.termScore = function (doc, term) {
    var w = this.w;
    var tf = doc.tf.get(term) || 0;
    var norm = w.k1 * (1 - w.b + w.b * doc.length / this.avgLength);
    var fieldScore = (doc.titleTerms.indexOf(term) >= 0 ? w.title : 0.0) +
      (doc.keywordTerms.has(term) ? w.keyword : 0.0) +
      (tf ? tf * (w.k1 + 1) / (tf + norm) : 0.0);
    return this.idf(term) * fieldScore;
  };

  Engine.prototype.score = function (doc, query) {
    var self = this;
    var w = this.w;
    var score = 0.0;
    var covered = 0.0;
    query.originals.forEach(function (term) {
      var direct = self.termScore(doc, term);
      var viaSynonym = 0.0;
      query.alternatives[term].forEach(function (phrase) {
        if (!self.hasPhrase(doc, phrase)) return;
        var sum = 0;
        phrase.forEach(function (t) { sum += self.termScore(doc, t); });
        var value = w.synonym * sum / phrase.length;
        if (value > viaSynonym) viaSynonym = value;
      });
      score += Math.max(direct, viaSynonym);
      if (direct > 0) covered += 1.0;
      else if (viaSynonym > 0) covered += w.synonym;
    });
    if (score === 0.0) return 0.0;
    query.phrases.forEach(function (phrase) {
      if (self.hasPhrase(doc, phrase)) {
        var sum = 0;
        phrase.forEach(function (t) { sum += self.idf(t); });
        score += w.phrase * sum;
      }
    });
    var coverage = covered / query.originals.length;
    score *= coverage * coverage;
    if (doc.section === "quick-reference") score *= w.quick_reference;
    if (query.games.has(doc.ruleset)) score *= w.game_name;
    return score;
  };

  Engine.prototype.snippet = function (text, wanted, tokens) {
    var width = this.w.snippet_tokens;
    tokens = tokens || this.tokenize(text);
    if (!tokens.length) return escapeHtml(text);
    var hits = tokens.map(function (t) { return t.terms.some(function (x) { return wanted.has(x); }); });
    var bestStart = 0;
    var bestKey = [-1, -1];
    var last = Math.max(1, tokens.length - width + 1);
    for (var start = 0; start < last; start++) {
      var end = Math.min(start + width, tokens.length);
      var distinct = new Set();
      var count = 0;
      for (var i = start; i < end; i++) {
        if (!hits[i]) continue;
        count++;
        tokens[i].terms.forEach(function (x) { if (wanted.has(x)) distinct.add(x); });
      }
      if (distinct.size > bestKey[0] || (distinct.size === bestKey[0] && count > bestKey[1])) {
        bestStart = start;
        bestKey = [distinct.size, count];
      }
    }
    var first = bestStart;
    for (var f = bestStart; f < tokens.length; f++) { if (hits[f]) { first = f; break; } }
    var from = Math.max(0, first - 6);
    for (var back = first; back > Math.max(-1, first - this.w.snippet_lookback - 1); back--) {
      if (back === 0 || /[.!?:;\n]/.test(text.slice(tokens[back - 1].end, tokens[back].start))) {
        from = back;
        break;
      }
    }
    from = Math.max(0, Math.min(from, tokens.length - width));
    var to = Math.min(tokens.length, from + width);
    var out = [from > 0 ? "…" : ""];
    var cursor = tokens[from].start;
    for (var k = from; k < to; k++) {
      var token = tokens[k];
      out.push(escapeHtml(text.slice(cursor, token.start)));
      var word = escapeHtml(text.slice(token.start, token.end));
      out.push(hits[k] ? "<mark>" + word + "</mark>" : word);
      cursor = token.end;
    }
    if (to < tokens.length) out.push("…");
    else out.push(escapeHtml(text.slice(cursor)));
    return out.join("").trim();
  };

  Engine.prototype.search = function (q, ruleset, limit) {
    var self = this;
    limit = limit || this.w.max_hits;
    var query = this.parseQuery(q);
    if (!query.originals.length) return [];
    var scored = [];
    this.docs.forEach(function (doc) {
      if (ruleset && doc.ruleset !== ruleset) return;
      var s = round6(self.score(doc, query));
      if (s > 0) scored.push([s, doc]);
    });
    if (!scored.length) return [];
    scored.sort(function (a, b) { return b[0] - a[0] || a[1].index - b[1].index; });
    var top = scored[0][0];
    var wanted = this.highlightTerms(query);
    return scored.slice(0, limit).filter(function (pair) {
      return pair[0] >= top * self.w.min_relative;
    }).map(function (pair) {
      var doc = pair[1];
      return {
        ruleset: doc.ruleset, ruleset_name: doc.rulesetName, section: doc.section,
        title: doc.title, snippet: self.snippet(doc.text, wanted, doc.bodyTokens),
        url: doc.url, score: pair[0]
      };
    });
  };

  Engine.prototype.correct = function (word) {
    if (word.length < 3 || this.vocabulary.has(word) || this.stopwords.has(word) || DIGITS_RE.test(word)) {
      return word;
    }
    var allowed = word.length <= 5 ? 1 : 2;
    var best = null;
    this.vocabulary.forEach(function (count, candidate) {
      if (Math.abs(candidate.length - word.length) > allowed) return;
      var distance = editDistance(word, candidate);
      if (distance > allowed) return;
      var better = best === null || distance < best[0] ||
        (distance === best[0] && (-count < best[1] || (-count === best[1] && candidate < best[2])));
      if (better) best = [distance, -count, candidate];
    });
    return best ? best[2] : word;
  };

  Engine.prototype.suggest = function (q, ruleset) {
    var self = this;
    var suggestions = [];
    var words = fold(q).match(/[a-z0-9]+/g) || [];
    var corrected = words.map(function (w) { return self.correct(w); }).join(" ");
    if (corrected && corrected !== words.join(" ") && this.search(corrected, ruleset, 1).length) {
      suggestions.push({ q: corrected, ruleset: ruleset || null, reason: "spelling" });
    }
    if (ruleset && this.search(q, null, 1).length) {
      suggestions.push({ q: q.trim(), ruleset: null, reason: "all-games" });
    }
    this.index.topics.forEach(function (topic) {
      if (self.search(topic, ruleset, 1).length) {
        suggestions.push({ q: topic, ruleset: ruleset || null, reason: "topic" });
      }
    });
    return suggestions;
  };

  function searchUrl(base, q, ruleset, panel) {
    var params = new URLSearchParams();
    params.set("q", q);
    if (ruleset) params.set("ruleset", ruleset);
    if (panel) params.set("panel", "1");
    return base + "?" + params.toString();
  }

  /* The results block, as templates/rules/_results.html renders it. */
  function renderResults(engine, options) {
    var q = options.q;
    var ruleset = options.ruleset || "";
    var panel = !!options.panel;
    var base = options.searchUrl || "/rules/search/";
    var id = panel ? "rules-panel-results" : "rules-results";
    var rulesetName = ruleset && engine.rulesets[ruleset] ? engine.rulesets[ruleset].name : "";
    var inGame = rulesetName ? " in " + escapeHtml(rulesetName) : "";
    var html = ['<div id="' + id + '" class="rules-results" aria-live="polite">'];
    if (q) {
      if (options.offline) {
        html.push('<p class="rules-offline-note">Offline: searching the rules saved on this device.</p>');
      }
      var hits = engine.search(q, ruleset || null);
      if (hits.length) {
        html.push('<p class="rules-results-count">' + hits.length + " section" +
          (hits.length === 1 ? "" : "s") + " for “" + escapeHtml(q) + "”" + inGame + "</p>");
        html.push('<ol class="rules-hits">');
        hits.forEach(function (hit) {
          var same = panel && hit.ruleset === ruleset;
          var href = same ? "#rp-" + hit.section : hit.url;
          var external = panel && hit.ruleset !== ruleset;
          html.push('<li class="rules-hit"><a class="rules-hit-link" href="' + escapeHtml(href) + '"' +
            (external ? ' target="_blank" rel="noopener"' : "") + ">" +
            '<span class="rules-hit-title">' + escapeHtml(hit.title) + "</span> " +
            (rulesetName ? "" : '<span class="rules-hit-game">' + escapeHtml(hit.ruleset_name) + "</span>") +
            "</a>" +
            '<p class="rules-hit-snippet">' + hit.snippet + "</p></li>");
        });
        html.push("</ol>");
      } else {
        html.push('<div class="rules-no-hits"><p><strong>Nothing in the rules matches “' +
          escapeHtml(q) + "”" + inGame + ".</strong></p>");
        var suggestions = engine.suggest(q, ruleset || null);
        if (suggestions.length) {
          html.push('<ul class="rules-suggestions">');
          suggestions.forEach(function (s) {
            var link = '<a href="' + escapeHtml(searchUrl(base, s.q, s.ruleset, panel)) +
              '" data-suggest-q="' + escapeHtml(s.q) + '" data-suggest-ruleset="' +
              escapeHtml(s.ruleset || "") + '">';
            if (s.reason === "spelling") {
              html.push("<li>Did you mean " + link + escapeHtml(s.q) + "</a>?</li>");
            } else if (s.reason === "all-games") {
              html.push("<li>" + link + "Search all games</a> for “" + escapeHtml(s.q) + "”</li>");
            } else {
              html.push("<li>Browse " + link + escapeHtml(s.q) + "</a></li>");
            }
          });
          html.push("</ul>");
        }
        html.push('<p class="rules-tip">Try one word a player would say: wild, skip, ante, bower, last card.</p></div>');
      }
    }
    html.push("</div>");
    return html.join("");
  }

  var api = {
    createEngine: function (index) { return new Engine(index); },
    renderResults: renderResults,
    escapeHtml: escapeHtml,
    searchUrl: searchUrl
  };
  root.RulesSearch = api;

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
