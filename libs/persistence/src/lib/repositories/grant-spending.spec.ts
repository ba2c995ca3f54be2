import { randomBytes } from 'node:crypto';
import { AccountId } from '@twofold/domain';
import {
  createTestDatabase,
  decidedAccessRequest,
  newAccount,
  newOtpAuthenticator,
  newResource,
  newUser,
  TestDatabase,
} from '../../testing';
import { SecretCipher } from '../secret-cipher';
import { Db } from '../transaction-context';
import { AccessRequestsRepository, DecidedAccessRequest } from './access-requests.repository';
import { AuthenticatorsRepository, OtpSpend } from './authenticators.repository';

const NOW = new Date('2026-05-20T10:00:00Z');

/**
 * A grant by a code spends the code in its own statement: the replay guard (one spend of a time step or
 * counter wins, on every row of the secret) holds inside it, and a grant whose spend lost writes nothing.
 */
describe('grants that spend their code in the same statement (persistence)', () => {
  let database: TestDatabase;
  let db: Db;
  let requests: AccessRequestsRepository;
  let authenticators: AuthenticatorsRepository;
  let accountId: AccountId;
  let userId: string;
  let resourceId: string;
  let hotpIds: string[];
  let totpId: string;

  const state = async (id: string) => {
    const [row] = await database.dataSource.query(
      `SELECT hotp_counter::int AS counter, last_time_step::int AS step FROM authenticators WHERE account_id = $1 AND id = $2`,
      [accountId, id],
    );
    return row as { counter: number | null; step: number | null };
  };
  const request = async (id: string) => {
    const [row] = await database.dataSource.query(`SELECT status, authenticator FROM access_requests WHERE account_id = $1 AND id = $2`, [
      accountId,
      id,
    ]);
    return row as { status: string; authenticator: string | null } | undefined;
  };
  const lastLogin = async () =>
    ((await database.dataSource.query(`SELECT last_login FROM users WHERE id = $1`, [userId]))[0] as { last_login: Date | null })
      .last_login;

  const values = (status: DecidedAccessRequest['status']): DecidedAccessRequest =>
    decidedAccessRequest({
      resourceId,
      userId,
      identity: 'jane',
      createdAt: NOW,
      status,
      grantedAt: status === 'Granted' ? NOW : null,
      authenticator: status === 'Granted' ? 'HotpToken' : null,
    });
  const awaiting = () => requests.insertDecided(accountId, values('AwaitingAuthentication'));
  const login = { userId: '', at: NOW };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new Db(database.dataSource);
    requests = new AccessRequestsRepository(db);
    authenticators = new AuthenticatorsRepository(db);
    const cipher = new SecretCipher(randomBytes(32));
    accountId = (await newAccount(db, cipher)).account.id;
    resourceId = (await newResource(db, cipher, accountId)).resource.id;
    userId = (await newUser(db, accountId, 'jane')).id;
    login.userId = userId;
    const key = randomBytes(20);
    // the same secret registered twice: its counter is spent on both rows
    hotpIds = [
      (await newOtpAuthenticator(db, cipher, accountId, userId, { kind: 'HotpToken', key })).id,
      (await newOtpAuthenticator(db, cipher, accountId, userId, { kind: 'HotpToken', key })).id,
    ];
    totpId = (await newOtpAuthenticator(db, cipher, accountId, userId, { kind: 'TotpToken', key: randomBytes(20) })).id;
  });
  afterAll(() => database.drop());

  it('a stored request: granted with the counter spent on every row of the secret and lastLogin set, in one statement', async () => {
    const id = await awaiting();
    const spend: OtpSpend = { kind: 'hotp', ids: hotpIds, counter: 4 };
    expect(await requests.grantSpending(accountId, id, { userId, grantedAt: NOW, authenticator: 'HotpToken' }, login, spend)).toBe(
      'granted',
    );
    expect(await request(id)).toEqual({ status: 'Granted', authenticator: 'HotpToken' });
    expect(await Promise.all(hotpIds.map(state))).toEqual([
      { counter: 5, step: null },
      { counter: 5, step: null },
    ]);
    expect(await lastLogin()).toEqual(NOW);
  });

  it('a stored request whose code was spent first: replayed, the request left awaiting, the state as it was', async () => {
    const id = await awaiting();
    // counter 4 was spent above: the stored next counter is 5
    const spend: OtpSpend = { kind: 'hotp', ids: hotpIds, counter: 4 };
    expect(await requests.grantSpending(accountId, id, { userId, grantedAt: NOW }, login, spend)).toBe('replayed');
    expect(await request(id)).toEqual({ status: 'AwaitingAuthentication', authenticator: null });
    expect((await state(hotpIds[0])).counter).toBe(5);
  });

  it('a spend that reaches one row of the secret but not the other is lost: no grant', async () => {
    await database.dataSource.query(`UPDATE authenticators SET hotp_counter = 9 WHERE id = $1`, [hotpIds[1]]);
    const id = await awaiting();
    expect(await requests.grantSpending(accountId, id, { userId }, login, { kind: 'hotp', ids: hotpIds, counter: 6 })).toBe('replayed');
    expect((await request(id))?.status).toBe('AwaitingAuthentication');
  });

  it('a request decided first: superseded, and the code is spent all the same', async () => {
    const id = await awaiting();
    expect(await requests.decide(accountId, id, 'Denied')).toBe(true);
    expect(await requests.grantSpending(accountId, id, { userId }, login, { kind: 'totp', ids: [totpId], timeStep: 1000 })).toBe(
      'superseded',
    );
    expect(await request(id)).toEqual({ status: 'Denied', authenticator: null });
    expect((await state(totpId)).step).toBe(1000);
  });

  it('a TOTP step at or before the last one spent is lost', async () => {
    const id = await awaiting();
    expect(await requests.grantSpending(accountId, id, { userId }, login, { kind: 'totp', ids: [totpId], timeStep: 1000 })).toBe(
      'replayed',
    );
    expect(await requests.grantSpending(accountId, id, { userId }, login, { kind: 'totp', ids: [totpId], timeStep: 999 })).toBe('replayed');
    expect(await requests.grantSpending(accountId, id, { userId }, login, { kind: 'totp', ids: [totpId], timeStep: 1001 })).toBe('granted');
  });

  it('a request written with its grant: the row only when the spend wins, lastLogin only with it', async () => {
    await database.dataSource.query(`UPDATE users SET last_login = NULL WHERE id = $1`, [userId]);
    const spend: OtpSpend = { kind: 'totp', ids: [totpId], timeStep: 1001 };
    const before = Number((await database.dataSource.query(`SELECT count(*) FROM access_requests`))[0].count);
    expect(await requests.insertGrantedSpending(accountId, values('Granted'), spend)).toBeNull();
    expect(Number((await database.dataSource.query(`SELECT count(*) FROM access_requests`))[0].count)).toBe(before);
    expect(await lastLogin()).toBeNull();

    const id = await requests.insertGrantedSpending(accountId, values('Granted'), { ...spend, timeStep: 1002 });
    expect(id).toEqual(expect.any(String));
    expect(await request(id as string)).toEqual({ status: 'Granted', authenticator: 'HotpToken' });
    expect((await state(totpId)).step).toBe(1002);
    expect(await lastLogin()).toEqual(NOW);
  });

  const ownAuthenticators = async (kind: 'HotpToken' | 'TotpToken', count: number) => {
    const cipher = new SecretCipher(randomBytes(32));
    const key = randomBytes(20);
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) ids.push((await newOtpAuthenticator(db, cipher, accountId, userId, { kind, key })).id);
    return ids;
  };

  it('a request written with its HOTP grant: the counter spent on every row of the secret, or, when one row is past it, nothing', async () => {
    const hotpIds = await ownAuthenticators('HotpToken', 2);
    await database.dataSource.query(`UPDATE authenticators SET hotp_counter = 20 WHERE id = ANY($1::uuid[])`, [hotpIds]);
    const id = await requests.insertGrantedSpending(accountId, values('Granted'), { kind: 'hotp', ids: hotpIds, counter: 21 });
    expect(await request(id as string)).toEqual({ status: 'Granted', authenticator: 'HotpToken' });
    expect((await Promise.all(hotpIds.map(state))).map((row) => row.counter)).toEqual([22, 22]);
    expect(await requests.insertGrantedSpending(accountId, values('Granted'), { kind: 'hotp', ids: hotpIds, counter: 21 })).toBeNull();

    await database.dataSource.query(`UPDATE authenticators SET hotp_counter = 30 WHERE id = $1`, [hotpIds[1]]);
    const before = Number((await database.dataSource.query(`SELECT count(*) FROM access_requests`))[0].count);
    expect(await requests.insertGrantedSpending(accountId, values('Granted'), { kind: 'hotp', ids: hotpIds, counter: 25 })).toBeNull();
    expect(Number((await database.dataSource.query(`SELECT count(*) FROM access_requests`))[0].count)).toBe(before);
  });

  it('the grant function writes the row the statement of a decided request writes (its frozen copy has not drifted)', async () => {
    const written = {
      ...values('Granted'),
      email: 'jane@example.com',
      phone: '+15550100',
      claims: { department: 'it' },
      callbackAction: 'https://vpn.example.com/done',
      callbackTarget: '_self',
      ip: '192.0.2.7',
      remoteHost: 'vpn.example.com',
      channel: 'ra' as const,
      failedAttempts: 0,
    };
    const byStatement = await requests.insertDecided(accountId, written);
    const [totpId] = await ownAuthenticators('TotpToken', 1);
    const byFunction = await requests.insertGrantedSpending(accountId, written, { kind: 'totp', ids: [totpId], timeStep: 5000 });
    const row = async (id: string) => {
      const [found] = await database.dataSource.query(`SELECT * FROM access_requests WHERE id = $1`, [id]);
      const { id: _id, ...columns } = found as Record<string, unknown>;
      return columns;
    };
    const statementRow = await row(byStatement);
    expect(statementRow).toMatchObject({ email: 'jane@example.com', ip: '192.0.2.7', claims: { department: 'it' }, status: 'Granted' });
    expect(await row(byFunction as string)).toEqual(statementRow);
  });

  it('the grant function writes grants only', async () => {
    await expect(
      requests.insertGrantedSpending(accountId, values('Denied'), { kind: 'totp', ids: [totpId], timeStep: 999_999 }),
    ).rejects.toThrow('a spent code grants: Denied is not a grant');
  });

  it('the spend alone (the self-service check of a new code) follows the same guard', async () => {
    expect(await authenticators.spend(accountId, { kind: 'totp', ids: [totpId], timeStep: 1002 })).toBe(false);
    expect(await authenticators.spend(accountId, { kind: 'totp', ids: [totpId], timeStep: 1003 })).toBe(true);
    expect(await authenticators.spend(accountId, { kind: 'hotp', ids: [hotpIds[0]], counter: 4 })).toBe(false);
  });

  it('scoped to the account: another account cannot spend this user’s codes', async () => {
    const other = (await newAccount(db, new SecretCipher(randomBytes(32)))).account.id;
    expect(await authenticators.spend(other, { kind: 'totp', ids: [totpId], timeStep: 5000 })).toBe(false);
    expect((await state(totpId)).step).toBe(1003);
  });
});
