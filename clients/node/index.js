// Run siwa-mock (a fake of Apple's Sign in with Apple server) from node:test or any runner.
// No dependencies: child_process and fetch. Sign-in and client secrets are the binary's own
// (`siwa-mock signin`, `siwa-mock client-secret`). See docs/test-helpers.md.
import { spawn, execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, mkdtempSync, openSync, closeSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, isAbsolute } from 'node:path';

const READY_PREFIX = 'siwa-mock listening on ';
const SMTP_READY_PREFIX = 'siwa-mock smtp listening on ';
const MAX_ANSWER_BYTES = 16 << 20; // a control answer larger than this is refused (docs/test-helpers.md)
export const limits = { runTimeoutMs: 60_000 }; // one run of the binary (signIn, clientSecret, verify)
export const HINT =
  'install it with `npm install siwa-mock` (x86_64 Linux), or build it with `swift build -c release --product siwa-mock` and set SIWA_MOCK_BINARY=.build/release/siwa-mock, ' +
  'put siwa-mock on PATH, or set SIWA_MOCK_URL to a running mock';

export class SiwaMockError extends Error {
  name = 'SiwaMockError';
}

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// The platform package carrying the binary (the esbuild pattern: an optional dependency per platform,
// npm installs the one whose `os`/`cpu` match; scripts/package-node.sh packs them).
const PLATFORM_PACKAGE = `@siwa-mock/${process.platform}-${process.arch}`;
let packaged; // the platform package's checked binary, once found

/** The platform package's binary when it is installed (undefined otherwise), checked: there, executable, its SHA-256. */
export function packagedBinary() {
  if (packaged) return packaged;
  let manifest;
  try {
    manifest = createRequire(import.meta.url).resolve(`${PLATFORM_PACKAGE}/package.json`);
  } catch {
    return undefined;
  }
  const path = join(dirname(manifest), 'bin', 'siwa-mock');
  const fix = `reinstall it: npm install ${PLATFORM_PACKAGE}`;
  let recorded;
  try {
    recorded = readFileSync(`${path}.sha256`, 'ascii').split(/\s/)[0];
  } catch {
    throw new SiwaMockError(`${PLATFORM_PACKAGE} is installed but has no ${path}.sha256; ${fix}`);
  }
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    throw new SiwaMockError(`${PLATFORM_PACKAGE} is installed but its binary ${path} is missing; ${fix}`);
  }
  if (!isFile || !executable(path)) {
    throw new SiwaMockError(`${PLATFORM_PACKAGE}'s binary ${path} is not an executable file; ${fix}`);
  }
  const actual = createHash('sha256').update(readFileSync(path)).digest('hex');
  if (actual !== recorded) {
    throw new SiwaMockError(`${PLATFORM_PACKAGE}'s binary ${path} has SHA-256 ${actual}, not the ${recorded} the package recorded; ${fix}`);
  }
  packaged = path;
  return path;
}

/**
 * The explicit path, else $SIWA_MOCK_BINARY, else the platform package's binary (`packagedBinary()`: a
 * broken one fails rather than falling through), else `siwa-mock` on PATH; a clear error with the hint otherwise.
 */
export function findBinary(binary) {
  if (!binary && !process.env.SIWA_MOCK_BINARY) {
    const path = packagedBinary();
    if (path) return path;
  }
  const candidate = binary || process.env.SIWA_MOCK_BINARY || 'siwa-mock';
  const where = binary ? 'given' : process.env.SIWA_MOCK_BINARY ? 'from SIWA_MOCK_BINARY' : 'on PATH';
  if (candidate.includes('/') || isAbsolute(candidate)) {
    if (executable(candidate)) return candidate;
  } else {
    for (const dir of (process.env.PATH || '').split(delimiter)) {
      if (dir && executable(join(dir, candidate))) return join(dir, candidate);
    }
  }
  throw new SiwaMockError(`siwa-mock binary not found: '${candidate}' (${where}) is not an executable file; ${HINT}`);
}

