/* scorekeeper — how long a phone waits before asking the server again, shared by the
 * live poll and the events stream's reconnection (live.js) and the table tools' poll
 * (table-tools.js).
 *
 * Exponential with full jitter: after n answers in a row that brought nothing new (or
 * failed), the next request goes at a random moment between 0 and base × 2^n, at most
 * the cap; so a room of phones that lost the events server at once spreads out, and an
 * idle one asks less and less often. A change brings the wait back to its start, a
 * steady beat of base ± 25 %. A phone that polls because no events server is there at
 * all keeps that beat while the answers come ("nothing new" is all it can hear).
 * `Retry-After` (seconds or an HTTP date, on a 429 or 503 while the server sheds
 * load) is the least wait: the jitter comes on top, so the phones told to wait do not
 * all come back at the same second.
 */

/* Milliseconds a Retry-After header value asks for (null: none, or not readable). */
export function retryAfterMs(value, nowMs) {
  if (value === null || value === undefined) return null;
  var text = String(value).trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return parseInt(text, 10) * 1000;
  var at = Date.parse(text);
  if (isNaN(at)) return null;
  return Math.max(0, at - (nowMs === undefined ? Date.now() : nowMs));
}

/* One backoff: `base` and `cap` in ms; `quietCap`: the cap while the server answers but
 * has nothing new (a poll that finds nothing should not wait as long as one that finds
 * the server away). `random` for the tests. */
export function Backoff(options) {
  options = options || {};
  this.base = options.base || 2000;
  this.cap = options.cap || 60000;
  this.quietCap = options.quietCap || this.cap;
  this.random = options.random || Math.random;
  this.step = 0;
  this.failing = false;
  this.floor = 0;
}

/* The ceiling of the next wait, before jitter. */
Backoff.prototype.ceiling = function () {
  var cap = this.failing ? this.cap : this.quietCap;
  return Math.min(cap, this.base * Math.pow(2, this.step));
};

/* How long to wait before the next request (ms). */
Backoff.prototype.delay = function () {
  var steady = this.step === 0 && !this.failing;
  var wait = this.floor + (steady ? this.base * (0.75 + 0.5 * this.random()) : this.random() * this.ceiling());
  this.floor = 0;
  return Math.round(wait);
};

/* Something new came (or the stream is back): start again from the base. */
Backoff.prototype.reset = function () {
  this.step = 0;
  this.failing = false;
  this.floor = 0;
};

/* Start from a later step (the first poll after the stream broke need not be soon). */
Backoff.prototype.from = function (step) {
  this.step = Math.max(this.step, step);
};

/* The server answered with nothing new: wait longer next time (`grow` false: keep
 * the steady beat). */
Backoff.prototype.quiet = function (grow) {
  if (this.failing || grow === false) this.step = 0;
  this.failing = false;
  if (grow !== false && this.ceiling() < this.quietCap) this.step += 1;
};

/* No answer, or a refusal (5xx, 429): wait longer, at least what Retry-After says. */
Backoff.prototype.fail = function (retryAfter) {
  this.failing = true;
  if (this.ceiling() < this.cap) this.step += 1;
  this.floor = retryAfter && retryAfter > 0 ? retryAfter : 0;
};

/* Whether an HTTP status is a refusal to wait on: no answer (0), a 5xx, 429 or 408. */
export function refused(status) { return !status || status >= 500 || status === 429 || status === 408; }

/* Record an HTTP answer: `changed` (it brought something new), or its status and its
 * Retry-After header; `grow`: whether "nothing new" backs off too. Returns the wait
 * before the next request. */
Backoff.prototype.after = function (status, retryAfterHeader, changed, grow) {
  if (changed) this.reset();
  else if (refused(status)) this.fail(retryAfterMs(retryAfterHeader));
  else this.quiet(grow);
  return this.delay();
};

/* A timer driven by a Backoff: `run(fn, ms)` replaces any pending call. */
export function Timer() { this.id = 0; this.at = 0; }
Timer.prototype.run = function (fn, ms) {
  var self = this;
  this.stop();
  this.at = Date.now() + ms;
  this.id = window.setTimeout(function () { self.id = 0; self.at = 0; fn(); }, ms);
};
Timer.prototype.stop = function () {
  if (this.id) window.clearTimeout(this.id);
  this.id = 0;
  this.at = 0;
};
Timer.prototype.pending = function () { return this.id !== 0; };
