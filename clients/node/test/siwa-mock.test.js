// The module's own suite, against the real binary (clients/run.sh sets SIWA_MOCK_BINARY).
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { limits, SiwaMock, SiwaMockError, useSiwaMock } from '../index.js';
import { sendMail as smtp } from './smtp.js';

describe('a mock for the suite', () => {
  const mock = useSiwaMock({ before, beforeEach, after });

  test('signIn returns verified tokens with scopes and nonce', async () => {
    const result = await mock().signIn('alice', { scopes: ['name', 'email'], nonce: 'n-1' });
    assert.equal(result.claims.email, 'alice@example.com');
    assert.equal(result.claims.nonce, 'n-1');
    assert.equal(result.claims.aud, 'com.example.web');
    assert.equal(result.user.name.firstName, 'Alice');
    const claims = await mock().verify(result.token_response.id_token, { audience: 'com.example.web', nonce: 'n-1' });
    assert.equal(claims.sub, result.claims.sub);
  });

  test('a tampered token fails verification', async () => {
    const alice = (await mock().signIn('alice')).token_response.id_token.split('.');
    const bob = (await mock().signIn('bob')).token_response.id_token.split('.');
    // bob's claims under alice's signature
    await assert.rejects(mock().verify([alice[0], bob[1], alice[2]].join('.')), /verify failed/);
  });

  test('clientSecret is accepted by the token endpoint', async () => {
    const secret = await mock().clientSecret('com.example.web');
    const response = await fetch(mock().url + '/auth/token', {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'user.migration', client_id: 'com.example.web', client_secret: secret }),
    });
    assert.equal(response.status, 200);
    assert.ok((await response.json()).access_token);
  });

  test('a fault makes signIn fail with the mock\'s answer', async () => {
    await mock().addFault({ id: 'token-down', match: 'POST /auth/token', status: 503 });
    await assert.rejects(mock().signIn('alice'), /503/);
    await mock().removeFault('token-down');
    assert.equal((await mock().signIn('alice')).claims.aud, 'com.example.web');
  });

  test('clock, users and journal', async () => {
    const before = (await mock().clock()).epoch_seconds;
    await mock().advanceClock('1d');
    assert.ok((await mock().clock()).epoch_seconds >= before + 86400);
    await mock().addUser({ id: 'dave', email: 'dave@example.com' });
    assert.equal((await mock().signIn('dave')).claims.sub, (await mock().user('dave')).sub);
    await mock().revokeUser('dave');
    const tokens = await mock().requests({ path: '/auth/token', user: 'dave' });
    assert.equal(tokens.at(-1).status, 200);
    await mock().clearRequests();
    assert.deepEqual(await mock().requests(), []);
  });

  test('each test starts from the scenario', async () => {
    assert.deepEqual(await mock().requests(), []);
    await assert.rejects(mock().user('dave'), /404/);
  });
});

test('a wrong binary path says how to get one', async () => {
  await assert.rejects(SiwaMock.start({ binary: '/nonexistent/siwa-mock' }), (error) => {
    assert.ok(error instanceof SiwaMockError);
    assert.match(error.message, /siwa-mock binary not found/);
    assert.match(error.message, /SIWA_MOCK_BINARY/);
    assert.match(error.message, /swift build/);
    return true;
  });
});

test('a mock that cannot start shows its stderr', async () => {
  const scenario = join(mkdtempSync(join(tmpdir(), 'siwa-node-')), 'broken.yaml');
  writeFileSync(scenario, 'users:\n  - id: [\n');
  await assert.rejects(SiwaMock.start({ scenario }), /did not start[\s\S]*broken\.yaml/);
});

// scenarios/relay-mail.yaml registers shop.example for team ABCDE12345, whose user bob has this relay
// address (the built-in scenario registers no sender, so every message there is refused).
const RELAY_SCENARIO = fileURLToPath(new URL('../../../scenarios/relay-mail.yaml', import.meta.url));
const BOB = 'k7x2m9q4ab@privaterelay.appleid.com';

/** Hello from shop.example to bob's relay address (`sendMail` in smtp.js). */
function sendMail(host, port, subject) {
  return smtp(host, port, { from: 'hello@shop.example', to: BOB, subject });
}

