(function () {
  var data = JSON.parse(document.getElementById("siwa-web-message").textContent);
  if (!window.opener || typeof data.origin !== "string") {
    document.getElementById("no-opener").hidden = false;
    return;
  }
  window.opener.postMessage(data.message, data.origin);
  setTimeout(function () { window.close(); }, 50);
})();