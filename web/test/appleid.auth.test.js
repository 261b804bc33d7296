// The logic of Sign in with Apple JS (web/appleid/appleid.auth.js) under Debian's nodejs, no npm:
//   node --test web/test/appleid.auth.test.js
// The served script runs unchanged in a node:vm context whose window, document and timers are stubs,
// so each test reads what it would send: the authorize URL built from AppleID.auth.init's options or
// the appleid-signin-* meta tags, and what signIn makes of the popup's messages.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const source = fs.readFileSync(path.join(__dirname, "..", "appleid", "appleid.auth.js"), "utf8");
const MOCK_SCRIPT = "http://127.0.0.1:8080/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js";

/** Runs the script once in a fresh page; returns the page's AppleID and what the script did to the stubs. */
function loadPage({ src = MOCK_SCRIPT, metas = {}, popupBlocked = false } = {}) {
  const page = { assigned: [], opened: [], events: [], listeners: new Set(), intervals: new Map(), popup: null };
  let timerID = 0;
  const window = {
    location: { href: "https://app.example.com/", assign: (url) => page.assigned.push(url) },
    open(url) {
      page.opened.push(url);
      page.popup = popupBlocked ? null : { closed: false };
      return page.popup;
    },
    addEventListener: (type, listener) => type === "message" && page.listeners.add(listener),
    removeEventListener: (type, listener) => type === "message" && page.listeners.delete(listener),
  };
  const document = {
    currentScript: { src },
    readyState: "complete",
    querySelector(selector) {
      const name = /^meta\[name="appleid-signin-([a-z-]+)"\]$/.exec(selector)[1];
      return name in metas ? { getAttribute: () => metas[name] } : null;
    },
    getElementById: () => null,
    addEventListener() {},
    dispatchEvent: (event) => page.events.push({ type: event.type, detail: event.detail }),
  };
  const context = vm.createContext({
    window, document, location: window.location, URL, crypto: globalThis.crypto,
    screen: { width: 1440, height: 900 },
    CustomEvent: class { constructor(type, init) { this.type = type; this.detail = init.detail; } },
    setInterval: (callback) => { page.intervals.set(++timerID, callback); return timerID; },
    clearInterval: (id) => page.intervals.delete(id),
    setTimeout: (callback) => callback(),  // the popup-closed grace period, at once
  });
  page.load = () => vm.runInContext(source, context, { filename: "appleid.auth.js" });
  page.load();
  page.AppleID = window.AppleID;
  /** A message event as the popup's page (or another window) posts it. */
  page.post = (data, { origin = "http://127.0.0.1:8080", source = page.popup } = {}) => {
    for (const listener of [...page.listeners]) listener({ data, origin, source });
  };
  return page;
}

/** A value made in the vm's realm, as plain data of this one (deepStrictEqual compares prototypes). */
const plain = (value) => JSON.parse(JSON.stringify(value));
const query = (url) => [...new URL(url).searchParams];
const CONFIG = {
  clientId: "com.example.web", scope: "name email", redirectURI: "https://app.example.com/auth/apple/callback",
  state: "a state & more", nonce: "n-0S6_WzA2Mj",
};

test("init's options become the authorize URL, encoded, in Apple's parameter order (redirect mode)", () => {
  const page = loadPage();
  page.AppleID.auth.init(CONFIG);
  page.AppleID.auth.signIn();
  assert.equal(page.assigned.length, 1);
  assert.equal(page.assigned[0],
    "http://127.0.0.1:8080/auth/authorize?client_id=com.example.web"
    + "&redirect_uri=https%3A%2F%2Fapp.example.com%2Fauth%2Fapple%2Fcallback&response_type=code%20id_token"
    + "&state=a%20state%20%26%20more&scope=name%20email&nonce=n-0S6_WzA2Mj&response_mode=form_post&m=11&v=1.5.4");
});

test("absent and empty options are left out of the URL; signIn's options override init's", () => {
  const page = loadPage();
  page.AppleID.auth.init({ clientId: "com.example.web", redirectURI: "https://app.example.com/cb", scope: "" });
  page.AppleID.auth.signIn({ state: "second", redirectURI: undefined });
  assert.deepEqual(query(page.assigned[0]), [
    ["client_id", "com.example.web"], ["redirect_uri", "https://app.example.com/cb"],
    ["response_type", "code id_token"], ["state", "second"], ["response_mode", "form_post"], ["m", "11"],
    ["v", "1.5.4"],
  ]);
});

test("served from Apple's CDN name, the sheet is asked of appleid.apple.com on the script's port", () => {
  for (const [src, origin] of [
    ["https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js", "https://appleid.apple.com"],
    ["https://appleid.cdn-apple.com:8443/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js",
      "https://appleid.apple.com:8443"],
    ["https://localhost:8443/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js", "https://localhost:8443"],
  ]) {
    const page = loadPage({ src });
    page.AppleID.auth.init(CONFIG);
    page.AppleID.auth.signIn();
    assert.equal(new URL(page.assigned[0]).origin, origin, src);
  }
});

