import { ApprovalFactor, APPROVAL_COOLDOWN_MINUTES } from '@twofold/domain';
import { ApprovalsRepository } from '@twofold/persistence';
import { DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS } from '../config/app-config';
import { FreezableProxy, startFreezableProxy } from '../../test/testing/freezable-proxy';
import { recordQueries } from '../../test/testing/query-counter';
import { startTestApp, TestApp, TEST_NOW } from '../../test/testing/test-app';
import { ApprovalTransports } from './approval-transport';
import { ApprovalWaiter } from './approval-waiter';
import { ApprovalDecision, ApprovalsService, OpenedApproval } from './approvals.service';
import { approvalFixture, ApprovalFixture, RecordingTransport } from './approvals.testing';

/** The API the access pipeline calls, on the real application and database, with a transport of the test's. */
describe('ApprovalsService', () => {
  let t: TestApp;
  let service: ApprovalsService;
  let waiter: ApprovalWaiter;
  let approvals: ApprovalsRepository;
  let transport: RecordingTransport;

  beforeAll(async () => {
    t = await startTestApp();
    service = t.app.get(ApprovalsService);
    waiter = t.app.get(ApprovalWaiter);
    approvals = t.app.get(ApprovalsRepository);
    transport = new RecordingTransport('Telegram');
    t.app.get(ApprovalTransports).register(transport);
  });
  afterAll(() => t?.close());
  beforeEach(() => {
    t.clock.set(TEST_NOW);
    transport.answer = { delivered: true, ref: { message: 1 } };
  });

  const fixture = () => approvalFixture(t.db, t.cipher, { now: TEST_NOW, displayName: 'Acme Bank' });
  const factorOf = (f: ApprovalFixture): ApprovalFactor => ({ id: f.authenticatorId, kind: 'Telegram', createdAt: TEST_NOW });
  async function started(f: ApprovalFixture, channel: 'ra' | 'page' = 'ra'): Promise<OpenedApproval> {
    const result = await service.start(await f.subject(channel), factorOf(f), { withNumber: channel === 'page' });
    if (result.kind !== 'waiting') throw new Error(`not waiting: ${JSON.stringify(result)}`);
    return result.approval;
  }
  const row = (approval: OpenedApproval) => approvals.findById(approval.accountId, approval.id);
  const scrape = async () => (await t.http().get('/metrics')).text;
  const series = (text: string, name: string) =>
    Number(
      text
        .split('\n')
        .find((line) => line.startsWith(`${name} `))
        ?.split(' ')[1] ?? 0,
    );

  it('delivers the question with whose service, which resource, from where and when; an approval from the device grants', async () => {
    const f = await fixture();
    const approval = await started(f);
    expect(approval.number).toBeNull();
    expect(transport.delivered.at(-1)).toEqual({
      approvalId: approval.id,
      accountId: f.accountId,
      authenticatorId: f.authenticatorId,
      accountName: 'Acme Bank',
      resourceName: 'VPN',
      address: '203.0.113.7',
      at: TEST_NOW,
      // the end of the wait: a transport's retries stop before it
      expiresAt: new Date(TEST_NOW.getTime() + 55_000),
      choices: null,
    });
    const waiting = service.awaitDecision(approval);
    const stored = await row(approval);
    expect(stored?.deliveryRef).toEqual({ message: 1 });
    const answer = await service.answerFromDevice(stored!, { kind: 'approve' }, { decidedBy: 'telegram:42', address: null });
    expect(answer.kind).toBe('decided');
    const decision = await waiting;
    expect(decision).toMatchObject({
      outcome: 'approved',
      reason: null,
      approval: { status: 'Approved', authenticatorId: f.authenticatorId },
    });
    expect(await service.answerFromDevice(stored!, { kind: 'approve' }, { decidedBy: 'telegram:42', address: null })).toEqual({
      kind: 'ignored',
    });
    expect(
      series(await scrape(), 'twofold_approvals_decided_total{channel="ra",factor="telegram",result="approved"}'),
    ).toBeGreaterThanOrEqual(1);
  });

  it('the delivery after the commit claims and reads what the message names in one statement, then stores the reference', async () => {
    // each statement outside the decision's transaction waits its turn for the pool again: in a burst of
    // sign-ins a delivery of six separate reads and writes timed out in that queue (Undeliverable)
    const f = await fixture();
    const opened = await service.open(await f.subject('ra'), factorOf(f), { withNumber: false });
    if (opened.kind !== 'opened') throw new Error(`not opened: ${JSON.stringify(opened)}`);
    let result: Awaited<ReturnType<ApprovalsService['deliver']>> | undefined;
    const statements = await recordQueries(async () => {
      result = await service.deliver(opened.approval);
    });
    expect(result).toEqual({ kind: 'delivered' });
    expect(transport.delivered.at(-1)).toMatchObject({ approvalId: opened.approval.id, accountName: 'Acme Bank', resourceName: 'VPN' });
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/UPDATE approvals SET delivery_ref/);
    expect((await row(opened.approval))?.deliveryRef).toEqual({ message: 1 });
    // claimed once: a second delivery of the same approval sends nothing, in one statement
    const again = await recordQueries(() => service.deliver(opened.approval));
    expect(again).toHaveLength(1);
    expect(transport.delivered.filter((m) => m.approvalId === opened.approval.id)).toHaveLength(1);
  });

  it('a sign-in with a screen gets a two-digit number among three choices; a wrong pick rejects without a "not me"', async () => {
    const f = await fixture();
    const approval = await started(f, 'page');
    expect(approval.number).toBeGreaterThanOrEqual(10);
    expect(approval.number).toBeLessThanOrEqual(99);
    const choices = transport.delivered.at(-1)?.choices ?? [];
    expect(choices).toHaveLength(3);
    expect(choices).toContain(approval.number);
    const waiting = service.awaitDecision(approval);
    const wrong = choices.find((n) => n !== approval.number) as number;
    await service.answerFromDevice((await row(approval))!, { kind: 'number', number: wrong }, { decidedBy: 'telegram:1', address: null });
    expect(await waiting).toMatchObject({ outcome: 'rejected', reason: 'wrongNumber' });
    expect(await approvals.notMeTimesOfUser(f.accountId, f.userId, TEST_NOW)).toEqual([]);
  });

  it('"it wasn\'t me" rejects and is journaled as AccessRequest Reject with the address and the resource', async () => {
    const f = await fixture();
    const approval = await started(f);
    const waiting = service.awaitDecision(approval);
    await service.answerFromDevice((await row(approval))!, { kind: 'notMe' }, { decidedBy: 'telegram:1', address: null });
    expect(await waiting).toMatchObject({ outcome: 'rejected', reason: 'notMe' });
    const events = await t.database.dataSource.query(
      `SELECT object, action, subject, success, additional_fields AS fields FROM journal_events WHERE account_id = $1`,
      [f.accountId],
    );
    expect(events).toEqual([
      {
        object: 'AccessRequest',
        action: 'Reject',
        subject: f.identity,
        success: true,
        fields: expect.objectContaining({
          UserIp: '203.0.113.7',
          UserIdentity: f.identity,
          Resource: 'VPN',
          ResourceId: f.resourceId,
          AccessRequestId: approval.accessRequestId,
          Channel: 'ra',
          '2FAMethod': 'Telegram',
        }),
      },
    ]);
  });

  it('push fatigue: a fourth pending approval is refused; two "it wasn\'t me" within an hour stop approvals for 15 minutes', async () => {
    const f = await fixture();
    const three = [await started(f), await started(f), await started(f)];
    const sent = transport.delivered.length;
    expect(await service.start(await f.subject(), factorOf(f), { withNumber: false })).toEqual({
      kind: 'refused',
      reason: 'tooManyPending',
    });
    expect(transport.delivered).toHaveLength(sent);
    for (const approval of three.slice(0, 2)) {
      expect(
        (await service.answerFromDevice((await row(approval))!, { kind: 'notMe' }, { decidedBy: 'telegram:1', address: null })).kind,
      ).toBe('decided');
      t.clock.advance(10_000);
    }
    const refused = await service.start(await f.subject(), factorOf(f), { withNumber: false });
    expect(refused).toEqual({
      kind: 'refused',
      reason: 'cooldown',
      until: new Date(TEST_NOW.getTime() + 10_000 + APPROVAL_COOLDOWN_MINUTES * 60_000),
    });
    t.clock.advance(APPROVAL_COOLDOWN_MINUTES * 60_000 - 10_000);
    expect((await service.start(await f.subject(), factorOf(f), { withNumber: false })).kind).toBe('waiting');
  });

  it('a message that cannot be delivered makes the approval Undeliverable at once, and is counted', async () => {
    const f = await fixture();
    const before = series(await scrape(), 'twofold_approval_delivery_failures_total{factor="telegram",reason="refused"}');
    transport.answer = { delivered: false, failure: 'refused' };
    expect(await service.start(await f.subject(), factorOf(f), { withNumber: false })).toEqual({
      kind: 'undeliverable',
      failure: 'refused',
    });
    const [stored] = await t.database.dataSource.query(`SELECT status FROM approvals WHERE user_id = $1`, [f.userId]);
    expect(stored).toEqual({ status: 'Undeliverable' });
    expect(series(await scrape(), 'twofold_approval_delivery_failures_total{factor="telegram",reason="refused"}')).toBe(before + 1);
  });

  it('a factor without a device to reach is undeliverable (the mobile app needs no configuration: its transport is always there)', async () => {
    const f = await approvalFixture(t.db, t.cipher, { now: TEST_NOW, kind: 'MobileApp' });
    const result = await service.start(
      await f.subject(),
      { id: f.authenticatorId, kind: 'MobileApp', createdAt: TEST_NOW },
      { withNumber: false },
    );
    expect(result).toEqual({ kind: 'undeliverable', failure: 'notBound' });
    expect(service.reachableKinds().has('MobileApp')).toBe(true);
  });

  it('no answer by the bound (on the clock): Expired, shown on the device; a later answer changes nothing', async () => {
    const f = await fixture();
    const approval = await started(f);
    const waiting = service.awaitDecision(approval);
    t.clock.advance(service.waitSeconds * 1000);
    await waiter.tick();
    expect(await waiting).toMatchObject({ outcome: 'expired', approval: { status: 'Expired' } });
    expect(transport.shown).toContain(`${approval.id}:Expired`);
    expect(await service.answerFromDevice((await row(approval))!, { kind: 'approve' }, { decidedBy: 'telegram:1', address: null })).toEqual(
      {
        kind: 'ignored',
      },
    );
  });

  it('an approval given in the last instant, not yet heard, wins over the expiry', async () => {
    const f = await fixture();
    const approval = await started(f);
    const waiting = service.awaitDecision(approval);
    // decided without an announcement, as through a pooler that drops it
    await t.database.dataSource.query(`UPDATE approvals SET status = 'Approved', decided_at = $2 WHERE id = $1`, [approval.id, TEST_NOW]);
    t.clock.advance(service.waitSeconds * 1000);
    waiter.expireDue();
    expect(await waiting).toMatchObject({ outcome: 'approved', approval: { status: 'Approved' } });
  });

  it('a client that hangs up cancels its approval: a later approval grants nothing', async () => {
    const f = await fixture();
    const approval = await started(f);
    const hangUp = new AbortController();
    const waiting = service.awaitDecision(approval, { signal: hangUp.signal });
    hangUp.abort();
    expect(await waiting).toMatchObject({ outcome: 'cancelled', reason: 'clientGone', approval: { status: 'Cancelled' } });
    expect(await service.answerFromDevice((await row(approval))!, { kind: 'approve' }, { decidedBy: 'telegram:1', address: null })).toEqual(
      {
        kind: 'ignored',
      },
    );
    expect((await row(approval))?.status).toBe('Cancelled');
  });

  it("a caller's own earlier bound (the page asking again) leaves the approval pending", async () => {
    const f = await fixture();
    const approval = await started(f, 'page');
    const waiting = service.awaitDecision(approval, { bound: new Date(TEST_NOW.getTime() + 20_000) });
    t.clock.advance(20_000);
    waiter.expireDue();
    expect(await waiting).toEqual({ outcome: 'pending', reason: null, approval: null });
    expect((await row(approval))?.status).toBe('Pending');
  });
});

