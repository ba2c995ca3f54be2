import { randomUUID } from 'node:crypto';
import { DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS } from '../../config/app-config';
import { totpCode, totpUser } from '../../../test/clients/client-kit';
import { PhoneApprovalKit, PhoneUser, startPhoneApprovalKit } from '../../../test/clients/phone-approval.testing';
import { FreezableProxy, startFreezableProxy } from '../../../test/testing/freezable-proxy';

type Resource = Awaited<ReturnType<PhoneApprovalKit['t']['newResource']>>;

const raBody = (identity: string, passCode: string | null) => ({ identity, passCode, callingStationId: '198.51.100.23' });
const ra = (kit: PhoneApprovalKit, resource: Resource, body: object) =>
  kit.t
    .http()
    .post('/access/requests/ra')
    .set('Authorization', resource.authorization)
    .send(body)
    .then((res) => res);

/**
 * The wait of a call that asks a person to approve, seen from the outside: what it costs the database
 * while it waits, and how it ends when the database does not answer any more.
 */
describe('approval waits held by the API', () => {
  const USERS = 20;
  /** three each: push fatigue refuses a user's fourth pending approval */
  const WAITS = USERS * 3;
  let kit: PhoneApprovalKit;
  let vpn: Resource;

  beforeAll(async () => {
    kit = await startPhoneApprovalKit();
    vpn = await kit.t.newResource(kit.accountId, 'VPN');
  });
  afterAll(() => kit?.close());

  it(`${WAITS} held waits use no connection of the pool; /ping and code sign-ins go on; every wait ends at its bound, 200 Denied`, async () => {
    const users: PhoneUser[] = [];
    for (let i = 0; i < USERS; i++) users.push(await kit.telegramUser(`wait-${i}-${randomUUID().slice(0, 6)}`));
    const held = users.flatMap((user) => [0, 1, 2].map(() => ra(kit, vpn, raBody(user.identity, 't'))));
    await kit.waitsHeld(WAITS);

    const pool = (
      kit.t.database.dataSource.driver as unknown as { master: { totalCount: number; idleCount: number; options: { max: number } } }
    ).master;
    expect(pool.totalCount - pool.idleCount).toBe(0);
    expect(pool.totalCount).toBeLessThanOrEqual(pool.options.max);
    const [{ busy }] = await kit.t.database.dataSource.query(
      `SELECT count(*)::int AS busy FROM pg_stat_activity WHERE datname = $1 AND state <> 'idle' AND pid <> pg_backend_pid()
          AND application_name NOT IN ('twofold-approvals-listener', 'twofold-credentials-listener')`,
      [kit.t.database.name],
    );
    expect(busy).toBe(0);

    expect((await kit.t.http().get('/ping')).status).toBe(200);
    await totpUser(kit.t, kit.accountId, 'code.user');
    const code = await ra(kit, vpn, raBody('code.user', totpCode(kit.t)));
    expect(code.body.model.status).toBe('Granted');

    kit.letWaitsExpire();
    const answers = await Promise.all(held);
    expect(answers.map((res) => `${res.status} ${res.body.model.status}`)).toEqual(new Array(WAITS).fill('200 Denied'));
    expect(new Set(answers.map((res) => res.body.model.replyMessage))).toEqual(new Set(['Доступ запрещён: вход не подтверждён вовремя.']));
  });
});

describe('an approval wait with the database frozen', () => {
  let kit: PhoneApprovalKit;
  let proxy: FreezableProxy;
  let vpn: Resource;

  beforeAll(async () => {
    const server = new URL(process.env['TEST_DATABASE_URL'] as string);
    proxy = await startFreezableProxy({ host: server.hostname, port: Number(server.port || 5432) });
    kit = await startPhoneApprovalKit(
      {},
      {
        database: {
          timeouts: { connectTimeoutMs: DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, statementTimeoutMs: DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS },
          connectVia: (url) => {
            const viaProxy = new URL(url);
            viaProxy.hostname = '127.0.0.1';
            viaProxy.port = String(proxy.port);
            return viaProxy.toString();
          },
        },
      },
    );
    vpn = await kit.t.newResource(kit.accountId, 'VPN');
  });
  afterAll(async () => {
    proxy.thaw();
    await kit?.close();
    await proxy.close();
  });

  it('still ends at its bound with 200 Denied, never a 5xx', async () => {
    const user = await kit.telegramUser('frozen.user');
    const after = kit.lastMessageId(user.chat);
    const held = ra(kit, vpn, raBody('frozen.user', 't'));
    await kit.fake.question(user.chat.id, after);
    await kit.waitsHeld(1);
    proxy.freeze();
    kit.letWaitsExpire();
    const res = await held;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, model: { status: 'Denied' } });
  });
});
