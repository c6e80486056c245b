/* scorekeeper — the hands after the one in play, entered on a phone that cannot reach
 * the server (offline-sheet.js keeps them, and asks this file what to show: ``ahead``).
 *
 * The entry panel carries the coming hands as data (#sheet-ahead, made by the game's
 * presenter from the engine's tables, see scorekeeper/web/sheet_ahead.py): each hand's
 * number, dealer, banner facts and card pad. With them:
 *   ahead.panel(panel, n)    a copy of the server's panel, renumbered to hand n, gets
 *                            hand n's dealer, pad values and facts (the dirt rank…);
 *                            "known", "unknown" (facts wait for the server) or "end"
 *   ahead.banner(n)          the banner shows hand n: number, dealer, facts
 *   ahead.waiting(items)     the hands waiting to send show on the grid as provisional
 *                            rows (and totals, when the game's table gives them),
 *                            marked "waiting to send", until the server's sheet replaces
 *                            the grid
 * Nothing here scores a hand: a hand's points are its pad's card values added up, as
 * the pads show them, and the presenter says whether that is the hand's score.
 */

import { parseCard } from "./sheet.js";

/* The coming hands, whole: each hand sends only what differs (a known hand without
 * facts has its predecessor's; without pad or marks, none beside the hand in play's). */
function data() {
  var script = document.getElementById("sheet-ahead");
  if (!script) return null;
  var d;
  try { d = JSON.parse(script.textContent); } catch (e) { return null; }
  var facts = [];
  d.hands.forEach(function (hand) {
    if (!hand.known) return;
    facts = hand.facts || facts;
    hand.facts = facts;
    hand.pad = hand.pad || {};
    hand.marks = hand.marks || {};
  });
  return d;
}

function handOf(d, number) {
  if (!d) return null;
  for (var i = 0; i < d.hands.length; i++) if (d.hands[i].number === number) return d.hands[i];
  return null;
}