describe('ApprovalsService on shutdown', () => {
  it('answers every held wait "restarting" and records each approval Cancelled before the application closes', async () => {
    const t = await startTestApp();
    try {
      const service = t.app.get(ApprovalsService);
      t.app.get(ApprovalTransports).register(new RecordingTransport('Telegram'));
      const f = await approvalFixture(t.db, t.cipher, { now: TEST_NOW });
      const factor: ApprovalFactor = { id: f.authenticatorId, kind: 'Telegram', createdAt: TEST_NOW };
      const held: Promise<ApprovalDecision>[] = [];
      for (let i = 0; i < 3; i++) {
        const started = await service.start(await f.subject(), factor, { withNumber: false });
        if (started.kind !== 'waiting') throw new Error('not waiting');
        held.push(service.awaitDecision(started.approval));
      }
      await t.app.close();
      const decisions = await Promise.all(held);
      for (const decision of decisions) expect(decision).toMatchObject({ outcome: 'cancelled', reason: 'restarting' });
      const rows = await t.database.dataSource.query(`SELECT status FROM approvals WHERE user_id = $1`, [f.userId]);
      expect(rows).toEqual([{ status: 'Cancelled' }, { status: 'Cancelled' }, { status: 'Cancelled' }]);
    } finally {
      await t.database.drop();
    }
  });
});

