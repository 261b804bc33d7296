// The shared cases (clients/spec/cases/*.json, described in its README) against this helper.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SiwaMock, useSiwaMock } from '../index.js';
import { sendMail } from './smtp.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
const DIR = `${REPO}/clients/spec/cases`;
const mock = useSiwaMock({ before, beforeEach, after });

/** The spec's options (snake_case) as this helper's option object (camelCase), leaving out those not given. */
const options = (args, names) => Object.fromEntries(names.filter((n) => args[n] !== undefined)
  .map((n) => [n.replace(/_(.)/g, (_, c) => c.toUpperCase()), args[n]]));

const CALLS = {
  health: (m) => m.health(),
  reset: (m) => m.reset(),
  sign_in: (m, a) => m.signIn(a.user, options(a, ['client', 'scopes', 'nonce', 'team_id', 'key_id', 'key'])),
  client_secret: (m, a) => m.clientSecret(a.client, options(a, ['team_id', 'key_id', 'key'])),
  verify: (m, a) => m.verify(a.id_token, options(a, ['audience', 'nonce'])),
  clock: (m) => m.clock(),
  advance_clock: (m, a) => m.advanceClock(a.by),
  set_clock: (m, a) => m.setClock(a.to),
  freeze_clock: (m, a) => m.freezeClock(a.frozen),
  add_fault: (m, a) => m.addFault(a.rule),
  remove_fault: (m, a) => m.removeFault(a.fault_id),
  faults: (m) => m.faults(),
  users: (m) => m.users(),
  user: (m, a) => m.user(a.user),
  add_user: (m, a) => m.addUser(a.user),
  update_user: (m, a) => m.updateUser(a.user, a.changes),
  revoke_user: (m, a) => m.revokeUser(a.user),
  delete_user: (m, a) => m.deleteUser(a.user),
  requests: (m, a) => m.requests(a.filters),
  clear_requests: (m) => m.clearRequests(),
  mail: (m, a) => m.mail(a.filters),
  wait_for_mail: (m, a) => m.waitForMail(a.filters, options(a, ['timeout'])),
  clear_mail: (m) => m.clearMail(),
  request: (m, a) => m.request(a.method, a.path, a.body),
};

function at(value, path) {
  for (const part of path ? path.split('.') : []) {
    if (part === '#') value = value.length;
    else if (Array.isArray(value)) value = value.at(Number(part));
    else if (value && typeof value === 'object') value = value[part];
    else return null;
  }
  return value ?? null;
}

function resolve(value, saved) {
  if (typeof value === 'string' && value.startsWith('$repo/')) return `${REPO}/${value.slice(6)}`;
  if (typeof value === 'string' && value.startsWith('$')) {
    const [name, ...path] = value.slice(1).split('.');
    return at(saved[name], path.join('.'));
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, saved));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, saved)]));
  return value;
}

async function runSteps(m, file, steps) {
  const saved = {};
  for (const [index, step] of steps.entries()) {
    if (step.send_mail) {
      await sendMail(m.smtpHost, m.smtpPort, step.send_mail);
      continue;
    }
    const where = `${file} step ${index + 1} (${step.verb})`;
    const call = CALLS[step.verb];
    assert.ok(call, `${where}: no runner entry for the verb`);
    const args = resolve(step.args ?? {}, saved);
    if (step.error !== undefined) {
      await assert.rejects(call(m, args), (error) => error.message.includes(step.error), where);
      continue;
    }
    const result = await call(m, args);
    for (const [path, expected] of Object.entries(step.expect ?? {})) {
      assert.deepEqual(at(result, path), resolve(expected, saved), `${where}: ${path} of ${JSON.stringify(result)}`);
    }
    if (step.matches !== undefined) assert.match(result, new RegExp(step.matches), where);
    if (step.as) saved[step.as] = result;
  }
}

for (const file of readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()) {
  test(`shared case ${file}`, async () => {
    const { mock: own, steps } = JSON.parse(readFileSync(`${DIR}/${file}`, 'utf8'));
    if (!own) return runSteps(mock(), file, steps);
    const m = await SiwaMock.start({ scenario: resolve(own.scenario, {}), smtp: own.smtp ?? false }); // a mock of its own
    try {
      await runSteps(m, file, steps);
    } finally {
      await m.stop();
    }
  });
}