test("the appleid-signin-* meta tags configure signIn without init; use-popup is case-insensitive", async () => {
  const page = loadPage({ metas: {
    "client-id": "com.example.web", "redirect-uri": "https://app.example.com/cb", "scope": "email",
    "use-popup": "TRUE",
  } });
  const result = page.AppleID.auth.signIn();
  assert.equal(page.opened.length, 1);
  const sent = new Map(query(page.opened[0]));
  assert.equal(sent.get("client_id"), "com.example.web");
  assert.equal(sent.get("scope"), "email");
  assert.equal(sent.get("response_mode"), "web_message");
  assert.match(sent.get("frame_id"), /^[0-9a-f]{32}$/);
  page.post({ error: "user_cancelled_authorize" });
  await assert.rejects(result, (error) => plain(error).error === "user_cancelled_authorize");
});

test("a missing clientId or redirectURI is a TypeError from init and a rejection from signIn", async () => {
  const page = loadPage();
  assert.throws(() => page.AppleID.auth.init({ clientId: "com.example.web" }),
    (error) => error.name === "TypeError" && error.message === 'The "redirectURI" should be a non-empty string.');
  assert.throws(() => page.AppleID.auth.init(null), (error) => error.name === "TypeError");
  await assert.rejects(loadPage().AppleID.auth.signIn(),
    (error) => error.name === "TypeError" && error.message === 'The "clientId" should be a non-empty string.');
  assert.deepEqual(page.assigned, []);
});

test("popup: the oauthDone envelope as JSON text resolves signIn and fires AppleIDSignInOnSuccess", async () => {
  const page = loadPage();
  page.AppleID.auth.init({ ...CONFIG, usePopup: true });
  const result = page.AppleID.auth.signIn();
  const authorization = { code: "c.0.abc", id_token: "eyJ.x.y", state: CONFIG.state };
  const user = { name: { firstName: "Alice", lastName: "Liddell" }, email: "alice@example.com" };
  const message = JSON.stringify({ method: "oauthDone", data: { authorization, user: JSON.stringify(user) } });
  page.post(message, { origin: "https://evil.example" });  // another origin: ignored
  page.post(message, { source: {} });  // another window: ignored
  page.post({ unrelated: true });  // not a response: ignored
  assert.equal(page.events.length, 0);
  page.post(message);
  assert.deepEqual(plain(await result), { authorization, user });
  assert.deepEqual(plain(page.events), [{ type: "AppleIDSignInOnSuccess", detail: { authorization, user } }]);
  assert.equal(page.listeners.size, 0, "the message listener is removed");
  assert.equal(page.intervals.size, 0, "the popup watch is stopped");
});

test("popup: a bare error object rejects signIn with just the error and fires AppleIDSignInOnFailure", async () => {
  const page = loadPage();
  page.AppleID.auth.init({ ...CONFIG, usePopup: true });
  const result = page.AppleID.auth.signIn();
  page.post({ error: "user_cancelled_authorize", state: CONFIG.state });
  await assert.rejects(result, (error) => {
    assert.deepEqual(plain(error), { error: "user_cancelled_authorize" });
    return true;
  });
  assert.deepEqual(plain(page.events), [{ type: "AppleIDSignInOnFailure", detail: { error: "user_cancelled_authorize" } }]);
});

test("popup: blocked, closed by the user, or replaced by a second signIn — each rejects with Apple's error", async () => {
  const blocked = loadPage({ popupBlocked: true });
  blocked.AppleID.auth.init({ ...CONFIG, usePopup: true });
  await assert.rejects(blocked.AppleID.auth.signIn(), (error) => error.error === "popup_blocked_by_browser");

  const closed = loadPage();
  closed.AppleID.auth.init({ ...CONFIG, usePopup: true });
  const result = closed.AppleID.auth.signIn();
  closed.popup.closed = true;
  for (const tick of [...closed.intervals.values()]) tick();
  await assert.rejects(result, (error) => error.error === "popup_closed_by_user");

  const twice = loadPage();
  twice.AppleID.auth.init({ ...CONFIG, usePopup: true });
  const first = twice.AppleID.auth.signIn();
  const second = twice.AppleID.auth.signIn();
  await assert.rejects(first, (error) => error.error === "user_trigger_new_signin_flow");
  twice.post({ authorization: { code: "c.1", id_token: "t", state: "s" } });
  assert.deepEqual(plain(await second), { authorization: { code: "c.1", id_token: "t", state: "s" } });
});

test("loading the script twice keeps the first AppleID.auth and its configuration", () => {
  const page = loadPage();
  const first = page.AppleID.auth;
  assert.deepEqual(Object.keys(first), ["init", "signIn", "renderButton"]);
  first.init(CONFIG);
  page.load();
  assert.equal(page.AppleID.auth, first);
  page.AppleID.auth.signIn();
  assert.equal(new URL(page.assigned[0]).searchParams.get("client_id"), CONFIG.clientId);
});
