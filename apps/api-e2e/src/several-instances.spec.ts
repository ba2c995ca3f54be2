/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked by the assertions */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { Client } from 'pg';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import { totpOfKey } from './browser';
import { Pgbouncer, pgbouncerAvailability, startPgbouncer } from './pgbouncer';
import { API_BUNDLE, basic, cleanEnv, freePort, requireBundles, ROOT, RunningApi, runCli, startApi } from './processes';

/**
 * Several instances: two built API processes on one database, both through PgBouncer
 * in transaction mode (every statement outside a transaction, and every transaction, may run on
 * another server connection), with the CLI through it too. What one instance decides, the other
 * must respect: nothing but PostgreSQL is shared. docs/operations/scaling.md says how to run this.
 *
 * SCALING_REPORT=1 prints what each check saw (the figures of the closing note).
 */

const pgbouncerState = pgbouncerAvailability();
if (!pgbouncerState.available) console.warn(pgbouncerState.message);
const describeWithPgbouncer = pgbouncerState.available || pgbouncerState.mustFail ? describe : describe.skip;

const report: Record<string, unknown> = {};

/** Status counts, e.g. `{ Granted: 1, Denied: 9 }`. */
function tally(values: readonly (string | number)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
}

/** Resolves once `check` holds; the bound only ends a test that would otherwise hang. */
async function eventually(check: () => Promise<boolean>, what: string, boundMs = 30_000): Promise<void> {
  const until = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${boundMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A request from another loopback address, so that the throttle counts this client apart from the rest of the test. */
function requestFrom(
  localAddress: string,
  url: string,
  authorization: string,
): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { localAddress, headers: { authorization } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('a machine without PgBouncer', () => {
  it('fails the test of several instances under CI and skips it loudly elsewhere', () => {
    const missing = '/nonexistent/pgbouncer';
    expect(pgbouncerAvailability({ CI: 'true' }, missing)).toMatchObject({ available: false, mustFail: true });
    const local = pgbouncerAvailability({}, missing);
    expect(local).toMatchObject({ available: false, mustFail: false });
    expect(local.available === false && local.message).toContain('apt-get install -y pgbouncer');
  });
});

describeWithPgbouncer('two API processes on one database through PgBouncer in transaction mode', () => {
  let pgbouncer: Pgbouncer;
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let direct: Client;
  let a: RunningApi;
  let b: RunningApi;
  let env: NodeJS.ProcessEnv;
  let accountAuth: string;
  let ownerId: string;
  let accountId: string;
  let resource: { id: string; apiKey: string; apiSecret: string };
  const key = randomBytes(32).toString('hex');
  const both = () => [a, b];

  async function call(api: RunningApi, method: string, path: string, authorization: string, body?: unknown) {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as any) : undefined };
  }

  function cli(...args: string[]): any {
    const run = runCli([...args, '--json'], env);
    if (run.code !== 0) throw new Error(`cli ${args.join(' ')} exited with ${run.code}: ${run.stderr}`);
    return JSON.parse(run.stdout);
  }

  async function userWithTotpToken(prefix: string): Promise<{ identity: string; id: string; key: Buffer }> {
    const identity = `${prefix}-${randomBytes(4).toString('hex')}`;
    const totpKey = randomBytes(20);
    const user = await call(a, 'POST', '/users', accountAuth, { Identity: identity });
    expect(user.status).toBe(200);
    const token = await call(b, 'POST', `/users/${user.body.model.id}/authenticators/totptoken`, accountAuth, {
      Name: 'Token',
      Key: totpKey.toString('hex'),
    });
    expect(token.status).toBeLessThan(300);
    return { identity, id: user.body.model.id, key: totpKey };
  }

  beforeAll(async () => {
    if (!pgbouncerState.available) throw new Error(pgbouncerState.message);
    requireBundles();
    database = await createEmptyDatabase();
    direct = new Client({ connectionString: database.url });
    await direct.connect();
    // the API sets statement_timeout at connect: PgBouncer drops it, the database role would set it in production
    pgbouncer = await startPgbouncer({ serverUrl: database.url, ignoreStartupParameters: ['statement_timeout'] });
    const name = new URL(database.url).pathname.slice(1);
    dataDir = mkdtempSync(join(tmpdir(), 'twofold-instances-'));
    env = cleanEnv({ DATABASE_URL: pgbouncer.urlOf(name), SECRET_ENCRYPTION_KEY: key, TWOFOLD_DATA_DIR: dataDir });
    const [portA, portB] = [await freePort(), await freePort()];
    // A listens for credential changes on PostgreSQL itself (DATABASE_LISTEN_URL), B only has the pooler;
    // both start at once: both migrate through the pooler, one after the other under the migration lock.
    // One deployment, one public address (a load balancer's): the tokens of both carry the same issuer.
    const publicUrl = 'https://twofold.scale.test';
    [a, b] = await Promise.all([
      startApi({ ...env, PORT: String(portA), PUBLIC_URL: publicUrl, DATABASE_LISTEN_URL: database.url }),
      startApi({ ...env, PORT: String(portB), PUBLIC_URL: publicUrl }),
    ]);
    const created = cli('account', 'create', '--name', 'Scale', '--owner-email', 'owner@scale.test', '--licenses', '1000', '--enable-api');
    accountAuth = basic(created.api.key, created.api.secret);
    ownerId = created.owner.id;
    accountId = created.account.id;
    resource = (await call(a, 'POST', '/resources', accountAuth, { Name: 'VPN' })).body.model;
  });

  afterAll(async () => {
    for (const api of [a, b]) await api?.stop();
    await pgbouncer?.stop();
    await direct?.end();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (process.env['SCALING_REPORT']) console.log(`two instances behind PgBouncer: ${JSON.stringify(report, null, 2)}`);
  });

  it('both started and migrated through the pooler; no migration lock is left held on the server', async () => {
    expect(cli('migrate', 'run')).toEqual({ ran: [] });
    const { rows } = await direct.query(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(rows[0].n).toBe(0);
    for (const api of both()) expect((await fetch(`${api.baseUrl}/health/ready`)).status).toBe(200);
  });

  it('replay guard: one TOTP code sent ten times at once over both instances is Granted once; sent again, Denied on each', async () => {
    const user = await userWithTotpToken('replay');
    const passCode = totpOfKey(user.key);
    const resourceAuth = basic(resource.apiKey, resource.apiSecret);
    const parallel = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(both()[i % 2], 'POST', '/access/requests/ra', resourceAuth, { identity: user.identity, passCode }),
      ),
    );
    expect(parallel.map((r) => r.status)).toEqual(Array(10).fill(200));
    const statuses = parallel.map((r) => r.body.model.status as string);
    const again: string[] = [];
    for (const api of both()) {
      again.push((await call(api, 'POST', '/access/requests/ra', resourceAuth, { identity: user.identity, passCode })).body.model.status);
    }
    report['replay'] = { parallel: tally(statuses), againOnAThenB: again };
    expect(tally(statuses)).toEqual({ Granted: 1, Denied: 9 });
    expect(again).toEqual(['Denied', 'Denied']);
  });

  it('unique identities: ten parallel creations of one identity over both instances make one user, the others 409', async () => {
    const identity = `twin-${randomBytes(4).toString('hex')}`;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(both()[i % 2], 'POST', '/users', accountAuth, { Identity: identity })),
    );
    const statuses = results.map((r) => r.status);
    report['uniqueIdentity'] = tally(statuses);
    expect(tally(statuses)).toEqual({ 200: 1, 409: 9 });
    const { rows } = await direct.query('SELECT count(*)::int AS n FROM users WHERE identity = $1', [identity]);
    expect(rows[0].n).toBe(1);
  });

  it('last-admin rule: of two changes at once on the two instances, each taking one of the last two Admins away, exactly one succeeds', async () => {
    const operations: [string, (api: RunningApi, id: string) => ReturnType<typeof call>][] = [
      ['DELETE /admins/{id}', (api, id) => call(api, 'DELETE', `/admins/${id}`, accountAuth)],
      ['POST /v1/admins/lock/{id}', (api, id) => call(api, 'POST', `/v1/admins/lock/${id}`, accountAuth)],
      ['PUT /admins/{id} role', (api, id) => call(api, 'PUT', `/admins/${id}`, accountAuth, { role: 'Support 1' })],
      ['PUT /admins/{id} status', (api, id) => call(api, 'PUT', `/admins/${id}`, accountAuth, { status: 'Locked' })],
    ];
    const scopeAdmins = async () =>
      (
        await direct.query(`SELECT id FROM administrators WHERE status = 'Active' AND role = 'Admin' AND account_id = $1`, [accountId])
      ).rows.map((row) => row.id as string);
    const rounds: string[] = [];
    let survivor = ownerId;
    for (let round = 0; round < 8; round += 1) {
      const registered = await call(a, 'POST', '/admins', accountAuth, {
        email: `admin${round}@scale.test`,
        name: `Admin ${round}`,
        role: 'Admin',
      });
      expect(registered.status).toBe(200);
      // activation is the invitation page's work (tested with it); here the second Admin only has to be there
      await direct.query(`UPDATE administrators SET status = 'Active', activated_at = now() WHERE id = $1`, [registered.body.id]);
      expect((await scopeAdmins()).sort()).toEqual([survivor, registered.body.id].sort());
      const [first, second] = [operations[round % 4], operations[(round + 1 + Math.floor(round / 4)) % 4]];
      const results = await Promise.all([first[1](a, survivor), second[1](b, registered.body.id)]);
      const statuses = results.map((r) => r.status);
      rounds.push(`${first[0]} on A / ${second[0]} on B: ${statuses.join('/')}`);
      expect({ round, statuses: [...statuses].sort() }).toEqual({ round, statuses: [200, 400] });
      const left = await scopeAdmins();
      expect(left).toHaveLength(1);
      survivor = left[0];
    }
    report['lastAdmin'] = rounds;
  });

  it('shared throttle: twenty failed Basic logins spread over both instances are 401, the next failure on either is 429, as one limit', async () => {
    // this client (127.0.0.2) fails nowhere else in the test
    const wrong = basic('no-such-key', 'wrong-secret');
    const failures = await Promise.all(
      Array.from({ length: 20 }, (_, i) => requestFrom('127.0.0.2', `${both()[i % 2].baseUrl}/groups`, wrong)),
    );
    const rightAfter20 = await Promise.all(both().map((api) => requestFrom('127.0.0.2', `${api.baseUrl}/groups`, accountAuth)));
    const the21st = await requestFrom('127.0.0.2', `${a.baseUrl}/groups`, wrong);
    const the22nd = await requestFrom('127.0.0.2', `${b.baseUrl}/groups`, wrong);
    const rightAfterBlock = await Promise.all(both().map((api) => requestFrom('127.0.0.2', `${api.baseUrl}/groups`, accountAuth)));
    report['throttle'] = {
      first20Failures: tally(failures.map((r) => r.status)),
      rightCallAfter20OnAandB: rightAfter20.map((r) => r.status),
      failure21OnA: the21st.status,
      failure22OnB: the22nd.status,
      rightCallAfterBlockOnAandB: rightAfterBlock.map((r) => r.status),
    };
    expect(tally(failures.map((r) => r.status))).toEqual({ 401: 20 });
    expect(rightAfter20.map((r) => r.status)).toEqual([200, 200]);
    expect([the21st.status, the22nd.status]).toEqual([429, 429]);
    expect(Number(the21st.retryAfter)).toBeGreaterThan(0);
    expect(Number(the22nd.retryAfter)).toBeGreaterThan(0);
    expect(rightAfterBlock.map((r) => r.status)).toEqual([429, 429]);
  });

  it('credential changes made by another process end cached grants on both instances', async () => {
    const created = cli('account', 'create', '--name', 'Changes', '--owner-email', 'owner@changes.test', '--enable-api');
    const oldAuth = basic(created.api.key, created.api.secret);
    const vpn = (await call(a, 'POST', '/resources', oldAuth, { Name: 'VPN' })).body.model;
    const vpnAuth = basic(vpn.apiKey, vpn.apiSecret);
    const ra = (api: RunningApi) => call(api, 'POST', '/access/requests/ra', vpnAuth, { identity: 'nobody', passCode: '123456' });
    // each instance verifies each pair twice: whatever it may keep, it keeps now
    for (let i = 0; i < 2; i += 1) {
      for (const api of both()) {
        expect((await call(api, 'GET', '/users/count', oldAuth)).status).toBe(200);
        expect((await ra(api)).status).toBe(200);
      }
    }
    // B hears no announcements through the pooler, so it must keep nothing: it refuses at once; A hears them
    const seen: Record<string, unknown> = {};

    const rotated = cli('api', 'rotate-secret', '--account', created.account.id);
    seen['oldSecretAfterRotateOnB'] = (await call(b, 'GET', '/users/count', oldAuth)).status;
    await eventually(async () => (await call(a, 'GET', '/users/count', oldAuth)).status === 401, 'A refuses the old secret');
    const newAuth = basic(rotated.key, rotated.secret);
    seen['newSecretOnAandB'] = [
      (await call(a, 'GET', '/users/count', newAuth)).status,
      (await call(b, 'GET', '/users/count', newAuth)).status,
    ];

    expect((await call(a, 'DELETE', `/resources/${vpn.id}`, newAuth)).status).toBe(200);
    seen['deletedResourceOnB'] = (await ra(b)).status;
    await eventually(async () => (await ra(a)).status === 401, 'A refuses the deleted resource');

    cli('api', 'disable', '--account', created.account.id);
    seen['disabledApiOnB'] = (await call(b, 'GET', '/users/count', newAuth)).status;
    await eventually(async () => (await call(a, 'GET', '/users/count', newAuth)).status === 403, 'A refuses the disabled API');
    report['credentialChanges'] = seen;
    expect(seen).toEqual({ oldSecretAfterRotateOnB: 401, newSecretOnAandB: [200, 200], deletedResourceOnB: 401, disabledApiOnB: 403 });
    // and B said why, once; A, listening past the pooler, did not
    expect((await b.waitForOutput('credential changes are not heard')).split('credential changes are not heard')).toHaveLength(2);
    expect(a.output()).not.toContain('credential changes are not heard');
  });

  it('RS256 key rotation by the CLI: both instances publish and sign with the new key, and verify tokens the other signed', async () => {
    const rs = (await call(a, 'POST', '/resources', accountAuth, { Name: 'Portal', TokenFormat: 'JwtRS256' })).body.model;
    expect(rs.tokenFormat).toBe('JwtRS256');
    const rsAuth = basic(rs.apiKey, rs.apiSecret);
    const jwks = async (api: RunningApi) => (await (await fetch(`${api.baseUrl}/.well-known/jwks.json`)).json()) as { keys: any[] };
    const kidOf = (token: string) => decodeProtectedHeader(token).kid;

    /**
     * The access page as a browser behind a load balancer without sticky sessions uses it: the page and
     * its cookie from `shown`, the code posted to `signer`, which answers with the signed token.
     */
    async function tokenThroughPage(shown: RunningApi, signer: RunningApi, user: { identity: string; key: Buffer }): Promise<string> {
      const created = await call(shown, 'POST', '/access/requests', rsAuth, {
        identity: user.identity,
        callback: { action: 'https://portal.scale.test/back', target: '_self' },
      });
      expect(created.body.success).toBe(true);
      const page = await fetch(`${shown.baseUrl}/access/${created.body.model.id}`);
      expect(page.status).toBe(200);
      const cookie = page.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const html = await page.text();
      // the code form's hidden fields, once each: the page's other forms (a recovery code) repeat them
      const form = new URLSearchParams(
        Object.fromEntries(
          [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, n, v]): [string, string] => [
            n,
            unescapeHtml(v),
          ]),
        ),
      );
      form.set('code', totpOfKey(user.key));
      const granted = await fetch(`${signer.baseUrl}/access/${created.body.model.id}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      const answer = await granted.text();
      expect(granted.status).toBe(200);
      const token = /name="accessToken" value="([^"]+)"/.exec(answer)?.[1];
      if (!token) throw new Error(`no accessToken on the page:\n${answer.slice(0, 2000)}`);
      return unescapeHtml(token);
    }

    async function refresh(api: RunningApi, token: string): Promise<string> {
      const res = await call(api, 'POST', '/token/refresh', rsAuth, { AccessToken: token });
      expect({ status: res.status, success: res.body.success, message: res.body.message }).toEqual({
        status: 200,
        success: true,
        message: null,
      });
      return res.body.model as string;
    }

    const verifiedBy = async (api: RunningApi, token: string) =>
      (await jwtVerify(token, createLocalJWKSet(await jwks(api)), { audience: rs.apiKey })).payload;

    const before = (await jwks(a)).keys[0].kid as string;
    expect((await jwks(b)).keys[0].kid).toBe(before);
    const early = await userWithTotpToken('rs-early');
    const late = await userWithTotpToken('rs-late');
    const signedBeforeByB = await tokenThroughPage(a, b, early);
    expect(kidOf(signedBeforeByB)).toBe(before);

    // --now: signing with the new key starts at once (without it, only after TOKEN_KEY_PUBLISH_AHEAD)
    const { kid: rotated } = cli('token-key', 'rotate', '--now');
    expect(rotated).not.toBe(before);
    // Each instance reads the keys again within seconds, without a restart
    for (const api of both()) {
      await eventually(async () => (await jwks(api)).keys[0].kid === rotated, `${api.baseUrl} publishes the new key first`);
      expect((await jwks(api)).keys.map((k) => k.kid)).toEqual([rotated, before]);
    }
    const signedAfterByA = await tokenThroughPage(b, a, late);
    expect(kidOf(signedAfterByA)).toBe(rotated);
    expect((await verifiedBy(b, signedAfterByA)).sub).toBe(late.identity);

    const refreshedByB = await refresh(b, signedAfterByA);
    const refreshedOldByA = await refresh(a, signedBeforeByB);
    expect([kidOf(refreshedByB), kidOf(refreshedOldByA)]).toEqual([rotated, rotated]);
    expect((await verifiedBy(a, refreshedByB)).sub).toBe(late.identity);
    expect((await verifiedBy(b, refreshedOldByA)).sub).toBe(early.identity);
    report['rs256Rotation'] = {
      kidBefore: before,
      kidAfter: rotated,
      tokenByBBeforeRotation: kidOf(signedBeforeByB),
      tokenByAAfterRotation: kidOf(signedAfterByA),
      refreshedOnBOfAsToken: kidOf(refreshedByB),
      refreshedOnAOfBsOldToken: kidOf(refreshedOldByA),
      jwksOnAandB: [(await jwks(a)).keys.map((k) => k.kid), (await jwks(b)).keys.map((k) => k.kid)],
    };
  });

  it('a pooler that refuses the statement timeout set at connect: one line saying what to change, exit 1', async () => {
    const strict = await startPgbouncer({ serverUrl: database.url });
    try {
      const run = spawnSync(process.execPath, [API_BUNDLE], {
        cwd: ROOT,
        env: { ...env, DATABASE_URL: strict.urlOf(new URL(database.url).pathname.slice(1)), PORT: String(await freePort()) },
        encoding: 'utf8',
        timeout: 90_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        /^twofold: cannot use the database at 127\.0\.0\.1:\d+\/\w+: a connection pooler in front of PostgreSQL refuses the connection setting statement_timeout; add it to ignore_startup_parameters/,
      );
    } finally {
      await strict.stop();
    }
  });
});
