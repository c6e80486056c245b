// A finished game's "Share the result" section: copy the text, hand it (or the image,
// or the public link) to the phone's share sheet where it has one (Web Share API).
// Without JavaScript the text stays in a read-only field to select, and the image has a
// download link. Event delegation: the section is swapped in by htmx.

function section(el) { return el.closest("#result-share"); }

function say(root, text) {
  var status = root.querySelector("[data-result-status]");
  if (status) status.textContent = text;
}

function copyBySelection(field) {
  field.focus();
  field.select();
  try {
    return document.execCommand("copy");
  } catch (e) {
    return false;
  }
}

/* ``copied``: what to say once it is copied; ``select``: what to say when it cannot be. */
function copy(root, text, field, copied, select) {
  var done = function () { say(root, copied); };
  var fallback = function () {
    if (field && copyBySelection(field)) done();
    else say(root, select);
  };
  // The Clipboard API needs a secure context (https or localhost).
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, fallback);
  } else {
    fallback();
  }
}

function failed(root) {
  return function (error) {
    if (error && error.name === "AbortError") return;
    say(root, gettext("Sharing did not work here: copy or download instead."));
  };
}

var canShareFiles = false;
try {
  canShareFiles = typeof navigator.canShare === "function" && navigator.canShare({
    files: [new File([new Uint8Array(8)], "result.png", { type: "image/png" })],
  });
} catch (e) {
  canShareFiles = false;
}

// The whole text in view, however the phone wraps it (no inline style: rows).
function fitRows(field) {
  var guard = 40;
  while (field.scrollHeight > field.clientHeight && guard-- > 0) field.rows += 1;
}

function reveal() {
  document.querySelectorAll("#result-share").forEach(function (root) {
    var field = root.querySelector("[data-result-text]");
    if (field) fitRows(field);
    root.querySelectorAll("[data-result-copy], [data-result-copy-link]").forEach(function (b) {
      b.hidden = false;
    });
    var share = root.querySelector("[data-result-share]");
    if (share) share.hidden = typeof navigator.share !== "function";
    var image = root.querySelector("[data-result-share-image]");
    if (image) {
      image.hidden = !(canShareFiles && typeof navigator.share === "function");
      // Fetched ahead: a phone only opens its share sheet right after the tap.
      if (!image.hidden && !root.resultFile) root.resultFile = imageFile(root, image);
    }
  });
}

/* The PNG as a file to share: a picture, not a part of the page for htmx, so fetch(). */
function imageFile(root, button) {
  var link = root.querySelector("[data-result-image-link]");
  return fetch(link.href, { credentials: "same-origin" })
    .then(function (response) {
      if (!response.ok) throw new Error("image " + response.status);
      return response.blob();
    })
    .then(function (blob) {
      var file = new File([blob], button.dataset.name || "result.png", { type: "image/png" });
      root.resultFileReady = file;
      return file;
    });
}

document.addEventListener("click", function (event) {
  var target = event.target instanceof Element ? event.target : null;
  var button = target && target.closest("[data-result-copy], [data-result-copy-link], [data-result-share], [data-result-share-image]");
  if (!button) return;
  var root = section(button);
  if (!root) return;
  var field = root.querySelector("[data-result-text]");
  var link = root.querySelector("[data-result-public-url]");
  var url = link ? link.href : undefined;
  if (button.hasAttribute("data-result-copy")) {
    copy(root, field.value, field, gettext("Result copied."), gettext("Select the result and copy it."));
  } else if (button.hasAttribute("data-result-copy-link")) {
    copy(root, url, null, gettext("Link copied."), gettext("Select the link and copy it."));
  } else if (button.hasAttribute("data-result-share")) {
    var data = { title: root.dataset.title, text: field.value };
    if (url) data.url = url;
    navigator.share(data).catch(failed(root));
  } else {
    var shareFile = function (file) {
      return navigator.share({ files: [file], title: root.dataset.title, text: field.value });
    };
    if (root.resultFileReady) {
      shareFile(root.resultFileReady).catch(failed(root));
    } else {
      root.resultFile = root.resultFile || imageFile(root, button);
      root.resultFile.then(shareFile).catch(failed(root));
    }
  }
});

document.addEventListener("focusin", function (event) {
  var target = event.target;
  if (target instanceof HTMLTextAreaElement && target.hasAttribute("data-result-text")) target.select();
});

reveal();
document.addEventListener("htmx:afterSettle", reveal);
