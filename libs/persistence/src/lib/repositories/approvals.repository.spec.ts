import { randomBytes, randomUUID } from 'node:crypto';
import { AccountId } from '@twofold/domain';
import { Client } from 'pg';
import { createTestDatabase, decidedAccessRequest, newAccount, newResource, newUser, TestDatabase } from '../../testing';
import { SecretCipher } from '../secret-cipher';
import { Db } from '../transaction-context';
import { AccessRequestsRepository } from './access-requests.repository';
import { APPROVAL_DECIDED_CHANNEL, ApprovalsRepository, NewApproval } from './approvals.repository';
import { AuthenticatorsRepository } from './authenticators.repository';
import { TelegramBindingsRepository } from './telegram-bindings.repository';

const NOW = new Date('2026-05-20T10:00:00Z');
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe('approvals and Telegram bindings (persistence)', () => {
  let database: TestDatabase;
  let db: Db;
  let approvals: ApprovalsRepository;
  let accountId: AccountId;
  let otherAccountId: AccountId;
  let userId: string;
  let resourceId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new Db(database.dataSource);
    approvals = new ApprovalsRepository(db);
    const cipher = new SecretCipher(randomBytes(32));
    accountId = (await newAccount(db, cipher)).account.id;
    otherAccountId = (await newAccount(db, cipher)).account.id;
    userId = (await newUser(db, accountId, 'jane')).id;
    resourceId = (await newResource(db, cipher, accountId)).resource.id;
  });
  afterAll(() => database.drop());

  async function newApproval(over: Partial<NewApproval> = {}) {
    const requestId = await new AccessRequestsRepository(db).insertDecided(
      accountId,
      decidedAccessRequest({ resourceId, userId, identity: 'jane', createdAt: NOW }),
    );
    return approvals.insert(accountId, {
      accessRequestId: requestId,
      userId,
      resourceId,
      authenticatorId: null,
      factor: 'Telegram',
      channel: 'ra',
      address: '203.0.113.7',
      number: null,
      choices: null,
      createdAt: NOW,
      expiresAt: at(55),
      ...over,
    });
  }

  const approve = (at: Date) => ({
    status: 'Approved' as const,
    rejectReason: null,
    at,
    decidedBy: 'telegram:42',
    decidedFromAddress: null,
  });

  it('is decided once: of parallel answers on separate connections exactly one wins', async () => {
    const approval = await newApproval();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        db.transaction(() =>
          approvals.answer(accountId, approval.id, {
            status: i % 2 ? 'Approved' : 'Rejected',
            rejectReason: i % 2 ? null : 'notMe',
            at: at(1),
            decidedBy: `telegram:${i}`,
            decidedFromAddress: null,
          }),
        ),
      ),
    );
    const winners = answers.filter((answer) => answer !== null);
    expect(winners).toHaveLength(1);
    const stored = await approvals.findById(accountId, approval.id);
    expect(stored).toMatchObject({ status: winners[0]?.status, decidedBy: winners[0]?.decidedBy, decidedAt: at(1) });
  });

  it('an answer at or after the expiry, or to another account, changes nothing', async () => {
    const approval = await newApproval();
    expect(await approvals.answer(accountId, approval.id, approve(at(55)))).toBeNull();
    expect(await approvals.answer(otherAccountId, approval.id, approve(at(1)))).toBeNull();
    expect(await approvals.statusOf(accountId, approval.id)).toBe('Pending');
  });

  it('settling loses to an answer given first, and the answer is what it reads', async () => {
    const approval = await newApproval();
    await approvals.answer(accountId, approval.id, approve(at(2)));
    expect(await approvals.settle(accountId, approval.id, 'Expired', at(55))).toMatchObject({
      approval: { status: 'Approved', decidedAt: at(2) },
      settledHere: false,
    });
    const other = await newApproval();
    expect(await approvals.settle(accountId, other.id, 'Cancelled', at(3))).toMatchObject({
      approval: { status: 'Cancelled', decidedAt: at(3) },
      settledHere: true,
    });
    expect(await approvals.settle(accountId, other.id, 'Cancelled', at(4))).toMatchObject({
      approval: { status: 'Cancelled', decidedAt: at(3) },
      settledHere: false,
    });
    expect(await approvals.answer(accountId, other.id, approve(at(4)))).toBeNull();
    expect(await approvals.settle(accountId, randomUUID(), 'Expired', at(3))).toBeNull();
  });

  it('announces every decision and settling on its channel, when it commits', async () => {
    const listener = new Client({ connectionString: database.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => {
      if (message.channel === APPROVAL_DECIDED_CHANNEL && message.payload) heard.push(message.payload);
    });
    await listener.query(`LISTEN ${APPROVAL_DECIDED_CHANNEL}`);
    try {
      const answered = await newApproval();
      const settled = await newApproval();
      const lost = await newApproval();
      await approvals.answer(accountId, answered.id, approve(at(1)));
      await approvals.settle(accountId, settled.id, 'Undeliverable', at(1));
      // a refused answer and a settling that lost announce nothing
      await approvals.answer(accountId, answered.id, approve(at(2)));
      await approvals.settle(accountId, answered.id, 'Expired', at(60));
      // rolled back: nothing announced
      await db
        .transaction(async () => {
          await approvals.answer(accountId, lost.id, approve(at(1)));
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      await listener.query('SELECT 1');
      await new Promise((resolve) => setImmediate(resolve));
      expect(heard).toEqual([answered.id, settled.id]);
      expect(await approvals.statusOf(accountId, lost.id)).toBe('Pending');
    } finally {
      await listener.end();
    }
  });

  it('reads the decided ones among the waited-for, each under its own account', async () => {
    const decided = await newApproval();
    const pending = await newApproval();
    await approvals.answer(accountId, decided.id, approve(at(1)));
    const found = await approvals.decidedAmong([
      { accountId, id: decided.id },
      { accountId, id: pending.id },
      { accountId: otherAccountId, id: decided.id },
    ]);
    expect(found.map((row) => [row.id, row.status])).toEqual([[decided.id, 'Approved']]);
    expect(await approvals.decidedAmong([])).toEqual([]);
  });

  it('counts a user\'s pending approvals (unexpired) and their "it wasn\'t me" answers', async () => {
    const fresh = await newUser(db, accountId, `fatigue-${randomUUID()}`);
    const of = (over: Partial<NewApproval> = {}) => newApproval({ userId: fresh.id, ...over });
    const a = await of();
    await of();
    await of({ expiresAt: at(-1) });
    expect(await approvals.countPendingOfUser(accountId, fresh.id, NOW)).toBe(2);
    await approvals.answer(accountId, a.id, { ...approve(at(1)), status: 'Rejected', rejectReason: 'notMe' });
    expect(await approvals.countPendingOfUser(accountId, fresh.id, NOW)).toBe(1);
    expect(await approvals.notMeTimesOfUser(accountId, fresh.id, NOW)).toEqual([at(1)]);
    expect(await approvals.notMeTimesOfUser(accountId, fresh.id, at(2))).toEqual([]);
    expect(await approvals.countPendingOfUser(otherAccountId, fresh.id, NOW)).toBe(0);
  });

  it('keeps the number and its choices together, and admits MobileApp authenticators', async () => {
    const numbered = await newApproval({ channel: 'page', number: 42, choices: [17, 42, 88] });
    expect(await approvals.findById(accountId, numbered.id)).toMatchObject({ number: 42, choices: [17, 42, 88] });
    await expect(newApproval({ number: 42, choices: null })).rejects.toThrow();
    await expect(newApproval({ number: 9, choices: [9, 10, 11] })).rejects.toThrow();
    const authenticators = new AuthenticatorsRepository(db);
    const base = {
      userId,
      name: 'Phone',
      secretEnc: null,
      privateIdEnc: null,
      algorithm: null,
      digits: null,
      hotpCounter: null,
      lastTimeStep: null,
      createdAt: NOW,
    };
    await expect(authenticators.insert(accountId, { ...base, kind: 'MobileApp' })).resolves.toMatchObject({ kind: 'MobileApp' });
    await expect(authenticators.insert(accountId, { ...base, kind: 'Pager' as never })).rejects.toThrow();
  });

  it('a /start link is spent once and not after its expiry; a binding goes with its authenticator', async () => {
    const bindings = new TelegramBindingsRepository(db);
    const link = await bindings.insertLink(accountId, { userId, payloadHash: randomBytes(32), createdAt: NOW, expiresAt: at(60) });
    expect(await bindings.findLinkByPayloadHash(link.payloadHash)).toMatchObject({ id: link.id, accountId });
    expect(await bindings.useLink(otherAccountId, link.id, at(1))).toBe(false);
    const spent = await Promise.all([bindings.useLink(accountId, link.id, at(1)), bindings.useLink(accountId, link.id, at(1))]);
    expect(spent.sort()).toEqual([false, true]);
    const late = await bindings.insertLink(accountId, { userId, payloadHash: randomBytes(32), createdAt: NOW, expiresAt: at(60) });
    expect(await bindings.useLink(accountId, late.id, at(60))).toBe(false);

    const authenticators = new AuthenticatorsRepository(db);
    const telegram = await authenticators.insert(accountId, {
      userId,
      kind: 'Telegram',
      name: 'Telegram',
      secretEnc: null,
      privateIdEnc: null,
      algorithm: null,
      digits: null,
      hotpCounter: null,
      lastTimeStep: null,
      createdAt: NOW,
    });
    // chat ids reach 52 bits
    await bindings.insertBinding(accountId, {
      authenticatorId: telegram.id,
      chatId: '4503599627370495',
      languageCode: 'en',
      createdAt: NOW,
    });
    expect(await bindings.chatOf(accountId, telegram.id)).toEqual({
      authenticatorId: telegram.id,
      userId,
      chatId: '4503599627370495',
      languageCode: 'en',
      disabled: false,
    });
    expect(await bindings.chatOf(otherAccountId, telegram.id)).toBeNull();
    expect((await bindings.chatsOfUser(accountId, userId)).map((chat) => chat.chatId)).toEqual(['4503599627370495']);
    await authenticators.delete(accountId, telegram.id);
    expect(await bindings.chatOf(accountId, telegram.id)).toBeNull();
    expect(await database.dataSource.query('SELECT count(*)::int AS n FROM telegram_bindings')).toEqual([{ n: 0 }]);
  });
});
