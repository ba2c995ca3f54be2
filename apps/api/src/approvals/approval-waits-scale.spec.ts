import { ApprovalsRepository, APPROVAL_DECIDED_CHANNEL } from '@twofold/persistence';
import { Client } from 'pg';
import { startTestApp, TestApp, TEST_NOW } from '../../test/testing/test-app';
import { ApprovalsService, OpenedApproval } from './approvals.service';
import { approvalFixture } from './approvals.testing';

const WAITS = 300;

/** What a wait costs the database: nothing while it waits (DESIGN "waiting is free"). */
describe('300 concurrent approval waits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('hold no connection of the pool and no other connection than the one listener; one decision statement ends them all', async () => {
    const service = t.app.get(ApprovalsService);
    const approvals = t.app.get(ApprovalsRepository);
    const f = await approvalFixture(t.db, t.cipher, { now: TEST_NOW });
    const opened: OpenedApproval[] = [];
    for (let i = 0; i < WAITS; i++) {
      // recorded directly: push fatigue would (rightly) refuse a fourth pending approval of one user
      const subject = await f.subject();
      const approval = await approvals.insert(f.accountId, {
        accessRequestId: subject.accessRequestId,
        userId: f.userId,
        resourceId: f.resourceId,
        authenticatorId: f.authenticatorId,
        factor: 'Telegram',
        channel: 'ra',
        address: null,
        number: null,
        choices: null,
        createdAt: TEST_NOW,
        expiresAt: new Date(TEST_NOW.getTime() + 55_000),
      });
      opened.push({ ...approval, authenticatorId: f.authenticatorId });
    }
    // the once-a-second read of every wait's decision (one statement for all, on a pool connection for
    // its duration: approval-waiter.spec) is held back while the database is looked at: it is no wait
    // holding a connection, and one landing in the look would make this test fail by chance
    let releasePolls: () => void = () => undefined;
    const pollsHeld = new Promise<void>((resolve) => (releasePolls = resolve));
    const poll = approvals.decidedAmong.bind(approvals);
    jest.spyOn(approvals, 'decidedAmong').mockImplementation(async (keys) => {
      await pollsHeld;
      return poll(keys);
    });
    const decisions = opened.map((approval) => service.awaitDecision(approval));

    const observer = new Client({ connectionString: t.database.url, application_name: 'twofold-test-observer' });
    await observer.connect();
    try {
      const connections = await observer.query<{ application_name: string; state: string; query: string }>(
        `SELECT application_name, state, query FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [t.database.name],
      );
      // the pool's connections are idle (none lent to a wait), and the only other one is the listener
      const busy = connections.rows.filter((row) => row.state !== 'idle');
      expect(busy).toEqual([]);
      const listeners = connections.rows.filter((row) => row.application_name === 'twofold-approvals-listener');
      expect(listeners).toHaveLength(1);
      expect(listeners[0].query).toBe(`LISTEN ${APPROVAL_DECIDED_CHANNEL}`);
      // the rest: the pool's own (idle, above) and the credentials listener the API had before approvals
      const others = new Set(connections.rows.map((row) => row.application_name));
      others.delete('twofold-approvals-listener');
      expect([...others].sort()).toEqual(['twofold-credentials-listener', 'twofold-test']);
      const pool = (t.database.dataSource.driver as unknown as { master: { totalCount: number; idleCount: number } }).master;
      expect(pool.totalCount - pool.idleCount).toBe(0);
      const metrics = await t.http().get('/metrics');
      expect(metrics.text).toMatch(/^twofold_approvals_pending 300$/m);

      releasePolls();
      // another instance decides all of them in one statement, announcing each
      await observer.query(
        `WITH decided AS (
           UPDATE approvals SET status = 'Approved', decided_at = $2, decided_by = 'telegram:1'
            WHERE account_id = $1 AND status = 'Pending' RETURNING id)
         SELECT pg_notify($3, id::text) FROM decided`,
        [f.accountId, TEST_NOW, APPROVAL_DECIDED_CHANNEL],
      );
      const outcomes = await Promise.all(decisions);
      expect(outcomes.filter((decision) => decision.outcome === 'approved')).toHaveLength(WAITS);
    } finally {
      releasePolls();
      await observer.end();
    }
  });
});
