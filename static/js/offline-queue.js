/* scorekeeper — the outbox: what was done on this phone that the server has not yet
 * answered for.
 *
 * Two kinds of item wait here, in the one order they were done in (seq):
 *  - "hand": a hand saved from the sheet, with the Idempotency-Key made when it was
 *    saved (items kept before tool actions joined them carry no kind: they are hands);
 *  - "tool": a tap on the table's shared tools (table-tools.js): its action, sent once.
 * Everything is written here first (IndexedDB: it survives a reload and closing the
 * tab) and removed only when the server has answered for it. A hand the server refused
 * stays here, "held", until the user re-enters it or discards it. The sheet's outbox
 * (offline-sheet.js) sends a game's items one at a time, oldest first whatever their
 * kind, a tool action through the sender table-tools.js gives it (outbox.sender).
 */

const DB_NAME = "scorekeeper-offline";
// The store's name is older than tool actions: renaming it would need an upgrade that
// moves every hand waiting on a phone.
const STORE = "hands";
let opening = null;

function open() {
  if (opening) return opening;
  opening = new Promise(function (resolve, reject) {
    if (!window.indexedDB) {
      reject(new Error("IndexedDB is not available"));
      return;
    }
    const request = window.indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = function () {
      const db = request.result;
      if (!db.objectStoreNames.contains(STORE)) {
        db.createObjectStore(STORE, { keyPath: "key" }).createIndex("game", "game");
      }
    };
    request.onsuccess = function () { resolve(request.result); };
    request.onerror = function () { reject(request.error); };
    request.onblocked = function () { reject(new Error("IndexedDB is blocked")); };
  });
  opening.catch(function () { opening = null; });
  return opening;
}

function run(mode, work) {
  return open().then(function (db) {
    return new Promise(function (resolve, reject) {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = function () { resolve(request ? request.result : undefined); };
      tx.onerror = function () { reject(tx.error); };
      tx.onabort = function () { reject(tx.error || new Error("aborted")); };
    });
  });
}

/* The items kept for one game, in the order they were made. */
function list(game) {
  return run("readonly", function (store) {
    return store.index("game").getAll(String(game));
  }).then(function (items) {
    return (items || []).sort(function (a, b) { return a.seq - b.seq; });
  });
}

function put(item) {
  item.game = String(item.game);
  return run("readwrite", function (store) { return store.put(item); });
}

function remove(key) {
  return run("readwrite", function (store) { return store.delete(key); });
}

function kindOf(item) { return item.kind || "hand"; }

let counter = 0;

/* A fresh key for an item: a hand is sent with it however often it is resent. */
function newKey() {
  if (window.crypto && typeof window.crypto.randomUUID === "function") {
    return window.crypto.randomUUID();
  }
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.prototype.map.call(bytes, function (b) {
    return (b + 256).toString(16).slice(1);
  }).join("");
}

/* A number that orders the items made on this phone, even two in one millisecond. */
function nextSeq() {
  counter += 1;
  return Date.now() * 1000 + (counter % 1000);
}

// ---- sending items of other kinds than hands ---------------------------------------

const senders = {};

/* ``send(item)`` sends an item of ``kind``: it resolves once the server has answered
 * (whatever it said: the item is done) and rejects when it did not (the item waits). */
function sender(kind, send) { senders[kind] = send; }

function senderFor(item) { return senders[kindOf(item)] || null; }

/* A new item was kept: the sheet's outbox takes it in and sends what waits. */
function wake(item) {
  document.dispatchEvent(new CustomEvent("sk:outbox", { detail: { item: item } }));
}

/* The page's form token, as htmx sends it with every request (the body's hx-headers):
   what an item sent by fetch() carries, so that it is the page's current one. */
function csrfToken() {
  try {
    return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  } catch (e) { return ""; }
}

export const outbox = {
  open, list, put, remove, kindOf, newKey, nextSeq, sender, senderFor, wake, csrfToken
};
