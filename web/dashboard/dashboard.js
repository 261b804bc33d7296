"use strict";
(() => {
  const PROOF = "X-SIWA-Mock-Dashboard";
  const STATES = ["authorized", "revoked", "not_found", "transferred"];
  const $ = (id) => document.getElementById(id);
  const seen = { users: "", keys: "", faults: "", notifications: "", mail: "" };
  const journal = { entries: [], after: 0, query: null };
  let users = [];
  let clock = null;
  let ticks = 0;
  let busy = false;

  async function api(method, path, body) {
    const headers = { [PROOF]: "1" };
    const init = { method, headers, credentials: "same-origin", cache: "no-store" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    const text = await response.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch (_) { json = null; }
    if (response.status === 401) {
      window.location.assign("/mock/ui");
      throw new Error("signed out");
    }
    if (!response.ok) {
      const why = json && (json.message || json.error_description
        || (json.problems && json.problems.join("; ")) || json.error);
      throw new Error(`${method} ${path}: ${response.status} ${why || text}`);
    }
    return json;
  }

  function say(text, failed) {
    const status = $("status");
    status.textContent = text;
    status.className = failed ? "error" : "";
  }

  function cell(text, className) {
    const td = document.createElement("td");
    td.textContent = text === null || text === undefined ? "" : String(text);
    if (className) td.className = className;
    return td;
  }

  // Identifiers (ids, subs, emails, paths, fingerprints) never wrap mid-word: each line is one
  // unwrapped block, cut with an ellipsis when the column is narrow; the whole value is its title.
  function clipped(text) {
    const div = document.createElement("div");
    div.className = "clip";
    div.textContent = text === null || text === undefined ? "" : String(text);
    if (div.textContent) div.title = div.textContent;
    return div;
  }

  function idCell(...lines) {
    const td = document.createElement("td");
    td.className = "id";
    for (const line of lines) if (line !== null && line !== undefined && line !== "") td.append(clipped(line));
    return td;
  }

  // A table body, or one "none" row when there is nothing to show.
  function fill(id, rows) {
    const table = $(id);
    if (!rows.childElementCount) {
      const row = document.createElement("tr");
      row.className = "empty";
      const td = cell("none");
      td.colSpan = table.tHead.rows[0].cells.length;
      row.append(td);
      rows.append(row);
    }
    table.tBodies[0].replaceChildren(rows);
  }

  function button(label, action, name) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (name) b.dataset.action = name;
    b.addEventListener("click", () => run(action));
    return b;
  }

  async function run(action) {
    try {
      say(await action() || "done");
    } catch (error) {
      say(error.message, true);
    }
    await refresh(true);
  }

  const userPath = (user) => `/mock/users/${encodeURIComponent(user.id)}`;
  const stateClass = (state) => (STATES.includes(state) ? state : "");

  function renderUsers() {
    const filter = $("users-filter").value.trim().toLowerCase();
    const rows = document.createDocumentFragment();
    let shown = 0;
    for (const user of users) {
      const name = `${user.first_name} ${user.last_name}`.trim();
      const text = `${user.id} ${user.email} ${user.relay_email || ""} ${name}`.toLowerCase();
      if (filter && !text.includes(filter)) continue;
      shown += 1;
      const row = document.createElement("tr");
      row.dataset.user = user.id;
      row.append(idCell(user.id), idCell(user.email, user.relay_email && `relay ${user.relay_email}`),
        cell(name), cell(user.real_user_status),
        cell(user.credential_state, stateClass(user.credential_state)));
      const apps = cell("");
      apps.className = "apps";
      for (const [client, state] of Object.entries(user.credential_states || {})) {
        const line = clipped(`${client}: ${state}`);
        line.className = `clip ${stateClass(state)}`;
        line.dataset.client = client;
        apps.append(line);
      }
      row.append(apps, cell(user.email_forwarding ? "on" : "off"));
      const actions = cell("", "actions");
      actions.append(
        button("Revoke", () => api("PATCH", userPath(user), { credential_state: "revoked" })
          .then(() => `revoked ${user.id}`), "revoke"),
        button("Transfer", () => api("PATCH", userPath(user), { credential_state: "transferred" })
          .then(() => `${user.id} marked transferred`), "transfer"),
        button(user.email_forwarding ? "Stop forwarding" : "Forward email",
          () => api("PATCH", userPath(user), { email_forwarding: !user.email_forwarding })
            .then(() => `forwarding ${user.email_forwarding ? "off" : "on"} for ${user.id}`), "forwarding"),
        button("Delete", () => api("DELETE", userPath(user)).then(() => `deleted ${user.id}`), "delete"));
      row.append(actions);
      rows.append(row);
    }
    fill("users", rows);
    $("users-count").textContent = `(${shown} of ${users.length})`;
  }

  function renderClock() {
    $("clock-now").textContent = clock.now;
    $("clock-frozen").textContent = clock.frozen ? "frozen" : "running";
    $("clock-freeze").textContent = clock.frozen ? "Unfreeze" : "Freeze";
    $("clock-freeze").disabled = !clock.controllable;
  }

  function renderKeys(list) {
    const rows = document.createDocumentFragment();
    for (const key of list.keys) {
      const row = document.createElement("tr");
      row.dataset.kid = key.kid;
      row.append(idCell(key.kid), cell(key.published ? "yes" : "no"), cell(key.signs ? "yes" : "no"));
      rows.append(row);
    }
    fill("keys", rows);
  }

  function renderFaults(list) {
    const rows = document.createDocumentFragment();
    for (const fault of list.faults) {
      const row = document.createElement("tr");
      row.dataset.fault = fault.id;
      row.append(idCell(fault.id), idCell(fault.match), cell(fault.action),
        cell(fault.enabled ? "on" : "off", "enabled"), cell(fault.matched, "matched"),
        cell(fault.fired, "fired"));
      const actions = cell("", "actions");
      const path = `/mock/faults/${encodeURIComponent(fault.id)}`;
      actions.append(button(fault.enabled ? "Disable" : "Enable",
        () => api("PATCH", path, { enabled: !fault.enabled })
          .then(() => `fault ${fault.id} ${fault.enabled ? "disabled" : "enabled"}`), "toggle"));
      row.append(actions);
      rows.append(row);
    }
    fill("faults", rows);
  }

  const refused = (entry) => entry.status >= 400 || entry.reason !== undefined;

  function journalRow(entry) {
    const row = document.createElement("tr");
    row.dataset.sequence = entry.sequence;
    if (refused(entry)) row.className = "refused";
    const parameters = Object.entries(entry.parameters || {}).map(([k, v]) => `${k}=${v}`);
    const params = idCell(...parameters);
    params.classList.add("params");
    row.append(cell(entry.sequence), cell(entry.time, "time"), idCell(`${entry.method} ${entry.path}`),
      idCell(entry.client_id), idCell(entry.user), cell(entry.status),
      cell(entry.outcome, refused(entry) ? "refused outcome" : "ok outcome"),
      cell(entry.reason, "reason"), params);
    return row;
  }

  function renderJournal(fresh, rebuild) {
    const onlyRefusals = $("journal-filters").elements.refusals.checked;
    const body = $("journal").tBodies[0];
    const rows = document.createDocumentFragment();
    const list = rebuild ? journal.entries : fresh;
    for (let i = list.length - 1; i >= 0; i -= 1) {
      if (!onlyRefusals || refused(list[i])) rows.append(journalRow(list[i]));
    }
    const empty = body.querySelector("tr.empty");
    if (rebuild) fill("journal", rows);
    else if (rows.childElementCount) {
      if (empty) empty.remove();
      body.prepend(rows);
    }
    while (body.rows.length > 1000) body.lastElementChild.remove();
  }

  function journalQuery() {
    const form = $("journal-filters").elements;
    const query = new URLSearchParams();
    for (const name of ["path", "client_id", "user"]) {
      const value = form[name].value.trim();
      if (value) query.set(name, value);
    }
    return query.toString();
  }

  async function pollJournal(rebuild) {
    const query = journalQuery();
    if (query !== journal.query) {
      journal.query = query;
      journal.entries = [];
      journal.after = 0;
      rebuild = true;
    }
    let fresh = [];
    for (;;) {
      const suffix = journal.query ? `&${journal.query}` : "";
      const page = await api("GET", `/mock/requests?limit=1000&after=${journal.after}${suffix}`);
      fresh = fresh.concat(page.requests);
      if (page.requests.length) journal.after = page.requests[page.requests.length - 1].sequence;
      if (page.next_after === undefined) break;
    }
    journal.entries = journal.entries.concat(fresh).slice(-1000);
    if (fresh.length || rebuild) renderJournal(fresh, rebuild);
  }

  function renderNotifications(list) {
    const rows = document.createDocumentFragment();
    for (const n of list.notifications) {
      const row = document.createElement("tr");
      row.dataset.notification = n.id;
      const attempts = n.attempts.map((a) => `#${a.number} ${a.time} ${a.status ?? "-"} ${a.outcome}`);
      row.append(idCell(n.id), cell(n.type), idCell(n.user), idCell(n.app_group), idCell(n.url),
        cell(n.status, n.status), cell(attempts.join("\n"), "params"));
      rows.append(row);
    }
    fill("notifications", rows);
  }

  // `/mock/mail` (docs/relay-mail.md): delivered and refused messages, newest first, with the
  // relay's SMTP reply and the reason; empty when the mock runs without --smtp-port. A click on a
  // row opens it in the viewer below.
  const mail = { query: "", selected: null, tab: "html" };
  const mailPath = (id) => `/mock/mail/${encodeURIComponent(id)}`;
  const bytes = (n) => (n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB`
    : `${(n / 1048576).toFixed(1)} MB`);
  // The display name and address; the address alone when there is no name or the name is it.
  function sender(m) {
    const address = m.from || m.envelope_from;
    return m.from_name && m.from_name !== address ? `${m.from_name} <${address}>` : address;
  }

  function renderMail(list) {
    const rows = document.createDocumentFragment();
    for (let i = list.messages.length - 1; i >= 0; i -= 1) {
      const m = list.messages[i];
      const row = document.createElement("tr");
      row.dataset.mail = m.id;
      const classes = [];
      if (m.status !== "delivered") classes.push("refused");
      if (m.id === mail.selected) classes.push("selected");
      row.className = classes.join(" ");
      row.append(idCell(m.id), cell(m.time, "time"), cell(m.status, "status"), idCell(sender(m)),
        idCell(m.relay_address), idCell(m.delivered_to), cell(m.subject, "subject"),
        cell(m.attachments ? `${m.attachments} file${m.attachments > 1 ? "s" : ""}` : "", "files"), cell(bytes(m.size), "size"),
        idCell(m.smtp_reply), idCell(m.reason));
      row.cells[9].classList.add("reply");
      row.cells[10].classList.add("reason");
      row.tabIndex = 0;  // Enter opens it too
      row.addEventListener("click", () => run(() => openMail(m.id)));
      row.addEventListener("keydown", (event) => { if (event.key === "Enter") run(() => openMail(m.id)); });
      rows.append(row);
    }
    fill("mail", rows);
    const shown = mail.query ? `${list.messages.length} found, ` : "";
    $("mail-count").textContent = `(${shown}${list.stored} stored, ${list.dropped} dropped)`;
    if (mail.selected && !list.messages.some((m) => m.id === mail.selected) && !mail.query) closeMail();
  }

  function closeMail() {
    mail.selected = null;
    $("mail-viewer").hidden = true;
    $("mail-frame").removeAttribute("src");
  }

  function showTab(name) {
    mail.tab = name;
    for (const tab of $("mail-tabs").querySelectorAll("[role=tab]")) {
      tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
      $(`mail-tab-${tab.dataset.tab}`).hidden = tab.dataset.tab !== name;
    }
  }

  // The viewer: the HTML part in a frame sandboxed twice (the iframe's empty sandbox attribute and
  // the policy its route sends: no script, no network, docs/relay-mail.md), the text part, every
  // header decoded (RFC 2047; the value as sent is its tooltip), the source, the attachments.
  async function openMail(id) {
    const [message, source] = await Promise.all([
      api("GET", mailPath(id)),
      fetch(`${mailPath(id)}.eml`, { headers: { [PROOF]: "1" }, credentials: "same-origin", cache: "no-store" })
        .then((response) => (response.ok ? response.text() : "")),
    ]);
    mail.selected = id;
    for (const row of $("mail").tBodies[0].rows) row.classList.toggle("selected", row.dataset.mail === id);
    $("mail-subject").textContent = message.subject || "(no subject)";
    $("mail-from").textContent = sender(message);
    $("mail-to").textContent = message.delivered_to ? `${message.relay_address} \u2192 ${message.delivered_to}`
      : message.relay_address;
    $("mail-date").textContent = message.time;
    $("mail-reply").textContent = message.smtp_reply;
    $("mail-reason").textContent = message.reason;
    $("mail-no-html").hidden = message.html !== null;
    $("mail-frame").hidden = message.html === null;
    if (message.html !== null) $("mail-frame").src = `${mailPath(id)}/html`;
    else $("mail-frame").removeAttribute("src");
    $("mail-tab-text").textContent = message.text ?? "No text part.";
    const headers = document.createDocumentFragment();
    for (const header of message.headers) {
      const row = document.createElement("tr");
      const value = cell(header.decoded ?? header.value);
      if (header.decoded !== undefined) value.title = header.value;
      row.append(cell(header.name), value);
      headers.append(row);
    }
    fill("mail-tab-headers", headers);
    $("mail-tab-source").textContent = source;
    const files = document.createDocumentFragment();
    for (const part of message.attachments) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = part.url;
      link.download = part.filename;
      link.textContent = part.filename;
      item.dataset.part = part.part;
      item.append(link, ` ${part.content_type}, ${bytes(part.size)}${part.inline ? ", inline" : ""}`);
      files.append(item);
    }
    if (!files.childElementCount) {
      const item = document.createElement("li");
      item.className = "none";
      item.textContent = "none";
      files.append(item);
    }
    $("mail-attachments").replaceChildren(files);
    showTab(message.html !== null ? mail.tab : mail.tab === "html" ? "text" : mail.tab);
    $("mail-viewer").hidden = false;
    return `showing ${id}`;
  }

  // Calls `render` only when the answer changed since the last poll (1,000 users re-render in
  // milliseconds, but not every second for nothing).
  async function load(name, path, render) {
    const value = await api("GET", path);
    const text = JSON.stringify(value);
    if (text !== seen[name]) {
      seen[name] = text;
      render(value);
    }
  }

  async function refresh(all) {
    const live = $("journal-filters").elements.live.checked;
    const work = [
      api("GET", "/mock/clock").then((value) => { clock = value; renderClock(); }),
      load("faults", "/mock/faults", renderFaults),
    ];
    if (live || all) work.push(pollJournal(false));
    if (all || ticks % 2 === 0) work.push(load("notifications", "/mock/notifications", renderNotifications));
    const mailQuery = mail.query ? `?query=${encodeURIComponent(mail.query)}` : "";
    if (live || all) work.push(load("mail", `/mock/mail${mailQuery}`, renderMail));
    if (all || ticks % 5 === 0) {
      work.push(load("users", "/mock/users", (value) => { users = value.users; renderUsers(); }));
      work.push(load("keys", "/mock/keys", renderKeys));
    }
    await Promise.all(work);
  }

  async function tick() {
    if (busy || document.hidden) return;
    busy = true;
    try {
      await refresh(false);
    } catch (error) {
      say(error.message, true);
    } finally {
      busy = false;
      ticks += 1;
    }
  }

  function start() {
    $("clock-advance").addEventListener("submit", (event) => {
      event.preventDefault();
      const raw = event.target.elements.advance.value.trim();
      const advance = /^-?[0-9]+$/.test(raw) ? Number(raw) : raw;
      run(() => api("POST", "/mock/clock", { advance }).then((value) => `clock now ${value.now}`));
    });
    $("clock-freeze").addEventListener("click", () => run(() =>
      api("POST", "/mock/clock", { freeze: !clock.frozen })
        .then((value) => (value.frozen ? "clock frozen" : "clock running"))));
    $("keys-rotate").addEventListener("click", () => run(() =>
      api("POST", "/mock/keys/rotate").then((value) => `signing with ${value.signing_kid}`)));
    $("users-filter").addEventListener("input", renderUsers);
    $("journal-filters").addEventListener("submit", (event) => {
      event.preventDefault();
      run(() => pollJournal(true).then(() => "journal filtered"));
    });
    $("journal-filters").elements.refusals.addEventListener("change", () => renderJournal([], true));
    $("mail-search").addEventListener("submit", (event) => {
      event.preventDefault();
      mail.query = event.target.elements.query.value.trim();
      seen.mail = "";
      run(() => Promise.resolve(mail.query ? `searching mail for ${mail.query}` : "all mail"));
    });
    $("mail-clear").addEventListener("click", () => run(() =>
      api("DELETE", "/mock/mail").then((value) => { closeMail(); return `deleted ${value.cleared} messages`; })));
    $("mail-delete").addEventListener("click", () => {
      const id = mail.selected;
      if (id) run(() => api("DELETE", mailPath(id)).then(() => { closeMail(); return `deleted ${id}`; }));
    });
    for (const tab of $("mail-tabs").querySelectorAll("[role=tab]")) {
      tab.addEventListener("click", () => showTab(tab.dataset.tab));
    }
    run(() => Promise.resolve("connected"));
    setInterval(tick, 1000);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