describe('relay mail', () => {
  let mock; // its own mock, with the relay scenario, even when SIWA_MOCK_URL is set
  before(async () => { mock = await SiwaMock.start({ scenario: RELAY_SCENARIO, smtp: true }); });
  after(async () => { await mock?.stop(); });
  const relay = () => mock;

  test('waitForMail returns as soon as the message arrives', async () => {
    await relay().clearMail();
    assert.deepEqual(await relay().mail({ relay_address: BOB }), []);
    const began = Date.now();
    const sent = new Promise((resolve) => setTimeout(resolve, 300)).then(() =>
      sendMail(relay().smtpHost, relay().smtpPort, 'Your code is 123456')).catch((error) => error);
    const messages = await relay().waitForMail({ relay_address: BOB, status: 'delivered' }, { timeout: '10s' });
    const elapsed = Date.now() - began;
    assert.equal(await sent, undefined); // no SMTP error
    assert.ok(elapsed >= 300 && elapsed < 3000, `answered after ${elapsed} ms for mail sent after 300 ms`);
    assert.deepEqual(messages.map((m) => [m.subject, m.delivered_to]), [['Your code is 123456', 'bob@example.com']]);
    assert.deepEqual(await relay().mail({ status: 'delivered' }), messages);
  });

  test('waitForMail for mail that never comes says what the mailbox holds', async () => {
    await relay().clearMail();
    await sendMail(relay().smtpHost, relay().smtpPort, 'Welcome');
    const began = Date.now();
    await assert.rejects(relay().waitForMail({ relay_address: BOB, status: 'rejected' }, { timeout: '1s' }), (error) => {
      assert.ok(error instanceof SiwaMockError);
      assert.match(error.message, new RegExp('^no mail matching relay_address=k7x2m9q4ab@privaterelay\\.appleid\\.com status=rejected in 1s; ' +
        'the mailbox has 1 record: m\\d+ delivered hello@shop\\.example -> k7x2m9q4ab@privaterelay\\.appleid\\.com "Welcome"$'));
      return true;
    });
    assert.ok(Date.now() - began >= 1000);
    await assert.rejects(relay().waitForMail({}, { timeout: '5' }), /expected a duration/);
  });

  test('a running mock\'s SMTP address comes from the environment', async () => {
    const saved = process.env.SIWA_MOCK_SMTP;
    try {
      delete process.env.SIWA_MOCK_SMTP;
      await assert.rejects(SiwaMock.connect(relay().url, { smtp: true }), /set SIWA_MOCK_SMTP/);
      process.env.SIWA_MOCK_SMTP = `${relay().smtpHost}:${relay().smtpPort}`;
      assert.equal((await SiwaMock.connect(relay().url, { smtp: true })).smtpPort, relay().smtpPort);
    } finally {
      if (saved === undefined) delete process.env.SIWA_MOCK_SMTP;
      else process.env.SIWA_MOCK_SMTP = saved;
    }
  });
});

// A hostile server (clients/spec/hostile_server.py; issue 36, findings 5 and 6).
describe('a hostile server', () => {
  let server;
  let hostile;
  before(async () => {
    server = spawn('python3', [fileURLToPath(new URL('../../spec/hostile_server.py', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] });
    const line = await new Promise((resolve) => server.stdout.once('data', (chunk) => resolve(String(chunk).trim())));
    assert.match(line, /^hostile listening on /);
    hostile = new SiwaMock(line.slice('hostile listening on '.length), { adminToken: 't0ken' });
  });
  after(() => { server.stdin.end(); });

  test('a server dripping one byte per half second meets the overall deadline', async () => {
    const began = Date.now();
    await assert.rejects(hostile.request('GET', '/mock/drip', undefined, { timeoutMs: 1000 }),
      /^SiwaMockError: GET http:\/\/127\.0\.0\.1:\d+\/mock\/drip: no complete answer within 1s$/);
    assert.ok(Date.now() - began < 10_000); // a per-read timeout would wait for the server's 20 s of drip
  });

  test('an endless answer is cut at 16 MiB', async () => {
    await assert.rejects(hostile.request('GET', '/mock/endless', undefined, { timeoutMs: 30_000 }),
      /^SiwaMockError: GET \/mock\/endless: the answer is larger than 16 MiB; refused$/);
  });

  test('a redirect is not followed and the token stays', async () => {
    await assert.rejects(hostile.request('GET', '/mock/redirect'),
      /^SiwaMockError: GET \/mock\/redirect answered 302 \(a redirect to http:\/\/127\.0\.0\.1:\d+\/mock\/landing\): not followed/);
    assert.deepEqual(await hostile.request('GET', '/mock/stolen'), { authorization: [], requests: 0 });
  });
});

test('stop leaves no files behind', async () => {
  const mock = await SiwaMock.start();
  const log = mock.logPath;
  assert.ok(existsSync(log));
  await mock.stop();
  assert.ok(!existsSync(log) && !existsSync(dirname(log)));
});

test('options cannot be silently ignored', async () => {
  const hooks = { before() {}, beforeEach() {}, after() {} };
  assert.throws(() => useSiwaMock({ ...hooks, scenario: 'relay.yaml' }),
    /^SiwaMockError: useSiwaMock: scenario is not a hook; .* useSiwaMock\(\{ before, beforeEach, after \}, \{ scenario \}\)$/);
  assert.throws(() => useSiwaMock(hooks, { scenery: 'relay.yaml' }), /^SiwaMockError: useSiwaMock: unknown option scenery$/);
  assert.throws(() => useSiwaMock({ before() {}, after() {} }), /the hooks lack beforeEach/);
  await assert.rejects(SiwaMock.connect('http://127.0.0.1:9', { scenario: 'x.yaml' }), /^SiwaMockError: SiwaMock.connect: unknown option scenario$/);
  return assert.rejects(SiwaMock.start({ smpt: true }), /^SiwaMockError: SiwaMock.start: unknown option smpt$/);
});

test('a run of the binary has a deadline', async () => {
  const binary = join(mkdtempSync(join(tmpdir(), 'siwa-node-')), 'siwa-mock');
  writeFileSync(binary, '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
  const saved = limits.runTimeoutMs;
  limits.runTimeoutMs = 200;
  try {
    const began = Date.now();
    await assert.rejects(new SiwaMock('http://127.0.0.1:9', { binary }).clientSecret(), /^SiwaMockError: siwa-mock client-secret did not finish within 0.2s/);
    assert.ok(Date.now() - began < 10_000);
  } finally {
    limits.runTimeoutMs = saved;
  }
});
