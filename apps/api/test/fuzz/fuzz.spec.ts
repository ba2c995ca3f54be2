import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { OpenApiDocument, operationsOf, Operation } from '../../src/openapi/openapi.testing';
import { OPENAPI_JSON_PATH } from '../../src/openapi/api-docs';
import { startTestApp, TestApp } from '../testing/test-app';
import { encoded, formBody, FuzzIds, jsonBody, pathCasing, pathSegment, queryString } from './fuzz.arbitraries';
import { FuzzClient, RawRequest, RawResponse } from './fuzz-client';

/**
 * Fuzzing in the suite: every operation of the OpenAPI document the app serves (and
 * openapi.spec.ts proves that document lists every route, so a new route is fuzzed without a change
 * here) gets generated requests made with account A's credentials. For each: never a 5xx, an answer
 * within the hang bound, an error body with `message` and `traceId`, and nothing of account B in it.
 * At the end B's objects must be as they were.
 *
 * `FUZZ_RUNS` requests per operation (default 20 here; `npm run fuzz` runs many more). The seed is
 * fixed unless `FUZZ_SEED` gives one (`npm run fuzz` draws a fresh one): docs/decisions/fuzzing.md.
 */

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 20);
const BASE_SEED = Number(process.env['FUZZ_SEED'] ?? 13);
const TEST_TIMEOUT_MS = Math.max(120_000, RUNS * 10_000);

/** The pages answer HTML, errors included; everything else answers JSON. */
const HTML_PAGES = new Set([
  'GET /access/{id}',
  'POST /access/{id}',
  'GET /access/enroll/{token}',
  'POST /access/enroll/{token}',
  'GET /access/my-factors/{token}',
  'POST /access/my-factors/{token}',
]);

function seedFor(key: string): number {
  let hash = BASE_SEED | 0;
  for (const c of key) hash = (Math.imul(hash, 31) + c.charCodeAt(0)) | 0;
  return hash;
}

interface Party {
  authorization: string;
  resourceAuthorization: string;
  ids: Record<'user' | 'group' | 'resource' | 'admin' | 'authenticator' | 'accessRequest', string>;
  /** names and keys only this account has; B's must never appear in an answer to A */
  identities: string[];
}

