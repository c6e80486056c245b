/* scorekeeper — the outbox: hands saved on this phone and not yet recorded by the server.
 *
 * Every hand saved from the sheet is written here first (IndexedDB: it survives a
 * reload and closing the tab), with the Idempotency-Key made when it was saved; it is
 * removed only when the server has answered for it. A hand the server refused stays
 * here, "held", until the user re-enters it or discards it. No inline script: the page
 * runs under a strict CSP.
 */
(function () {
  "use strict";

  var DB_NAME = "scorekeeper-offline";
  var STORE = "hands";
  var opening = null;

  function open() {
    if (opening) return opening;
    opening = new Promise(function (resolve, reject) {
      if (!window.indexedDB) {
        reject(new Error("IndexedDB is not available"));
        return;
      }
      var request = window.indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        var db = request.result;
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
        var tx = db.transaction(STORE, mode);
        var request = work(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(request ? request.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error || new Error("aborted")); };
      });
    });
  }

  /* The hands kept for one game, in the order they were saved. */
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

  var counter = 0;

  /* A fresh key for a hand being saved: sent with it however often it is resent. */
  function newKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      return window.crypto.randomUUID();
    }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
  }

  /* A number that orders hands saved on this phone, even two in one millisecond. */
  function nextSeq() {
    counter += 1;
    return Date.now() * 1000 + (counter % 1000);
  }

  window.SKOutbox = { open: open, list: list, put: put, remove: remove, newKey: newKey, nextSeq: nextSeq };
})();
