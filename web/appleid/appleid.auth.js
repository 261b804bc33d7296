/* Sign in with Apple JS as served by siwa-mock (docs/browser.md). Apple's documented surface:
   https://developer.apple.com/documentation/signinwithapplejs — AppleID.auth.init, signIn, renderButton,
   appleid-signin-* meta tags, AppleIDSignInOnSuccess / AppleIDSignInOnFailure. Plain JavaScript. */
(function () {
  "use strict";
  if (window.AppleID && window.AppleID.auth) { return; }
  var script = document.currentScript;
  var source = script && script.src ? new URL(script.src, location.href) : new URL(location.href);
  // Apple's CDN host serves the script, appleid.apple.com the sheet; served by the mock, the mock does both.
  var authOrigin = source.hostname === "appleid.cdn-apple.com"
    ? "https://appleid.apple.com" + (source.port ? ":" + source.port : "") : source.origin;
  var config = null;
  var pending = null;
  var metaNames = { clientId: "client-id", scope: "scope", redirectURI: "redirect-uri", state: "state",
    nonce: "nonce", usePopup: "use-popup" };

  function metaConfig() {
    var found = {};
    var any = false;
    Object.keys(metaNames).forEach(function (key) {
      var meta = document.querySelector('meta[name="appleid-signin-' + metaNames[key] + '"]');
      if (meta) { found[key] = meta.getAttribute("content") || ""; any = true; }
    });
    if (typeof found.usePopup === "string") { found.usePopup = found.usePopup.toLowerCase() === "true"; }
    return any ? found : null;
  }

  function merged(extra) {
    var out = {};
    [config || metaConfig() || {}, extra || {}].forEach(function (part) {
      Object.keys(part).forEach(function (key) { if (part[key] !== undefined) { out[key] = part[key]; } });
    });
    return out;
  }

  function check(settings) {
    ["clientId", "redirectURI"].forEach(function (key) {
      if (typeof settings[key] !== "string" || settings[key] === "") {
        throw new TypeError('The "' + key + '" should be a non-empty string.');
      }
    });
  }

  function authorizeURL(settings, popup, frameID) {
    var query = [["client_id", settings.clientId], ["redirect_uri", settings.redirectURI],
      ["response_type", "code id_token"], ["state", settings.state], ["scope", settings.scope],
      ["nonce", settings.nonce], ["response_mode", popup ? "web_message" : "form_post"],
      ["frame_id", popup ? frameID : undefined], ["m", "11"], ["v", "1.5.4"]];
    return authOrigin + "/auth/authorize?" + query.filter(function (pair) {
      return typeof pair[1] === "string" && pair[1] !== "";
    }).map(function (pair) {
      return encodeURIComponent(pair[0]) + "=" + encodeURIComponent(pair[1]);
    }).join("&");
  }

  function dispatch(name, detail) {
    document.dispatchEvent(new CustomEvent(name, { detail: detail }));
  }

  function newFrameID() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // The web_message the mock's result page posts: {method: "oauthDone", data: {...}} (docs/fidelity.md);
  // a bare {authorization: ...} or {error: ...} object, or either as JSON text, is accepted too.
  function readMessage(data) {
    if (typeof data === "string") {
      try { data = JSON.parse(data); } catch (e) { return null; }
    }
    if (!data || typeof data !== "object") { return null; }
    if (data.method === "oauthDone" || data.method === "oauthFailed") { data = data.data; }
    if (!data || typeof data !== "object") { return null; }
    if (typeof data.error === "string") { return { error: data.error }; }
    if (data.authorization && typeof data.authorization.code === "string") {
      var response = { authorization: { code: data.authorization.code, id_token: data.authorization.id_token,
        state: data.authorization.state } };
      if (data.user) { response.user = typeof data.user === "string" ? JSON.parse(data.user) : data.user; }
      return response;
    }
    return null;
  }

  function finish(flow, outcome) {
    if (flow.done) { return; }
    flow.done = true;
    clearInterval(flow.timer);
    window.removeEventListener("message", flow.listener);
    if (pending === flow) { pending = null; }
    if (outcome.error) {
      dispatch("AppleIDSignInOnFailure", { error: outcome.error });
      flow.reject({ error: outcome.error });
    } else {
      dispatch("AppleIDSignInOnSuccess", outcome);
      flow.resolve(outcome);
    }
  }

  function popupSignIn(settings) {
    return new Promise(function (resolve, reject) {
      // A second signIn while a popup is open ends the first flow (react-apple-login#39).
      if (pending) { finish(pending, { error: "user_trigger_new_signin_flow" }); }
      var frameID = newFrameID();
      var width = 700, height = 700;
      var left = Math.max(0, (screen.width - width) / 2), top = Math.max(0, (screen.height - height) / 2);
      var popup = window.open(authorizeURL(settings, true, frameID), "AppleAuthentication",
        "width=" + width + ",height=" + height + ",left=" + left + ",top=" + top + ",scrollbars=yes");
      var flow = { resolve: resolve, reject: reject, done: false, popup: popup };
      if (!popup) {
        flow.timer = 0;
        flow.listener = function () {};
        finish(flow, { error: "popup_blocked_by_browser" });
        return;
      }
      pending = flow;
      flow.listener = function (event) {
        if (event.origin !== authOrigin || event.source !== popup) { return; }
        var outcome = readMessage(event.data);
        if (outcome) { finish(flow, outcome); }
      };
      window.addEventListener("message", flow.listener);
      flow.timer = setInterval(function () {
        if (!popup.closed || flow.done) { return; }
        clearInterval(flow.timer);
        // A message posted just before the popup closed is still queued: let it arrive first.
        setTimeout(function () { finish(flow, { error: "popup_closed_by_user" }); }, 150);
      }, 200);
    });
  }

  function signIn(extra) {
    var settings = merged(extra);
    try { check(settings); } catch (error) { return Promise.reject(error); }
    if (settings.usePopup) { return popupSignIn(settings); }
    window.location.assign(authorizeURL(settings, false));
    return new Promise(function () {});  // the page navigates away
  }

  var labels = { "sign in": "Sign in with Apple", "sign-in": "Sign in with Apple", "signin": "Sign in with Apple",
    "continue": "Continue with Apple", "sign up": "Sign up with Apple", "sign-up": "Sign up with Apple",
    "signup": "Sign up with Apple" };

  function renderButton() {
    var host = document.getElementById("appleid-signin");
    if (!host) { return; }
    var data = host.dataset;
    var color = (data.color || "black").toLowerCase();
    var label = labels[(data.type || "sign in").toLowerCase()] || labels["sign in"];
    var mode = (data.mode || "center-align").toLowerCase();
    var button = document.createElement("button");
    button.type = "button";
    button.className = "siwa-mock-button";
    button.setAttribute("aria-label", label);
    button.textContent = mode === "logo-only" ? "\u25CF" : label;
    var style = button.style;
    style.background = color === "white" ? "#fff" : "#000";
    style.color = color === "white" ? "#000" : "#fff";
    style.border = data.border === "true" || (color === "white" && data.border !== "false")
      ? "1px solid " + (color === "white" ? "#000" : "#fff") : "none";
    style.borderRadius = (data.borderRadius !== undefined ? Number(data.borderRadius) || 0 : 15) + "%";
    style.font = "600 16px -apple-system, BlinkMacSystemFont, 'Helvetica Neue', Helvetica, Arial, sans-serif";
    style.width = data.width ? data.width + (/^\d+$/.test(data.width) ? "px" : "") : "100%";
    style.height = (data.height && /^\d+$/.test(data.height) ? data.height : "44") + "px";
    style.textAlign = mode === "left-align" ? "left" : "center";
    style.padding = "0 12px";
    style.cursor = "pointer";
    button.addEventListener("click", function () {
      signIn().catch(function () { /* delivered as AppleIDSignInOnFailure */ });
    });
    host.textContent = "";
    host.appendChild(button);
  }

  function init(clientConfig) {
    if (!clientConfig || typeof clientConfig !== "object") {
      throw new TypeError("init expects a ClientConfigI object.");
    }
    config = merged(clientConfig);
    check(config);
    renderButton();
  }

  window.AppleID = window.AppleID || {};
  window.AppleID.auth = { init: init, signIn: signIn, renderButton: renderButton };

  function start() {
    if (!config && metaConfig()) { renderButton(); }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();