async function ok<T>(what: string, promise: PromiseLike<{ status: number; body: T }>): Promise<T> {
  const res = await promise;
  if (res.status >= 300) throw new Error(`setup: ${what} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function newParty(t: TestApp, label: string): Promise<Party> {
  const tag = `${label}${randomBytes(4).toString('hex')}`;
  const account = await t.newAccount({ name: `account-${tag}` });
  const auth = account.authorization;
  const probe = await t.newResource(account.account.id, `probe-resource-${tag}`);
  // the key A's access calls are made with: kept out of the path ids, so no fuzzed DELETE takes it away
  const caller = await t.newResource(account.account.id, `caller-resource-${tag}`);
  const identity = `user-${tag}`;
  const user = await ok(
    'POST /users',
    t
      .as(auth)
      .post('/users')
      .send({ Identity: identity, Email: `${identity}@example.test` }),
  );
  const userId = (user as { model: { id: string } }).model.id;
  const group = await ok(
    'POST /groups',
    t
      .as(auth)
      .post('/groups')
      .send({ name: `group-${tag}` }),
  );
  const adminEmail = `admin-${tag}@example.test`;
  const admin = await ok('POST /admins', t.as(auth).post('/admins').send({ email: adminEmail, role: 'Support 1' }));
  const token = await ok(
    'POST authenticator',
    t
      .as(auth)
      .post(`/users/${userId}/authenticators/totptoken`)
      .send({ Name: `token-${tag}`, Key: randomBytes(20).toString('hex') }),
  );
  const access = await ok('POST /access/requests', t.as(caller).post('/access/requests').send({ identity }));
  return {
    authorization: auth,
    resourceAuthorization: caller.authorization,
    ids: {
      user: userId,
      group: (group as { model: { id: string } }).model.id,
      resource: probe.resource.id,
      admin: (admin as { id: string }).id,
      authenticator: (token as { model?: { id: string }; id?: string }).model?.id ?? (token as { id: string }).id,
      accessRequest: (access as { model: { id: string } }).model.id,
    },
    identities: [
      identity,
      adminEmail,
      `group-${tag}`,
      `probe-resource-${tag}`,
      `caller-resource-${tag}`,
      account.apiKey,
      account.apiSecret,
      probe.apiKey,
      caller.apiKey,
      caller.apiSecret,
      probe.apiSecret,
    ],
  };
}

describe('fuzzing every endpoint', () => {
  let t: TestApp;
  let client: FuzzClient;
  let document: OpenApiDocument;
  let a: Party;
  let b: Party;
  let ids: FuzzIds;
  let bTokens: string[];
  /** B's ids that A has itself sent: an answer may echo those back, or list them in A's own journal */
  const sentByA = new Set<string>();
  let bBefore: string;
  let requests = 0;
  /** how many answers of each status: a run where nearly everything is 400 or 404 tests little past the edge */
  const statuses: Record<number, number> = {};

  const bSnapshot = async (): Promise<string> => {
    const get = (path: string) => t.as(b).get(path);
    const answers = await Promise.all(
      [
        '/users',
        '/groups',
        '/resources',
        '/admins',
        `/users/${b.ids.user}/authenticators`,
        '/settings/directory-sync',
        '/settings/branding',
      ].map(async (path) => {
        const res = await get(path);
        return [path, res.status, res.body];
      }),
    );
    return JSON.stringify(answers);
  };

  beforeAll(async () => {
    // every request comes from 127.0.0.1 with an X-Forwarded-For of its own: the failed-auth throttle
    // counts per client, and one shared address would turn the rest of the run into 429s
    t = await startTestApp({ trustedProxies: ['127.0.0.1'] });
    client = await FuzzClient.start(t);
    document = (await t.http().get(OPENAPI_JSON_PATH)).body as OpenApiDocument;
    a = await newParty(t, 'alpha');
    b = await newParty(t, 'bravo');
    ids = { own: Object.values(a.ids), foreign: Object.values(b.ids) };
    bTokens = [...Object.values(b.ids), ...b.identities].map((token) => token.toLowerCase());
    bBefore = await bSnapshot();
    process.stdout.write(`fuzz: seed ${BASE_SEED}, ${RUNS} runs per operation\n`);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    process.stdout.write(`fuzz: ${requests} requests, by status ${JSON.stringify(statuses)}\n`);
  });

  function check(key: string, req: RawRequest, bodyText: string, res: RawResponse, guarded: boolean): void {
    requests++;
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    const where = `${key}: ${res.status} ${res.text.slice(0, 300)}`;
    if (res.status >= 500) throw new Error(`5xx, ${where}`);
    const type = String(res.headers['content-type'] ?? '');
    let body: Record<string, unknown> | undefined;
    // a HEAD answer has the headers of a GET and no body
    if (type.includes('json') && req.method !== 'HEAD') {
      try {
        body = JSON.parse(res.text) as Record<string, unknown>;
      } catch {
        throw new Error(`JSON content type, unparsable body, ${where}`);
      }
    }
    if (req.method !== 'HEAD' && res.status >= 400 && !(HTML_PAGES.has(key) && type.includes('text/html'))) {
      if (typeof body?.['message'] !== 'string' || typeof body?.['traceId'] !== 'string')
        throw new Error(`error body without message and traceId, ${where}`);
    }
    if (res.status === 200 && body?.['success'] === false && typeof body['message'] !== 'string')
      throw new Error(`success: false without message, ${where}`);
    // a page without credentials shows the access request whose id it is given, whoever's it is: that
    // id is the page's capability, so only answers to A's credentials are checked
    if (!guarded) return;
    const sent = `${req.path}\n${JSON.stringify(req.headers)}\n${bodyText}`.toLowerCase();
    for (const token of bTokens) if (sent.includes(token) || sent.includes(encodeURIComponent(token))) sentByA.add(token);
    const answer = res.text.toLowerCase();
    const leaked = bTokens.filter((token) => !sentByA.has(token) && answer.includes(token));
    if (leaked.length > 0) throw new Error(`account B's ${leaked.join(', ')} in an answer to account A, ${where}`);
  }

  function requestsFor(
    key: string,
    path: string,
    method: string,
    operation: Operation,
  ): fc.Arbitrary<{ req: RawRequest; bodyText: string }> {
    const parameters = operation.parameters ?? [];
    const pathParameters = parameters.filter((p) => p.in === 'path') as { name: string; schema?: { enum?: string[] } }[];
    const query = queryString(
      parameters.filter((p) => p.in === 'query'),
      ids,
    );
    const segments = fc.tuple(...pathParameters.map((p) => pathSegment(p.name, ids, p.schema?.enum ?? [])));
    const content = operation.requestBody?.content ?? {};
    const documentedType = Object.keys(content)[0];
    const bodyText = documentedType
      ? documentedType.includes('json')
        ? jsonBody(document, content[documentedType].schema, ids)
        : formBody(ids)
      : fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: jsonBody(document, {}, ids) });
    const body = encoded(bodyText, documentedType ?? 'application/json');
    const security = Object.keys(operation.security?.[0] ?? {})[0];
    const authorization = security === 'account' ? a.authorization : security === 'resource' ? a.resourceAuthorization : undefined;
    const credentials = fc.oneof(
      { weight: 12, arbitrary: fc.constant(authorization) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          undefined,
          '',
          'Basic',
          'Basic !!!',
          'Bearer x',
          security === 'account' ? a.resourceAuthorization : a.authorization,
          `Basic ${Buffer.from('\u00e9\u0000:\ud83d').toString('base64')}`,
          `Basic ${Buffer.from('no-colon').toString('base64')}`,
          `basic ${'A'.repeat(8000)}`,
        ),
      },
    );
    const traceId = fc.option(
      fc.oneof(
        fc.uuid(),
        fc.string({ unit: 'binary-ascii', maxLength: 200 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, '')),
      ),
      { nil: undefined },
    );
    return fc
      .tuple(segments, query, pathCasing(path), body, credentials, traceId, fc.ipV4())
      .map(([values, queryText, cased, encodedBody, auth, trace, ip]) => {
        let filled = path;
        pathParameters.forEach((p, i) => (filled = filled.replace(`{${p.name}}`, values[i])));
        const headers: Record<string, string> = { 'x-forwarded-for': ip };
        if (auth !== undefined) headers['authorization'] = auth;
        if (trace !== undefined) headers['mf-trace-id'] = trace;
        const withBody = method !== 'GET' || encodedBody.bytes.length > 0;
        if (withBody && encodedBody.contentType !== undefined) headers['content-type'] = encodedBody.contentType;
        if (withBody && encodedBody.contentEncoding !== undefined) headers['content-encoding'] = encodedBody.contentEncoding;
        const req: RawRequest = { method, path: cased(filled) + queryText, headers, body: withBody ? encodedBody.bytes : undefined };
        const bodyText = withBody ? encodedBody.plain : '';
        const text = bodyText.length > 4096 ? `${bodyText.slice(0, 200)}… (${encodedBody.bytes.length} bytes)` : bodyText;
        return Object.assign(
          { req, bodyText },
          {
            [fc.toStringMethod]: () =>
              `${method} ${req.path.length > 300 ? req.path.slice(0, 300) + '…' : req.path} ${JSON.stringify({ ...headers, authorization: headers['authorization']?.slice(0, 40) })} ${text}`,
          },
        );
      });
  }

  async function fuzz(key: string, arbitrary: fc.Arbitrary<{ req: RawRequest; bodyText: string }>, guarded = true): Promise<void> {
    try {
      await fc.assert(
        fc.asyncProperty(arbitrary, async ({ req, bodyText }) => check(key, req, bodyText, await client.send(req), guarded)),
        { numRuns: RUNS, seed: seedFor(key), endOnFailure: process.env['FUZZ_SHRINK'] !== '1' },
      );
    } catch (error) {
      (error as Error).message =
        `reproduce with FUZZ_SEED=${BASE_SEED} FUZZ_RUNS=${RUNS} (same order of operations)\n${(error as Error).message}`;
      throw error;
    }
  }

  it('finds the operations to fuzz in the served OpenAPI document', () => {
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(70);
    process.stdout.write(`fuzz: ${operations.length} operations\n`);
  });

  // the document is read in beforeAll, after tests are declared: one test per operation of the
  // committed copy, each checked against the served one so that the two cannot drift apart
  const committed = JSON.parse(readFileSync(join(__dirname, '../../../../docs/openapi.json'), 'utf8')) as OpenApiDocument;
  for (const { method, path } of operationsOf(committed)) {
    const key = `${method} ${path}`;
    it(
      key,
      async () => {
        const operation = document.paths[path]?.[method.toLowerCase()];
        expect(operation).toBeDefined();
        await fuzz(key, requestsFor(key, path, method, operation), (operation.security ?? []).length > 0);
      },
      TEST_TIMEOUT_MS,
    );
  }

  it(
    'answers unknown paths and methods as 404 or 405 with an error body',
    async () => {
      const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND', 'TRACE');
      const segments = fc.array(pathSegment('x', ids), { minLength: 1, maxLength: 4 });
      await fuzz(
        'unknown path',
        fc.tuple(method, segments, fc.constantFrom(a.authorization, a.resourceAuthorization)).map(([m, parts, auth]) => ({
          req: { method: m, path: `/${parts.join('/')}`, headers: { authorization: auth, 'x-forwarded-for': '10.9.9.9' } },
          bodyText: '',
        })),
      );
    },
    TEST_TIMEOUT_MS,
  );

  it('left account B as it was', async () => {
    expect(await bSnapshot()).toEqual(bBefore);
  });
});