describe('ApprovalsService with the database frozen during a wait', () => {
  let t: TestApp;
  let proxy: FreezableProxy;

  beforeAll(async () => {
    const server = new URL(process.env['TEST_DATABASE_URL'] as string);
    proxy = await startFreezableProxy({ host: server.hostname, port: Number(server.port || 5432) });
    t = await startTestApp(
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
  });
  afterAll(async () => {
    proxy.thaw();
    await t.close();
    await proxy.close();
  });

  it('still ends the wait at its bound, answered expired without the database', async () => {
    const service = t.app.get(ApprovalsService);
    t.app.get(ApprovalTransports).register(new RecordingTransport('Telegram'));
    const f = await approvalFixture(t.db, t.cipher, { now: TEST_NOW });
    const started = await service.start(
      await f.subject(),
      { id: f.authenticatorId, kind: 'Telegram', createdAt: TEST_NOW },
      { withNumber: false },
    );
    if (started.kind !== 'waiting') throw new Error('not waiting');
    const waiting = service.awaitDecision(started.approval);
    proxy.freeze();
    t.clock.advance(service.waitSeconds * 1000);
    t.app.get(ApprovalWaiter).expireDue();
    expect(await waiting).toEqual({ outcome: 'expired', reason: null, approval: null });
  });
});
