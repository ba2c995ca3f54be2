import { AccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { Client } from 'pg';
import { startTestApp, TestApp } from '../../../test/testing/test-app';

/**
 * The access page shown reads its user without the row lock: a visit checks nothing, so it neither
 * waits for a sign-in of the same user in progress nor takes a lock of its own outside a transaction
 * (which would give the read a transaction id and a commit to flush). A code submitted still reads its
 * user under the lock, in its transaction.
 */
describe('access page: the user read for a visit', () => {
  let t: TestApp;
  let accountId: AccountId;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  let browser: ReturnType<TestApp['browser']>;
  let holder: Client;
  let observer: Client;
  const totpKey = Buffer.from('3132333435363738393031323334353637383930', 'hex');

  beforeAll(async () => {
    t = await startTestApp();
    accountId = (await t.newAccount()).account.id;
    resource = await t.newResource(accountId, 'Intranet');
    browser = t.browser();
    holder = new Client({ connectionString: t.database.url });
    observer = new Client({ connectionString: t.database.url });
    await Promise.all([holder.connect(), observer.connect()]);
  });
  afterAll(async () => {
    await Promise.all([holder.end(), observer.end()]);
    await t.close();
  });

  /** Whichever comes first: the call answered, or a backend of the database waiting for a row lock. */
  async function answeredOrWaiting<T>(call: Promise<T>): Promise<{ answered: T } | 'waitedForALock'> {
    let answer: { answered: T } | null = null;
    void call.then((answered) => (answer = { answered }));
    for (;;) {
      if (answer) return answer;
      const { rows } = await observer.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (rows[0].n > 0) return 'waitedForALock';
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  it("is shown again while another transaction holds the user's row lock; a code submitted then waits for it", async () => {
    const user = await newUser(t.db, accountId, 'visited', { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: totpKey, now: t.clock.now() });
    const created = await t.as(resource).post('/access/requests').send({ identity: 'visited', language: 'en' });
    const path = new URL(created.body.model.url).pathname;
    // the first visit binds the request to its user (the foreign key's check would wait for a lock on the user)
    expect((await browser.get(path)).status).toBe(200);

    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [user.id]);
    try {
      const visit = await answeredOrWaiting(browser.get(path).then((res) => res));
      expect(visit).not.toBe('waitedForALock');
      const page = visit === 'waitedForALock' ? null : visit.answered;
      expect(page?.status).toBe(200);
      const formToken = /<input type="hidden" name="formToken" value="([^"]+)">/.exec(page?.text ?? '')?.[1] ?? '';
      expect(formToken).not.toBe('');

      const code = generateTotp({ secret: totpKey, time: t.clock.now().getTime() });
      const submitted = browser
        .post(path)
        .type('form')
        .send({ formToken, code })
        .then((res) => res);
      expect(await answeredOrWaiting(submitted)).toBe('waitedForALock');
      await holder.query('COMMIT');
      expect((await submitted).status).toBe(200);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
    }
    const [row] = await t.database.dataSource.query('SELECT status FROM access_requests WHERE id = $1', [created.body.model.id]);
    expect(row.status).toBe('Granted');
  });
});