export class SiwaMock {
  constructor(url, { binary, child, logPath, adminToken } = {}) {
    this.url = url.replace(/\/+$/, '');
    this.binary = binary;
    this.child = child;
    this.logPath = logPath; // the mock's stderr (request logs) when this object started it; stop() deletes it
    this.adminToken = adminToken ?? process.env.SIWA_MOCK_ADMIN_TOKEN;
    this.smtpHost = undefined; // the relay's SMTP listener: start({ smtp: true }), or $SIWA_MOCK_SMTP
    this.smtpPort = undefined;
  }

  /**
   * Starts `siwa-mock serve --port 0`; resolves once its ready line names the port it chose. `smtp: true`
   * adds the private email relay's SMTP listener (`--smtp-port 0`, docs/relay-mail.md) and also waits for
   * its ready line, `siwa-mock smtp listening on HOST:PORT`: `smtpHost`, `smtpPort`.
   */
  static async start({ binary, scenario, args = [], timeoutMs = 30_000, smtp = false, ...unknown } = {}) {
    refuseUnknown('SiwaMock.start', unknown);
    const path = findBinary(binary);
    const command = ['serve', '--host', '127.0.0.1', '--port', '0', ...(scenario ? ['--scenario', scenario] : []),
      ...(smtp ? ['--smtp-port', '0'] : []), ...args];
    const logDir = mkdtempSync(join(tmpdir(), 'siwa-mock-'));
    const logPath = join(logDir, 'stderr.log');
    const log = openSync(logPath, 'w');
    const child = spawn(path, command, { stdio: ['ignore', 'pipe', log] });
    closeSync(log);
    const failed = (reason) => {
      child.kill('SIGKILL');
      let stderr = '';
      try {
        stderr = readFileSync(logPath, 'utf8').trim();
        rmSync(logDir, { recursive: true, force: true });
      } catch {}
      return new SiwaMockError(`siwa-mock did not start (${path} ${command.join(' ')}): ${reason}; its stderr:\n${stderr}`);
    };
    const lines = await new Promise((resolve, reject) => {
      let buffer = '';
      const timer = setTimeout(() => reject(failed(`printed no ready line in ${timeoutMs / 1000}s`)), timeoutMs);
      const onData = (chunk) => {
        buffer += chunk;
        // The HTTP line first; the SMTP line comes after the HTTP one(s).
        const complete = buffer.split('\n').slice(0, -1).map((l) => l.trim());
        if (complete.length && (!smtp || complete.some((l) => l.startsWith(SMTP_READY_PREFIX)))) {
          clearTimeout(timer);
          child.stdout.off('data', onData);
          child.stdout.resume(); // keep draining
          resolve(complete);
        }
      };
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        // Let the log file settle before reading it.
        setImmediate(() => reject(failed(`exited with ${code ?? signal}`)));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(failed(error.message));
      });
    });
    if (!lines[0].startsWith(READY_PREFIX)) throw failed(`printed ${JSON.stringify(lines[0])} instead of its ready line`);
    child.removeAllListeners('exit');
    const mock = new SiwaMock(lines[0].slice(READY_PREFIX.length), { binary: path, child, logPath });
    if (smtp) mock.#setSmtp(lines.find((l) => l.startsWith(SMTP_READY_PREFIX)).slice(SMTP_READY_PREFIX.length));
    return mock;
  }

  /**
   * A mock someone else runs (e.g. SIWA_MOCK_URL); stop() leaves it running. Its SMTP listener cannot be
   * learned from its URL: `smtpHost`/`smtpPort` come from $SIWA_MOCK_SMTP (`HOST:PORT`, what its
   * `siwa-mock smtp listening on` line printed); `smtp: true` without it is an error rather than a guess.
   */
  static async connect(url, { smtp = false, binary, adminToken, ...unknown } = {}) {
    refuseUnknown('SiwaMock.connect', unknown);
    const mock = new SiwaMock(url, { binary, adminToken });
    const address = process.env.SIWA_MOCK_SMTP;
    if (address) mock.#setSmtp(address);
    else if (smtp) {
      throw new SiwaMockError(`the SMTP listener of the mock at ${url} (SIWA_MOCK_URL) is unknown: set SIWA_MOCK_SMTP to ` +
        'the HOST:PORT its `siwa-mock smtp listening on` line printed (serve --smtp-port)');
    }
    await mock.health();
    return mock;
  }

  #setSmtp(address) {
    const match = /^(.+):(\d+)$/.exec(address.trim());
    if (!match) throw new SiwaMockError(`SIWA_MOCK_SMTP=${JSON.stringify(address)} is not HOST:PORT`);
    this.smtpHost = match[1];
    this.smtpPort = Number(match[2]);
  }

  /** $SIWA_MOCK_URL when set, else a new mock from the binary. */
  static async startOrConnect(options = {}) {
    if (!process.env.SIWA_MOCK_URL) return SiwaMock.start(options);
    const { scenario, args, timeoutMs, ...connecting } = options; // the running mock has its own scenario and flags
    return SiwaMock.connect(process.env.SIWA_MOCK_URL, connecting);
  }

  /**
   * SIGTERM to the mock this object started (in-flight requests finish), SIGKILL after 10 s; then its
   * stderr log (and the directory made for it) is deleted, so a run leaves no files behind.
   */
  async stop() {
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    }
    if (this.logPath) rmSync(dirname(this.logPath), { recursive: true, force: true });
    this.logPath = undefined;
  }

  // -- the binary's own verbs ----------------------------------------------------------------------

  run(args) {
    this.binary ??= findBinary();
    const env = { ...process.env, ...(this.adminToken ? { SIWA_MOCK_ADMIN_TOKEN: this.adminToken } : {}) };
    return new Promise((resolve, reject) => {
      execFile(this.binary, args, { env, timeout: limits.runTimeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
        if (error?.killed) {
          reject(new SiwaMockError(`siwa-mock ${args[0]} did not finish within ${limits.runTimeoutMs / 1000}s: ${String(stderr).trim()}`));
        } else if (error) {
          const status = error.code ?? error.signal;
          reject(new SiwaMockError(`siwa-mock ${args[0]} failed (exit ${status}): ${String(stderr).trim()}`));
        } else resolve(String(stdout));
      });
    });
  }

  /**
   * The web flow via `siwa-mock signin`: { token_response, claims (verified), user (first sign-in) }.
   * `teamId`, `keyId` and `key` (a .p8 file) sign the client secret with your team's own key, for a
   * scenario with its own `teams:`; without them, the built-in scenario's published test key.
   */
  async signIn(user = 'alice', { client = 'com.example.web', scopes = [], nonce, teamId, keyId, key, ...unknown } = {}) {
    refuseUnknown('signIn', unknown);
    const args = ['signin', '--url', this.url, '--user', user, '--client', client];
    const list = typeof scopes === 'string' ? [scopes] : scopes;
    if (list.length) args.push('--scope', list.join(' '));
    if (nonce !== undefined) args.push('--nonce', nonce);
    return JSON.parse(await this.run([...args, ...keyFlags({ teamId, keyId, key })]));
  }

  /** An ES256 client secret from `siwa-mock client-secret` (default: the built-in scenario's test key). */
  async clientSecret(client = 'com.example.web', { teamId, keyId, key, ...unknown } = {}) {
    refuseUnknown('clientSecret', unknown);
    return (await this.run(['client-secret', '--client-id', client, ...keyFlags({ teamId, keyId, key })])).trim();
  }

  /** Claims of an id_token that `siwa-mock verify` accepts (signature, iss, aud, exp, iat, nonce). */
  async verify(idToken, { audience, nonce } = {}) {
    const args = ['verify', '--url', this.url];
    if (audience !== undefined) args.push('--audience', audience);
    if (nonce !== undefined) args.push('--nonce', nonce);
    args.push(idToken);
    const line = (await this.run(args)).split('\n').find((l) => l.startsWith('claims: '));
    if (!line) throw new SiwaMockError('siwa-mock verify printed no claims line');
    return JSON.parse(line.slice('claims: '.length));
  }

  // -- the control API (docs/control-api.md) -----------------------------------------------------

  /**
   * A control call; the decoded JSON answer. `timeoutMs` (default 15 s) bounds the whole call, body
   * included; an answer over 16 MiB is refused, and a redirect is never followed (it would carry the
   * admin token to wherever it points): each rejects with a SiwaMockError saying so.
   */
  async request(method, path, body, { timeoutMs = 15_000 } = {}) {
    const headers = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.adminToken) headers.Authorization = `Bearer ${this.adminToken}`;
    const signal = AbortSignal.timeout(timeoutMs);
    const late = () => new SiwaMockError(`${method} ${this.url}${path}: no complete answer within ${timeoutMs / 1000}s`);
    let response;
    let text;
    try {
      response = await fetch(this.url + path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, redirect: 'manual',
      });
      text = await readBounded(response, `${method} ${path}`);
    } catch (error) {
      if (error instanceof SiwaMockError) throw error;
      if (signal.aborted) throw late();
      throw new SiwaMockError(`${method} ${this.url}${path}: ${error.cause?.message ?? error.message}; is the mock running? ${HINT}`);
    }
    if (response.status >= 300 && response.status < 400) {
      throw new SiwaMockError(`${method} ${path} answered ${response.status} (a redirect to ${response.headers.get('location') ?? 'nowhere'}): ` +
        'not followed, so the admin token stays with the mock');
    }
    if (!response.ok) throw new SiwaMockError(`${method} ${path} answered ${response.status}: ${text}`);
    return text ? JSON.parse(text) : null;
  }

  health() { return this.request('GET', '/mock/health'); }
  reset() { return this.request('POST', '/mock/reset'); }
  clock() { return this.request('GET', '/mock/clock'); }
  advanceClock(by) { return this.request('POST', '/mock/clock', { advance: by }); }
  setClock(to) { return this.request('POST', '/mock/clock', { set: to }); }
  freezeClock(frozen = true) { return this.request('POST', '/mock/clock', { freeze: frozen }); }
  addFault(rule) { return this.request('POST', '/mock/faults', rule); }
  removeFault(id) { return this.request('DELETE', `/mock/faults/${encodeURIComponent(id)}`); }
  async faults() { return (await this.request('GET', '/mock/faults')).faults; }
  async users() { return (await this.request('GET', '/mock/users')).users; }
  user(id) { return this.request('GET', `/mock/users/${encodeURIComponent(id)}`); }
  addUser(user) { return this.request('POST', '/mock/users', user); }
  updateUser(id, changes) { return this.request('PATCH', `/mock/users/${encodeURIComponent(id)}`, changes); }
  revokeUser(id) { return this.updateUser(id, { credential_state: 'revoked' }); }
  deleteUser(id) { return this.request('DELETE', `/mock/users/${encodeURIComponent(id)}`); }
  /** The journal of what your backend sent (filters: path, client_id, user). */
  async requests(filters = {}) {
    const query = new URLSearchParams(filters).toString();
    const answer = await this.request('GET', '/mock/requests' + (query ? `?${query}` : ''));
    return answer?.requests ?? answer;
  }
  clearRequests() { return this.request('DELETE', '/mock/requests'); }

  // -- the relay's mailbox (docs/relay-mail.md#the-mailbox-mockmail) -----------------------------

  /** The stored records, oldest first (filters: relay_address, real_address, team, sender, status, since). */
  async mail(filters = {}) {
    const query = new URLSearchParams(filters).toString();
    return (await this.request('GET', '/mock/mail' + (query ? `?${query}` : ''))).messages;
  }

  /**
   * The records matching `filters` (as `mail`) as soon as one is stored: one long poll,
   * `GET /mock/mail?…&wait=`, which answers at once when one already is. `timeout` is a duration
   * ('500ms', '5s', '1m'; at most '1h') or milliseconds. When nothing matching came, rejects with a
   * SiwaMockError carrying the mock's own `no_mail` text: the filters, the time waited and what the
   * mailbox holds (docs/relay-mail.md).
   */
  async waitForMail(filters = {}, { timeout = '5s' } = {}) {
    const wait = typeof timeout === 'number' ? `${Math.round(timeout)}ms` : String(timeout); // the mock reads it
    const query = new URLSearchParams({ ...filters, wait }).toString();
    const answer = await this.request('GET', `/mock/mail?${query}`, undefined, { timeoutMs: milliseconds(wait) + 15_000 });
    if (answer.messages.length) return answer.messages;
    throw new SiwaMockError(answer.no_mail ?? `GET /mock/mail?${query}: no mail (this mock does not say why: older than the helper?)`);
  }

  /** Empties the mailbox and the relay's daily counts (`DELETE /mock/mail`). */
  clearMail() { return this.request('DELETE', '/mock/mail'); }
}

