import { randomBytes } from 'node:crypto';
import { ManualClock } from '@twofold/domain';
import { ApprovalEntity, ApprovalsRepository, createDataSource, Db, SecretCipher } from '@twofold/persistence';
import { createTestDatabase, TestDatabase } from '@twofold/persistence/testing';
import { ClientConfig } from 'pg';
import { DataSource } from 'typeorm';
import { ApprovalDecisionListener } from './approval-decision.listener';
import { ApprovalWaiter, WaitEnd } from './approval-waiter';
import { approvalFixture, ApprovalFixture, MANUAL_TIMERS } from './approvals.testing';

const NOW = new Date('2026-05-20T10:00:00Z');

/** Whether the promise has settled once everything queued before has run: never a wait for time. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('the wait for an approval (ApprovalWaiter)', () => {
  let database: TestDatabase;
  /** a second instance's pool: where decisions are taken */
  let other: DataSource;
  let db: Db;
  let approvals: ApprovalsRepository;
  let otherApprovals: ApprovalsRepository;
  let fixture: ApprovalFixture;
  let clock: ManualClock;

  beforeAll(async () => {
    database = await createTestDatabase();
    other = createDataSource({ url: database.url, poolSize: 2, applicationName: 'twofold-test-instance-b' });
    await other.initialize();
    db = new Db(database.dataSource);
    approvals = new ApprovalsRepository(db);
    otherApprovals = new ApprovalsRepository(new Db(other));
    fixture = await approvalFixture(db, new SecretCipher(randomBytes(32)), { now: NOW });
  });
  afterAll(async () => {
    await other.destroy();
    await database.drop();
  });
  beforeEach(() => {
    clock = new ManualClock(NOW);
  });

  async function pending(expiresInSeconds = 55): Promise<ApprovalEntity> {
    const subject = await fixture.subject();
    return approvals.insert(fixture.accountId, {
      accessRequestId: subject.accessRequestId,
      userId: fixture.userId,
      resourceId: fixture.resourceId,
      authenticatorId: fixture.authenticatorId,
      factor: 'Telegram',
      channel: 'ra',
      address: null,
      number: null,
      choices: null,
      createdAt: NOW,
      expiresAt: new Date(NOW.getTime() + expiresInSeconds * 1000),
    });
  }
  const key = (approval: ApprovalEntity) => ({ accountId: fixture.accountId, id: approval.id });
  const deadline = (approval: ApprovalEntity) => approval.expiresAt;
  const approveOn = (repository: ApprovalsRepository, approval: ApprovalEntity) =>
    repository.answer(fixture.accountId, approval.id, {
      status: 'Approved',
      rejectReason: null,
      at: new Date(NOW.getTime() + 1000),
      decidedBy: 'telegram:1',
      decidedFromAddress: null,
    });

  it('a decision taken through another instance ends the wait through LISTEN, without any poll', async () => {
    const waiter = new ApprovalWaiter(approvals, clock, MANUAL_TIMERS);
    const pool = (database.dataSource.driver as unknown as { master: { options: ClientConfig } }).master;
    const listener = new ApprovalDecisionListener(
      database.dataSource,
      () => ({ ...pool.options, application_name: 'twofold-approvals-listener' }),
      (id) => void waiter.heard(id),
    );
    await listener.start();
    try {
      const approval = await pending();
      const wait = waiter.wait(key(approval), deadline(approval));
      expect(await settled(wait)).toBe(false);
      await approveOn(otherApprovals, approval);
      const end = await wait;
      expect(end).toMatchObject({ kind: 'decided', approval: { id: approval.id, status: 'Approved' } });
      expect(waiter.size).toBe(0);
    } finally {
      await listener.stop();
    }
  });

  it('a decision whose notification is lost ends the wait at the next poll, one statement for every wait', async () => {
    const waiter = new ApprovalWaiter(approvals, clock, MANUAL_TIMERS);
    const [first, second, untouched] = [await pending(), await pending(), await pending()];
    const waits = [first, second, untouched].map((approval) => waiter.wait(key(approval), deadline(approval)));
    // decided elsewhere, and nobody listens: the announcement is lost
    await approveOn(otherApprovals, first);
    await other.query(`UPDATE approvals SET status = 'Rejected', reject_reason = 'notMe', decided_at = $2 WHERE id = $1`, [second.id, NOW]);
    expect(await settled(waits[0])).toBe(false);
    const polls = jest.spyOn(approvals, 'decidedAmong');
    await waiter.tick();
    expect(polls).toHaveBeenCalledTimes(1);
    expect(await waits[0]).toMatchObject({ kind: 'decided', approval: { status: 'Approved' } });
    expect(await waits[1]).toMatchObject({ kind: 'decided', approval: { status: 'Rejected', rejectReason: 'notMe' } });
    expect(await settled(waits[2])).toBe(false);
    expect(waiter.size).toBe(1);
    waiter.shutdown();
  });

  it('ends at its deadline on the injected clock, not a millisecond before, without the database', async () => {
    const failing = Object.assign(Object.create(ApprovalsRepository.prototype) as ApprovalsRepository, {
      decidedAmong: () => Promise.reject(new Error('Connection terminated unexpectedly')),
      findById: () => Promise.reject(new Error('Connection terminated unexpectedly')),
    });
    const waiter = new ApprovalWaiter(failing, clock, MANUAL_TIMERS);
    const approval = await pending(55);
    const wait = waiter.wait(key(approval), deadline(approval));
    clock.advance(55_000 - 1);
    await waiter.tick();
    expect(await settled(wait)).toBe(false);
    clock.advance(1);
    await waiter.tick();
    expect(await wait).toEqual({ kind: 'deadline' });
  });

  it('a deadline already passed ends the wait as it starts', async () => {
    const waiter = new ApprovalWaiter(approvals, clock, MANUAL_TIMERS);
    const approval = await pending(0);
    expect(await waiter.wait(key(approval), deadline(approval))).toEqual({ kind: 'deadline' });
    expect(waiter.size).toBe(0);
  });

  it("the caller's abort (a client that hung up) ends its wait, and only its own", async () => {
    const waiter = new ApprovalWaiter(approvals, clock, MANUAL_TIMERS);
    const approval = await pending();
    const hangUp = new AbortController();
    const gone = waiter.wait(key(approval), deadline(approval), hangUp.signal);
    const stays = waiter.wait(key(approval), deadline(approval));
    hangUp.abort();
    expect(await gone).toEqual({ kind: 'aborted' });
    expect(await settled(stays)).toBe(false);
    const already = new AbortController();
    already.abort();
    expect(await waiter.wait(key(approval), deadline(approval), already.signal)).toEqual({ kind: 'aborted' });
    waiter.shutdown();
    expect(await stays).toEqual({ kind: 'shutdown' });
  });

  it('shutdown answers every held wait, and every wait started after it', async () => {
    const counts: number[] = [];
    const waiter = new ApprovalWaiter(approvals, clock, MANUAL_TIMERS, (n) => counts.push(n));
    const held: Promise<WaitEnd>[] = [];
    for (let i = 0; i < 20; i++) {
      const approval = await pending();
      held.push(waiter.wait(key(approval), deadline(approval)));
    }
    expect(waiter.size).toBe(20);
    waiter.shutdown();
    expect(await Promise.all(held)).toEqual(Array.from({ length: 20 }, () => ({ kind: 'shutdown' })));
    expect(waiter.size).toBe(0);
    expect(counts.at(-1)).toBe(0);
    const late = await pending();
    expect(await waiter.wait(key(late), deadline(late))).toEqual({ kind: 'shutdown' });
  });
});