function el(tag, className, text) {
  var node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function past(d, number) { return !!(d && d.last && number > d.last); }

// ---- the entry panel ------------------------------------------------------------

/* The words "hand 3" in the page's language, as a pattern (null: English, whose own
 * pattern the callers use as they always did). */
function handWords() {
  // Translators: "hand 3": also finds the hand's number in the server's texts (legends, the save bar's label); the same words as the templates' translations.
  var words = gettext("hand %(number)s");
  if (words === "hand %(number)s" || words.indexOf("%(number)s") < 0) return null;
  return new RegExp(words.split("%(number)s").map(function (part) {
    return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }).join("\\d+"), "i");
}

function renumberBar(panel, number) {
  var bar = panel.querySelector(".savebar");
  var said = bar && bar.getAttribute("aria-label");
  if (said) {
    bar.setAttribute("aria-label", said.replace(handWords() || /\bhand \d+/i, function (m) { return m.replace(/\d+/, number); }));
  }
  var hand = panel.querySelector(".savebar-hand");
  if (hand) hand.textContent = interpolate(gettext("Hand %(number)s"), { number: number }, true);
  var link = panel.querySelector(".savebar-text");
  if (link) link.title = interpolate(gettext("Go to the entry of hand %(number)s"), { number: number }, true);
}

function endPanel(panel, d) {
  panel.dataset.mode = "end";
  var card = panel.querySelector(".entry-card");
  if (!card) return;
  card.textContent = "";
  card.appendChild(el("h2", "", gettext("No more hands")));
  card.appendChild(el("p", "", interpolate(gettext("Hand %(number)s is the game's last: the result shows once the hands waiting are sent."), { number: d.last }, true)));
}

/* ``panel``: a copy of the server's panel (not in the page yet), renumbered to hand
 * ``number`` by offline-sheet.js. */
function panel(node, number) {
  var d = data();
  if (past(d, number)) { endPanel(node, d); return "end"; }
  renumberBar(node, number);
  var hand = handOf(d, number);
  var small = node.querySelector("#entry-heading small");
  if (small && hand) small.textContent = interpolate(gettext("· dealer %(dealer)s · after the hands waiting to send"), { dealer: hand.dealer }, true);
  if (!hand || !hand.known) {
    var form = node.querySelector("form.entry-form");
    if (form) form.insertBefore(el("p", "ahead-note small",
      gettext("What this entry shows of the scores is as before the hands waiting to send: the server scores this hand from the right ones once they are sent.")), form.firstChild);
    return "unknown";
  }
  var pad = node.querySelector("#pad-config");
  var config = padOf(d, hand);
  if (pad && config) pad.textContent = JSON.stringify(config);
  node.querySelectorAll("[data-ahead]").forEach(function (mark) {
    var value = hand.marks[mark.dataset.ahead];
    if (value !== undefined) mark.textContent = value;
  });
  return "known";
}

// ---- the banner -----------------------------------------------------------------

function banner(number) {
  var box = document.querySelector("#sheet-banner .banner");
  var d = data();
  if (!box || !d) return;
  // The hand in play as the server sent it: the banner is the server's own.
  if (!box.dataset.local && d.hands.length && d.hands[0].number === number) return;
  if (past(d, number)) { box.hidden = true; return; }
  var hand = handOf(d, number);
  var head = box.querySelector(".banner-hand");
  if (head && head.firstChild && head.firstChild.nodeType === 3) head.firstChild.textContent = interpolate(gettext("Hand %(number)s"), { number: number }, true);
  var dealer = box.querySelector(".banner-dealer strong");
  if (dealer && hand) dealer.textContent = hand.dealer;
  var hint = box.querySelector(".banner-reminder");
  if (hint) hint.hidden = true;   // about the hand the server last saw
  var facts = box.querySelector(".banner-facts");
  var later = box.querySelector(".banner-later");
  if (later) later.remove();
  if (hand && hand.known && hand.facts.length) {
    if (!facts) {
      facts = el("dl", "banner-facts");
      box.querySelector(".banner-main").after(facts);
    }
    facts.hidden = false;
    facts.textContent = "";
    hand.facts.forEach(function (fact) {
      var div = el("div", "fact" + (fact.big ? " big" : ""));
      div.appendChild(el("dt", "", fact.label));
      div.appendChild(el("dd", "", fact.value));
      facts.appendChild(div);
    });
  } else {
    if (facts) facts.hidden = true;
    box.querySelector(".banner-main").after(el("p", "banner-later small",
      gettext("This hand's other facts show once the hands waiting are sent.")));
  }
  box.dataset.local = "1";
}

// ---- provisional rows -------------------------------------------------------------

function fieldMap(fields) {
  var map = {};
  (fields || []).forEach(function (p) { map[p[0]] = String(p[1]).trim(); });
  return map;
}

/* A coming hand's whole pad: the hand in play's, with what differs. */
function padOf(d, hand) {
  if (!d.pad || !hand || !hand.known) return null;
  var config = JSON.parse(JSON.stringify(d.pad));
  Object.keys(hand.pad || {}).forEach(function (key) { config[key] = hand.pad[key]; });
  return config;
}

/* What each player's pad added up to (cards by the hand's pad table, or the points
 * counted), or null when a part cannot be read. */
function padSums(d, hand, map) {
  var config = padOf(d, hand);
  var byKey = {};
  if (config) config.values.forEach(function (v) { byKey[v.key] = v; });
  var sums = {};
  for (var i = 0; i < d.columns.length; i++) {
    var id = d.columns[i];
    if (String(id) === map.winner) { sums[id] = 0; continue; }
    var counted = map["points_" + id], cards = map["cards_" + id];
    if (counted) {
      var n = parseInt(counted, 10);
      if (isNaN(n)) return null;
      sums[id] = n;
    } else if (cards) {
      if (!config) return null;
      var sum = 0, tokens = cards.split(/[\s,]+/).filter(Boolean);
      for (var t = 0; t < tokens.length; t++) {
        var card = parseCard(tokens[t], config, byKey);
        if (!card) return null;
        sum += byKey[card.key].points;
      }
      sums[id] = sum;
    } else {
      sums[id] = 0;
    }
  }
  return sums;
}

/* A hand's points per column by the presenter's rule, or null. */
function pointsOf(d, item) {
  var rule = d.provisional;
  var map = fieldMap(item.fields);
  if (!rule) return null;
  var points = {};
  if (rule.points === "entered") {
    // Each player scores what was entered for them: every one must read as a number.
    for (var i = 0; i < d.columns.length; i++) {
      var typed = (map["points_" + d.columns[i]] || "").replace("\u2212", "-");
      if (!/^-?[0-9]+$/.test(typed)) return null;
      points[d.columns[i]] = parseInt(typed, 10);
    }
    return points;
  }
  if (!map.winner) return null;
  if (rule.points === "wins") {
    d.columns.forEach(function (id) { points[id] = String(id) === map.winner ? 1 : 0; });
    return points;
  }
  var sums = padSums(d, handOf(d, item.number), map);
  if (!sums) return null;
  if (rule.points === "left") return sums;
  if (rule.points === "takes") {
    var all = 0;
    d.columns.forEach(function (id) { all += sums[id]; });
    d.columns.forEach(function (id) { points[id] = String(id) === map.winner ? all : 0; });
    return points;
  }
  return null;
}

function cellText(d, points, out) {
  if (d.provisional.points === "wins") return out ? d.cell.win : d.cell.zero;
  return points || out ? String(points) : d.cell.zero;
}

function clear(table) {
  table.querySelectorAll("tr.provisional").forEach(function (row) { row.remove(); });
  var empty = table.querySelector("tbody tr.empty");
  if (empty) empty.hidden = false;
  var total = table.querySelector("tfoot tr.total.has-waiting");
  if (total) {
    total.classList.remove("has-waiting");
    total.querySelectorAll("td").forEach(function (td) { td.textContent = td.dataset.sent; });
    var tag = total.querySelector("th .provisional-tag");
    if (tag) tag.remove();
  }
  var line = document.getElementById("sheet-standings");
  if (line && line.dataset.waiting) {
    line.innerHTML = sentLines.get(line) || "";
    line.classList.remove("waiting");
    delete line.dataset.waiting;
  }
}

/* The server's standings line, kept while it shows the totals with waiting hands. */
var sentLines = new WeakMap();

/* The standings line with the totals once the waiting hands are sent: place (ties
 * share one), name and total; what each needs waits for the server. */
function standingsWith(d, table, running) {
  var line = document.getElementById("sheet-standings");
  if (!line) return;
  var names = Array.prototype.map.call(table.querySelectorAll("thead th .col-name"), function (n) {
    return n.textContent.trim();
  });
  if (names.length !== running.length) return;
  if (!line.dataset.waiting) sentLines.set(line, line.innerHTML);
  var order = running.map(function (v, i) { return i; });
  order.sort(function (a, b) { return d.low_wins ? running[a] - running[b] : running[b] - running[a]; });
  var list = el("ol", "standings-list");
  list.setAttribute("aria-label", gettext("Standings if the hands waiting are sent"));
  list.tabIndex = 0;  // it scrolls sideways: the keyboard may scroll it too
  order.forEach(function (i) {
    var place = 1 + order.findIndex(function (j) { return running[j] === running[i]; });
    var item = el("li", "standing" + (place === 1 ? " leader" : ""));
    item.dataset.rank = String(place);
    item.appendChild(el("span", "standing-place", place));
    item.appendChild(document.createTextNode(" "));
    item.appendChild(el("span", "standing-name", names[i]));
    item.appendChild(document.createTextNode(" "));
    item.appendChild(el("strong", "standing-score", running[i]));
    list.appendChild(item);
  });
  line.textContent = "";
  line.appendChild(el("span", "standings-waiting", gettext("If sent:")));
  line.appendChild(list);
  line.classList.add("waiting");
  line.dataset.waiting = "1";
}

function waiting(items) {
  var table = document.querySelector("#sheet-grid table.score-grid");
  if (!table) return;
  clear(table);
  if (!items.length) return;
  var d = data();
  var width = table.querySelectorAll("thead th").length - 1;
  var body = table.querySelector("tbody");
  var empty = body.querySelector("tr.empty");
  if (empty) empty.hidden = true;
  var running = d && d.totals ? d.totals.slice() : null;
  var totalsKnown = !!(d && d.provisional && d.provisional.totals && width === d.columns.length);
  items.slice().sort(function (a, b) { return a.number - b.number; }).forEach(function (item) {
    // Not a "hand-row": those are the server's (live.js merges them).
    var row = el("tr", "provisional");
    row.dataset.waiting = String(item.number);
    var head = el("th", "hand-col");
    head.scope = "row";
    head.appendChild(el("span", "", item.number));
    head.appendChild(el("span", "provisional-tag", gettext("waiting to send")));
    row.appendChild(head);
    var points = d && width === d.columns.length ? pointsOf(d, item) : null;
    if (!points) {
      totalsKnown = false;
      var cell = el("td", "provisional-entry", item.summary || "");
      cell.colSpan = Math.max(1, width);
      row.appendChild(cell);
    } else {
      var map = fieldMap(item.fields);
      d.columns.forEach(function (id, i) {
        var out = String(id) === map.winner;
        var td = el("td", out ? "out" : "");
        td.appendChild(el("span", "pts", cellText(d, points[id], out)));
        running[i] += points[id];
        // The game's own rule on a total (Dirty UNO: exactly 500 drops back to 0).
        if (d.provisional.reset_at != null && running[i] === d.provisional.reset_at) running[i] = 0;
        if (totalsKnown) td.appendChild(el("span", "run", running[i]));
        row.appendChild(td);
      });
    }
    body.appendChild(row);
  });
  if (totalsKnown) {
    // One totals row: the server's, counting the hands waiting, marked so.
    var total = table.querySelector("tfoot tr.total");
    var cells = total ? total.querySelectorAll("td") : [];
    if (cells.length === running.length) {
      total.classList.add("has-waiting");
      total.title = gettext("With the hands waiting to send");
      cells.forEach(function (td, i) {
        td.dataset.sent = td.textContent;
        td.textContent = String(running[i]);
      });
      total.querySelector("th").appendChild(el("span", "provisional-tag", gettext("with waiting")));
    }
    standingsWith(d, table, running);
  }
}

export const ahead = { panel: panel, banner: banner, waiting: waiting };
