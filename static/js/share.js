// The Share page: copy the join link, or hand it to the phone's share sheet (Web Share
// API) where the phone has one. Without JavaScript the link stays in a field to select.

document.querySelectorAll("form[data-confirm]").forEach(function (form) {
  form.addEventListener("submit", function (event) {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
});

/* The join link's field, its Copy and Share buttons. */
function enhance(input) {
  var status = document.querySelector("[data-share-status]");
  var copy = document.querySelector("[data-copy]");
  var share = document.querySelector("[data-share]");

  function say(text) {
    if (status) status.textContent = text;
  }

  function copyBySelection() {
    input.focus();
    input.select();
    try {
      return document.execCommand("copy");
    } catch (e) {
      return false;
    }
  }

  input.addEventListener("focus", function () { input.select(); });

  if (copy) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      var done = function () { say(gettext("Link copied.")); };
      var fallback = function () {
        say(copyBySelection() ? gettext("Link copied.") : gettext("Select the link above and copy it."));
      };
      // The Clipboard API needs a secure context (https or localhost).
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, fallback);
      } else {
        fallback();
      }
    });
  }

  if (share && typeof navigator.share === "function") {
    share.hidden = false;
    share.addEventListener("click", function () {
      navigator.share({
        title: share.dataset.title,
        text: share.dataset.text,
        url: input.value,
      }).catch(function (error) {
        if (error && error.name !== "AbortError") say(gettext("Sharing did not work: copy the link instead."));
      });
    });
  }
}

var field = document.querySelector("[data-share-url]");
if (field) enhance(field);
