import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { openDatabase } from '@twofold/persistence';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp, initApp } from '../app/create-app';
import { AppConfig } from '../config/app-config';
import { startTestApp, TestApp, asCaller } from '../../test/testing/test-app';

/**
 * Access requests created per resource are throttled (ACCESS_REQUESTS_PER_MINUTE), one
 * limit for every instance. Two applications on one database here, each with its own pool and Nest
 * container, as two processes would be.
 */
describe('access request creation throttled per resource, across instances', () => {
  const LIMIT = 5;
  let t: TestApp;
  let second: NestFastifyApplication;
  let secondDataSource: DataSource;
  let flooding: Awaited<ReturnType<TestApp['newResource']>>;
  let quiet: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    t = await startTestApp({ accessRequestsPerMinute: LIMIT });
    const config = t.app.get<AppConfig>('twofold:app-config');
    secondDataSource = await openDatabase({ url: t.database.url, poolSize: 4, applicationName: 'twofold-second-instance' });
    // its request log would go to the process's stdout: the first instance's is the test's
    second = await createApp({ config: { ...config, logLevel: 'silent' }, dataSource: secondDataSource, clock: t.clock });
    await initApp(second);
    // one licence: 4 a minute per licence is under LIMIT, so LIMIT (the floor) applies
    const accountId = (await t.newAccount({ licenses: 1 })).account.id;
    flooding = await t.newResource(accountId, 'Flooding');
    quiet = await t.newResource(accountId, 'Quiet');
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  const servers = () => [t.app.getHttpServer(), second.getHttpServer()];
  const create = (server: number, resource = flooding) =>
    asCaller(resource, () => request(servers()[server]))
      .post('/access/requests')
      .send({ identity: 'flood' });
  const requestsOf = async (resourceId: string) =>
    (await t.database.dataSource.query('SELECT count(*)::int AS n FROM access_requests WHERE resource_id = $1', [resourceId]))[0].n;

  it('creates the limit over both instances, then answers 429 with Retry-After on both; another resource is untouched', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < LIMIT; n += 1) statuses.push((await create(n % 2)).status);
    expect(statuses).toEqual(Array(LIMIT).fill(200));
    t.clock.advance(20_000);
    for (const server of [0, 1]) {
      const refused = await create(server);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('40');
      expect(refused.body).toMatchObject({ message: 'Too many access requests from this resource. Try again later.' });
    }
    // the ra family creates requests too, and is refused alike (429: clients read it as Denied)
    const ra = await asCaller(flooding, () => request(servers()[1]))
      .post('/access/requests/ra')
      .send({ identity: 'flood' });
    expect(ra.status).toBe(429);
    expect(await requestsOf(flooding.resource.id)).toBe(LIMIT);
    expect((await create(0, quiet)).status).toBe(200);
  });

  it('admits the resource again when its minute has passed', async () => {
    t.clock.advance(40_000);
    expect((await create(1)).status).toBe(200);
    expect((await create(0)).status).toBe(200);
  });
});

describe("access request throttle: a larger account's resource may create 4 a minute per licence", () => {
  const FLOOR = 5;
  let t: TestApp;
  let accountId: Awaited<ReturnType<TestApp['newAccount']>>['account']['id'];
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  beforeAll(async () => {
    t = await startTestApp({ accessRequestsPerMinute: FLOOR });
    accountId = (await t.newAccount({ licenses: 2 })).account.id;
    resource = await t.newResource(accountId);
  });
  afterAll(() => t.close());

  const create = (n: number) =>
    t
      .as(resource)
      .post('/access/requests')
      .send({ identity: `peak${n}` });

  it('admits 4 per licence over the floor, reads a change of the licences at the next count, and still refuses the one too many', async () => {
    const statuses: number[] = [];
    // 2 licences: 8 a minute, more than the floor of 5
    for (let n = 0; n < 8; n += 1) statuses.push((await create(n)).status);
    expect(statuses).toEqual(Array(8).fill(200));
    // the operator raises the licences (account licenses --set): 12 a minute from the next request
    await t.database.dataSource.query('UPDATE accounts SET licenses = 3 WHERE id = $1', [accountId]);
    for (let n = 8; n < 12; n += 1) expect((await create(n)).status).toBe(200);
    const refused = await create(12);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
  });
});

describe('access request throttle: counted in batches of 1% of the limit', () => {
  let t: TestApp;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  beforeAll(async () => {
    t = await startTestApp({ accessRequestsPerMinute: 500 });
    resource = await t.newResource((await t.newAccount()).account.id);
  });
  afterAll(() => t.close());

  const counted = async () =>
    (await t.database.dataSource.query('SELECT created FROM access_request_rates WHERE resource_id = $1', [resource.resource.id]))[0]
      ?.created ?? 0;

  it('writes the shared count once per 5 requests (500 a minute), not per request', async () => {
    const seen: number[] = [];
    for (let n = 0; n < 12; n += 1) {
      expect(
        (
          await t
            .as(resource)
            .post('/access/requests')
            .send({ identity: `b${n}` })
        ).status,
      ).toBe(200);
      seen.push(await counted());
    }
    expect(seen).toEqual([0, 0, 0, 0, 5, 5, 5, 5, 5, 10, 10, 10]);
  });
});