/** `--team-id`, `--key-id`, `--key` for those given (`signin` and `client-secret` take the same three). */
function keyFlags({ teamId, keyId, key }) {
  return [['--team-id', teamId], ['--key-id', keyId], ['--key', key]].flatMap(([flag, value]) => (value ? [flag, value] : []));
}

/** Options a function does not know are an error, not silently ignored. */
function refuseUnknown(where, unknown) {
  const names = Object.keys(unknown);
  if (names.length) throw new SiwaMockError(`${where}: unknown option${names.length > 1 ? 's' : ''} ${names.join(', ')}`);
}

/** The body as text, refused past MAX_ANSWER_BYTES (the reader is cancelled, which closes the connection). */
async function readBounded(response, call) {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => {});
      throw new SiwaMockError(`${call}: the answer is larger than ${MAX_ANSWER_BYTES >> 20} MiB; refused`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** How long a `wait=` in the mock's duration grammar (`1m30s`, `500ms`; docs/scenarios.md) lasts, to bound the
 * call; 0 for text the mock will refuse at once with its own reason. */
function milliseconds(duration) {
  const match = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/.exec(duration);
  if (!duration || !match) return 0;
  return [86_400_000, 3_600_000, 60_000, 1000, 1].reduce((sum, unit, i) => sum + Number(match[i + 1] ?? 0) * unit, 0);
}

const HOOKS = ['before', 'beforeEach', 'after'];

/**
 * For node:test: a mock started before the suite's tests, reset before each, stopped after them.
 * Call at the top of a test file or inside describe(); use `mock()` in the tests. `hooks` holds exactly
 * your runner's `before`, `beforeEach` and `after`; the options of `SiwaMock.start()` go in `options`
 * (anything else in either is an error, not silently ignored).
 */
export function useSiwaMock(hooks, options = {}) {
  const misplaced = Object.keys(hooks ?? {}).filter((key) => !HOOKS.includes(key));
  if (misplaced.length) {
    throw new SiwaMockError(`useSiwaMock: ${misplaced.join(', ')} ${misplaced.length > 1 ? 'are not hooks' : 'is not a hook'}; ` +
      "the first argument holds only your runner's before, beforeEach and after, and options go in the second: " +
      `useSiwaMock({ before, beforeEach, after }, { ${misplaced.join(', ')} })`);
  }
  const missing = HOOKS.filter((key) => typeof hooks?.[key] !== 'function');
  if (missing.length) throw new SiwaMockError(`useSiwaMock: the hooks lack ${missing.join(', ')} (your runner's functions)`);
  const { binary, scenario, args, timeoutMs, smtp, ...unknown } = options;
  refuseUnknown('useSiwaMock', unknown);
  let current;
  hooks.before(async () => { current = await SiwaMock.startOrConnect(options); });
  hooks.beforeEach(async () => { await current.reset(); });
  hooks.after(async () => { await current?.stop(); });
  return () => current;
}
