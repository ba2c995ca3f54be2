import { AccountId } from '@twofold/domain';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { generateHotp, generateTotp } from '@twofold/otp';
import { openDatabase } from '@twofold/persistence';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp, initApp } from '../../app/create-app';
import { AppConfig } from '../../config/app-config';
import { startTestApp, TestApp, asCaller } from '../../../test/testing/test-app';

/**
 * A code is accepted once also when two API instances serve one database.
 * The second instance has its own connection pool and its own Nest container; nothing but
 * PostgreSQL is shared, as between two processes.
 */
describe('replay protection across two API instances on one database', () => {
  let t: TestApp;
  let second: NestFastifyApplication;
  let secondDataSource: DataSource;
  let resourceAuth: string;
  let accountId: AccountId;
  const key = Buffer.from('000102030405060708090a0b0c0d0e0f10111213', 'hex');

  beforeAll(async () => {
    t = await startTestApp();
    const config = t.app.get<AppConfig>('twofold:app-config');
    secondDataSource = await openDatabase({ url: t.database.url, poolSize: 10, applicationName: 'twofold-second-instance' });
    second = await createApp({ config, dataSource: secondDataSource, clock: t.clock });
    await initApp(second);
    accountId = (await t.newAccount()).account.id;
    resourceAuth = (await t.newResource(accountId)).authorization;
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  async function userWithToken(identity: string, kind: 'TotpToken' | 'HotpToken'): Promise<void> {
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind, key, now: t.clock.now() });
  }

  /** Ten submissions of one code, alternating between the two instances, all at once. */
  async function submitEverywhere(identity: string, passCode: string): Promise<string[]> {
    const servers = [t.app.getHttpServer(), second.getHttpServer()];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        asCaller(resourceAuth, () => request(servers[i % 2]))
          .post('/access/requests/ra')
          .send({ identity, passCode }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    return results.map((r) => r.body.model.status as string);
  }

  it('one TOTP step: exactly one of ten parallel submissions over both instances is Granted', async () => {
    await userWithToken('two-totp', 'TotpToken');
    const statuses = await submitEverywhere('two-totp', generateTotp({ secret: key, time: t.clock.now().getTime() }));
    expect(statuses.filter((s) => s === 'Granted')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'Denied')).toHaveLength(9);
  });

  it('one HOTP counter: exactly one of ten parallel submissions over both instances is Granted', async () => {
    await userWithToken('two-hotp', 'HotpToken');
    const statuses = await submitEverywhere('two-hotp', generateHotp({ secret: key, counter: 3 }));
    expect(statuses.filter((s) => s === 'Granted')).toHaveLength(1);
    // the counter moved past 3: the earlier counters are spent too
    const earlier = await asCaller(resourceAuth, () => request(second.getHttpServer()))
      .post('/access/requests/ra')
      .send({ identity: 'two-hotp', passCode: generateHotp({ secret: key, counter: 2 }) });
    expect(earlier.body.model.status).toBe('Denied');
  });
});
