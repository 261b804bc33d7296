// The module's own suite, against the real binary (clients/run.sh sets SIWA_MOCK_BINARY).
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SiwaMock, SiwaMockError, useSiwaMock } from '../index.js';

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
