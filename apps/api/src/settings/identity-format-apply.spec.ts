import { AccountId } from '@twofold/domain';
import { generateHotp, generateTotp } from '@twofold/otp';
import { USER_ID_TABLES } from '@twofold/persistence';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { Client } from 'pg';
import { journalOfToday } from '../../test/testing/journal-of-today';
import { countQueries } from '../../test/testing/query-counter';
import { startTestApp, TestApp } from '../../test/testing/test-app';

const totpKey = Buffer.from('3132333435363738393031323334353637383930', 'hex');
const hotpKey = Buffer.from('0102030405060708090a0b0c0d0e0f1011121314', 'hex');
const bobKey = Buffer.from('a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4', 'hex');

/**
 * `POST /settings/identity-format/apply` renames the account's users to its format and
 * merges the ones that collide into the oldest, in one transaction, keeping replay state, HOTP
 * counters and code lockouts.
 */
describe('POST /settings/identity-format/apply', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => t.db.manager().query(text, params);
  const minutesAfter = (minutes: number) => new Date(t.clock.now().getTime() + minutes * 60_000);
  const apply = (authorization: string) => t.as(authorization).post('/settings/identity-format/apply');
  const setFormat = (authorization: string, format: string) =>
    t.as(authorization).put('/settings/identity-format').send({ format }).expect(200);
  const usersOf = async (authorization: string) =>
    (await t.as(authorization).get('/users?withPhones=true')).body.model as {
      id: string;
      identity: string;
      name: string | null;
      email: string | null;
      isLocked: boolean;
      groups: string[];
      phones: string[];
      customFields: { name: string; value: string }[];
      authenticators: string[];
    }[];

  async function newAccountWithResource() {
    const created = await t.newAccount();
    const resource = await t.newResource(created.account.id, 'VPN');
    return {
      accountId: created.account.id,
      authorization: created.authorization,
      resource: resource.authorization,
      resourceId: resource.resource.id,
    };
  }

  it('under AsIs renames and merges nothing, and is journaled with zero counts', async () => {
    const { accountId, authorization } = await newAccountWithResource();
    await newUser(t.db, accountId, 'CORP\\Jane', { now: minutesAfter(-2) });
    await newUser(t.db, accountId, 'jane', { now: minutesAfter(-1) });
    const res = await apply(authorization);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ model: { renamed: [], merged: [] }, success: true, message: null });
    expect((await usersOf(authorization)).map((u) => u.identity).sort()).toEqual(['CORP\\Jane', 'jane']);
    const events = await journalOfToday(t, authorization, 'object=Accounts&action=RenameAndRemoveDuplicates');
    expect(events.map((e) => [e.success, e.additionalFields])).toEqual([[true, { IdentityFormat: 'AsIs', Renamed: '0', Merged: '0' }]]);
  });

  describe('under Login', () => {
    let account: Awaited<ReturnType<typeof newAccountWithResource>>;
    let other: Awaited<ReturnType<typeof newAccountWithResource>>;
    const ids: Record<string, string> = {};
    let spentStep = 0;
    let enrollmentUser = '';
    let model: unknown;

    beforeAll(async () => {
      account = await newAccountWithResource();
      other = await newAccountWithResource();
      const auth = account.authorization;
      const { accountId } = account;
      for (const group of ['G1', 'G2', 'G3']) await t.as(auth).post('/groups').send({ name: group }).expect(201);
      // three spellings of jane, the oldest first; two of bob; carol already a login
      const people: [string, number][] = [
        ['CORP\\Jane', -50],
        ['jane', -40],
        ['jane@corp.example', -30],
        ['CORP\\Bob', -20],
        ['BOB@corp.example', -10],
        ['carol', -5],
      ];
      for (const [identity, minutes] of people)
        ids[identity] = (await newUser(t.db, accountId, identity, { now: minutesAfter(minutes) })).id;
      const put = (identity: string, body: object) => t.as(auth).put(`/users/${ids[identity]}`).send(body).expect(200);
      await put('CORP\\Jane', { email: 'old@corp.example', groups: { add: ['G1'] } });
      await put('jane', { name: 'Jane Doe', email: 'young@corp.example', groups: { add: ['G2'] } });
      await put('jane@corp.example', { name: 'J.', groups: { add: ['G2', 'G3'] } });
      const phones = (identity: string, numbers: string) =>
        t.as(auth).post(`/v3/users/${ids[identity]}/phones`).send({ phoneNumbers: numbers }).expect(200);
      await phones('CORP\\Jane', '+79990000001');
      await phones('jane', '+79990000002');
      await phones('jane@corp.example', '+79990000001');
      const fields = (identity: string, list: [string, string][]) =>
        t
          .as(auth)
          .put(`/v2/users/${ids[identity]}/customfields`)
          .send({ fields: list.map(([name, value]) => ({ name, value })) })
          .expect(200);
      await fields('CORP\\Jane', [['Floor', '1']]);
      await fields('jane', [
        ['Floor', '2'],
        ['Desk', '5'],
      ]);
      await fields('jane@corp.example', [
        ['desk', '9'],
        ['Room', '7'],
      ]);
      // one TOTP token registered twice (for CORP\Jane and for jane); jane spends a step with it
      await newOtpAuthenticator(t.db, t.cipher, accountId, ids['CORP\\Jane'], {
        kind: 'TotpToken',
        key: totpKey,
        name: 'Token A',
        now: minutesAfter(-50),
      });
      await newOtpAuthenticator(t.db, t.cipher, accountId, ids['jane'], {
        kind: 'TotpToken',
        key: totpKey,
        name: 'Token B',
        now: minutesAfter(-40),
      });
      const granted = await t
        .as(account.resource)
        .post('/access/requests/ra')
        .send({ identity: 'jane', passCode: generateTotp({ secret: totpKey, time: t.clock.now().getTime() }) });
      expect(granted.body.model.status).toBe('Granted');
      spentStep = Math.floor(t.clock.now().getTime() / 30_000);
      // an HOTP token of jane@corp.example, used up to counter 2
      await newOtpAuthenticator(t.db, t.cipher, accountId, ids['jane@corp.example'], {
        kind: 'HotpToken',
        key: hotpKey,
        name: 'Hotp',
        now: minutesAfter(-30),
      });
      const hotp = await t
        .as(account.resource)
        .post('/access/requests/ra')
        .send({ identity: 'jane@corp.example', passCode: generateHotp({ secret: hotpKey, counter: 2 }) });
      expect(hotp.body.model.status).toBe('Granted');
      // bob's shared HOTP token, at different counters; the younger bob is locked
      for (const [identity, counter] of [
        ['CORP\\Bob', '1'],
        ['BOB@corp.example', '4'],
      ]) {
        const row = await newOtpAuthenticator(t.db, t.cipher, accountId, ids[identity], {
          kind: 'HotpToken',
          key: bobKey,
          now: t.clock.now(),
        });
        await sql('UPDATE authenticators SET hotp_counter = $2 WHERE id = $1', [row.id, counter]);
      }
      await put('BOB@corp.example', { isLocked: true });
      // wrong-code streaks: of one scope, the larger count and the later lock are kept
      // lockouts that ended (one in force would refuse the codes below)
      const [earlier, later] = [minutesAfter(-10).toISOString(), minutesAfter(-5).toISOString()];
      const streak = (identity: string, scope: string, key: string, failures: number, lockedUntil: string | null) =>
        sql(
          `INSERT INTO wrong_code_streaks (account_id, user_id, scope, scope_key, failures, last_failure_at, locked_until) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [accountId, ids[identity], scope, key, failures, t.clock.now(), lockedUntil],
        );
      await streak('CORP\\Jane', 'address', '192.0.2.0/24', 2, null);
      await streak('jane', 'address', '192.0.2.0/24', 4, null);
      await streak('CORP\\Jane', 'resource', account.resourceId, 3, earlier);
      await streak('jane@corp.example', 'resource', account.resourceId, 1, later);
      // a page request for jane@corp.example not visited yet; an enrollment link of jane
      await t.as(account.resource).post('/access/requests').send({ identity: 'jane@corp.example' }).expect(200);
      enrollmentUser = ids['jane'];
      await t.as(auth).post(`/users/${enrollmentUser}/enroll`).send({ ttl: 60 }).expect(200);
      // a Telegram binding link of jane@corp.example, and a pending approval of jane's for a request of hers
      await sql(
        `INSERT INTO telegram_binding_links (account_id, user_id, payload_hash, created_at, expires_at) VALUES ($1, $2, '\\x01', $3, $4)`,
        [account.accountId, ids['jane@corp.example'], t.clock.now(), minutesAfter(10)],
      );
      const [approvalRequest] = await sql<{ id: string }>(
        `INSERT INTO access_requests (account_id, resource_id, user_id, identity, language, channel, status, created_at)
         VALUES ($1, $2, $3, 'jane', 'en', 'ra', 'AwaitingAuthentication', $4) RETURNING id`,
        // created a second after now: the history assertions below read the requests made until now
        [account.accountId, account.resourceId, ids['jane'], new Date(t.clock.now().getTime() + 1000)],
      );
      await sql(
        `INSERT INTO approvals (account_id, access_request_id, user_id, resource_id, factor, channel, created_at, expires_at)
         VALUES ($1, $2, $3, $4, 'Telegram', 'ra', $5, $6)`,
        [account.accountId, approvalRequest.id, ids['jane'], account.resourceId, t.clock.now(), minutesAfter(1)],
      );
      // the other account has the same spellings, and the same format, and is not applied
      await newUser(t.db, other.accountId, 'CORP\\Jane', { now: minutesAfter(-50) });
      await newUser(t.db, other.accountId, 'jane', { now: minutesAfter(-40) });
      await setFormat(other.authorization, 'Login');

      await setFormat(auth, 'Login');
      const res = await apply(auth);
      expect(res.status).toBe(200);
      model = res.body.model;
    });

    it('answers what it renamed and merged, identities before and after', () => {
      expect(model).toEqual({
        renamed: [
          { from: 'CORP\\Jane', to: 'jane' },
          { from: 'CORP\\Bob', to: 'bob' },
        ],
        merged: [
          { into: 'jane', from: ['jane', 'jane@corp.example'] },
          { into: 'bob', from: ['BOB@corp.example'] },
        ],
      });
    });

    it('journals Accounts RenameAndRemoveDuplicates with the counts', async () => {
      const events = await journalOfToday(t, account.authorization, 'object=Accounts&action=RenameAndRemoveDuplicates');
      expect(events.map((e) => [e.object, e.action, e.success, e.additionalFields])).toEqual([
        ['Accounts', 'RenameAndRemoveDuplicates', true, { IdentityFormat: 'Login', Renamed: '2', Merged: '3' }],
      ]);
    });

    it('moves wrong-code streaks (larger count, later lock), access requests, pending requests and enrollment links', async () => {
      const streaks = await sql(
        `SELECT user_id, scope, failures, locked_until FROM wrong_code_streaks WHERE account_id = $1 ORDER BY scope`,
        [account.accountId],
      );
      expect(streaks).toEqual([
        { user_id: ids['CORP\\Jane'], scope: 'address', failures: 4, locked_until: null },
        { user_id: ids['CORP\\Jane'], scope: 'resource', failures: 3, locked_until: minutesAfter(-5) },
      ]);
      const requests = await sql<{ identity: string; user_id: string | null; status: string }>(
        `SELECT identity, user_id, status FROM access_requests WHERE account_id = $1 AND created_at <= $2 ORDER BY created_at, id`,
        [account.accountId, t.clock.now()],
      );
      expect(requests.filter((r) => r.status !== 'AwaitingAuthentication').map((r) => [r.identity, r.user_id])).toEqual([
        ['jane', ids['CORP\\Jane']],
        ['jane', ids['CORP\\Jane']],
      ]);
      // the page of the request created as jane@corp.example finds jane
      expect(requests.filter((r) => r.status === 'AwaitingAuthentication').map((r) => r.identity)).toEqual(['jane']);
      const tokens = await sql(`SELECT user_id FROM enrollment_tokens WHERE account_id = $1`, [account.accountId]);
      expect(tokens).toEqual([{ user_id: ids['CORP\\Jane'] }]);
      expect(await sql(`SELECT user_id FROM telegram_binding_links WHERE account_id = $1`, [account.accountId])).toEqual([
        { user_id: ids['CORP\\Jane'] },
      ]);
      expect(await sql(`SELECT user_id FROM approvals WHERE account_id = $1`, [account.accountId])).toEqual([
        { user_id: ids['CORP\\Jane'] },
      ]);
    });

    it('keeps the oldest user (its id) with the union of groups, phones, custom fields; the oldest wins a field; locked if any was', async () => {
      const users = await usersOf(account.authorization);
      expect(users.map((u) => [u.id, u.identity])).toEqual([
        [ids['CORP\\Jane'], 'jane'],
        [ids['CORP\\Bob'], 'bob'],
        [ids['carol'], 'carol'],
      ]);
      const [jane, bob, carol] = users;
      expect(jane).toMatchObject({ name: 'Jane Doe', email: 'old@corp.example', isLocked: false });
      expect(jane.groups).toEqual(['AllUsers', 'G1', 'G2', 'G3']);
      expect(jane.phones).toEqual(['+79990000001', '+79990000002']);
      expect(jane.customFields).toEqual([
        { name: 'Desk', value: '5' },
        { name: 'Floor', value: '1' },
        { name: 'Room', value: '7' },
      ]);
      expect(bob.isLocked).toBe(true);
      expect(carol.isLocked).toBe(false);
      expect((await t.as(account).get('/users/count')).body.model.total).toBe(3);
    });

    it('one token registered twice is one authenticator, with the later replay state; the others moved', async () => {
      const rows = await sql<{ user_id: string; kind: string; name: string; hotp_counter: string | null; last_time_step: string | null }>(
        `SELECT user_id, kind, name, hotp_counter, last_time_step FROM authenticators WHERE account_id = $1 ORDER BY created_at, name`,
        [account.accountId],
      );
      expect(rows).toEqual([
        { user_id: ids['CORP\\Jane'], kind: 'TotpToken', name: 'Token A', hotp_counter: null, last_time_step: String(spentStep) },
        { user_id: ids['CORP\\Jane'], kind: 'HotpToken', name: 'Hotp', hotp_counter: '3', last_time_step: null },
        { user_id: ids['CORP\\Bob'], kind: 'HotpToken', name: 'Token', hotp_counter: '4', last_time_step: null },
      ]);
    });

    it('a TOTP step spent by a merged user is refused; the next one is granted', async () => {
      const ra = (passCode: string, identity = 'CORP\\Jane') =>
        t.as(account.resource).post('/access/requests/ra').send({ identity, passCode });
      const replay = await ra(generateTotp({ secret: totpKey, time: t.clock.now().getTime() }));
      expect(replay.body.model.status).toBe('Denied');
      t.clock.advance(30_000);
      try {
        expect((await ra(generateTotp({ secret: totpKey, time: t.clock.now().getTime() }), 'jane')).body.model.status).toBe('Granted');
      } finally {
        t.clock.set(new Date(t.clock.now().getTime() - 30_000));
      }
    });

    it('the HOTP counter survives the merge', async () => {
      const ra = (counter: number) =>
        t
          .as(account.resource)
          .post('/access/requests/ra')
          .send({ identity: 'jane@corp.example', passCode: generateHotp({ secret: hotpKey, counter }) });
      expect((await ra(2)).body.model.status).toBe('Denied');
      expect((await ra(3)).body.model.status).toBe('Granted');
    });

    it("leaves another account's users alone", async () => {
      expect((await usersOf(other.authorization)).map((u) => u.identity).sort()).toEqual(['CORP\\Jane', 'jane']);
    });

    it('a second apply renames and merges nothing', async () => {
      const again = await apply(account.authorization);
      expect(again.body.model).toEqual({ renamed: [], merged: [] });
      const events = await journalOfToday(t, account.authorization, 'object=Accounts&action=RenameAndRemoveDuplicates');
      expect(events.map((e) => e.additionalFields)).toEqual([
        { IdentityFormat: 'Login', Renamed: '2', Merged: '3' },
        { IdentityFormat: 'Login', Renamed: '0', Merged: '0' },
      ]);
    });
  });

  it("sends as many statements for 40 users as for 4: the apply's work per user is in set statements, not round trips", async () => {
    async function statementsOfApply(people: number): Promise<number> {
      const { accountId, authorization } = await newAccountWithResource();
      for (let i = 0; i < people; i += 1) {
        // each person three times: renamed, merged, and one secret registered twice (folded into one)
        const old = await newUser(t.db, accountId, `CORP\\Person${i}`, { now: minutesAfter(-3) });
        const young = await newUser(t.db, accountId, `person${i}@corp.example`, { now: minutesAfter(-2) });
        await newUser(t.db, accountId, `PERSON${i}`, { now: minutesAfter(-1) });
        for (const owner of [old, young]) {
          await newOtpAuthenticator(t.db, t.cipher, accountId, owner.id, { kind: 'HotpToken', key: hotpKey, now: t.clock.now() });
        }
      }
      await setFormat(authorization, 'Login');
      const statements = await countQueries(async () => {
        const res = await apply(authorization);
        expect(res.status).toBe(200);
        expect(res.body.model.merged).toHaveLength(people);
      });
      const left = await sql<{ users: number; authenticators: number }>(
        `SELECT (SELECT count(*)::int FROM users WHERE account_id = $1) AS users,
                (SELECT count(*)::int FROM authenticators WHERE account_id = $1) AS authenticators`,
        [accountId],
      );
      expect(left).toEqual([{ users: people, authenticators: people }]);
      return statements;
    }
    expect(await statementsOfApply(40)).toBe(await statementsOfApply(4));
  });

  describe('all or nothing', () => {
    async function twoJanes() {
      const created = await newAccountWithResource();
      const old = await newUser(t.db, created.accountId, 'CORP\\Jane', { now: minutesAfter(-2) });
      const young = await newUser(t.db, created.accountId, 'jane', { now: minutesAfter(-1) });
      await newUser(t.db, created.accountId, 'CORP\\Bob', { now: minutesAfter(-3) });
      await newOtpAuthenticator(t.db, t.cipher, created.accountId, young.id, { kind: 'HotpToken', key: hotpKey, now: t.clock.now() });
      await setFormat(created.authorization, 'Login');
      return { ...created, old, young };
    }
    const unchanged = async (accountId: AccountId, authorization: string) => {
      expect((await usersOf(authorization)).map((u) => u.identity).sort()).toEqual(['CORP\\Bob', 'CORP\\Jane', 'jane']);
      const owners = await sql(`SELECT u.identity FROM authenticators a JOIN users u ON u.id = a.user_id WHERE a.account_id = $1`, [
        accountId,
      ]);
      expect(owners).toEqual([{ identity: 'jane' }]);
    };

    it('a failure midway (the deletion of the merged user fails) leaves every user as it was', async () => {
      const { accountId, authorization, young } = await twoJanes();
      // a trigger that refuses to delete the merged user: the renames, moves and merges before it are undone
      await sql(`CREATE FUNCTION refuse_delete_${young.id.replace(/-/g, '')}() RETURNS trigger LANGUAGE plpgsql AS $$
                 BEGIN IF OLD.id = '${young.id}' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN OLD; END $$`);
      await sql(
        `CREATE TRIGGER refuse_delete_${young.id.replace(/-/g, '')} BEFORE DELETE ON users FOR EACH ROW EXECUTE FUNCTION refuse_delete_${young.id.replace(/-/g, '')}()`,
      );
      try {
        const res = await apply(authorization);
        expect(res.status).toBe(500);
        await unchanged(accountId, authorization);
        // an internal failure is logged, not journaled (its journal event would have rolled back with it)
        expect(await journalOfToday(t, authorization, 'object=Accounts&action=RenameAndRemoveDuplicates')).toEqual([]);
      } finally {
        await sql(`DROP TRIGGER refuse_delete_${young.id.replace(/-/g, '')} ON users`);
        await sql(`DROP FUNCTION refuse_delete_${young.id.replace(/-/g, '')}()`);
      }
      // once nothing stands in its way, the same apply goes through
      expect((await apply(authorization)).body.model).toEqual({
        renamed: [
          { from: 'CORP\\Bob', to: 'bob' },
          { from: 'CORP\\Jane', to: 'jane' },
        ],
        merged: [{ into: 'jane', from: ['jane'] }],
      });
    });

    it('a merge that would exceed the custom fields a user may have is refused with 400, nothing changed', async () => {
      const { accountId, authorization, old, young } = await twoJanes();
      const fields = (id: string, prefix: string) =>
        sql(`INSERT INTO custom_fields (account_id, user_id, name, value) SELECT $1, $2, $3 || n, 'v' FROM generate_series(1, 60) n`, [
          accountId,
          id,
          prefix,
        ]);
      await fields(old.id, 'Old');
      await fields(young.id, 'Young');
      const res = await apply(authorization);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        message:
          'The users merged into "jane" would have 120 custom fields; a user can have at most 100. Remove some first; nothing was changed.',
      });
      await unchanged(accountId, authorization);
      const events = await journalOfToday(t, authorization, 'object=Accounts&action=RenameAndRemoveDuplicates');
      expect(events.map((e) => e.success)).toEqual([false]);
    });

    it('waits for a code check holding a user row lock, and keeps the counter it wrote', async () => {
      const { accountId, authorization, old, young } = await twoJanes();
      // the same HOTP token for the oldest jane too, behind the younger's
      const shared = await newOtpAuthenticator(t.db, t.cipher, accountId, old.id, { kind: 'HotpToken', key: hotpKey, now: t.clock.now() });
      const login = new Client({ connectionString: t.database.url });
      await login.connect();
      try {
        // a code check in flight: the younger jane's row is locked, her counter moves to 7, not committed yet
        await login.query('BEGIN');
        await login.query('SELECT id FROM users WHERE account_id = $1 AND id = $2 FOR UPDATE', [accountId, young.id]);
        await login.query(`UPDATE authenticators SET hotp_counter = 7 WHERE account_id = $1 AND user_id = $2`, [accountId, young.id]);
        const applying = apply(authorization).then((res) => res);
        await waitUntilBlocked(login);
        await login.query('COMMIT');
        expect((await applying).status).toBe(200);
      } finally {
        await login.end();
      }
      const rows = await sql(`SELECT id, user_id, hotp_counter FROM authenticators WHERE account_id = $1`, [accountId]);
      expect(rows).toEqual([{ id: shared.id, user_id: old.id, hotp_counter: '7' }]);
    });
  });

  it('every table with a user_id column is one the merge handles (USER_ID_TABLES)', async () => {
    const tables = await sql<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'user_id' ORDER BY table_name`,
    );
    expect(tables.map((row) => row.table_name)).toEqual(Object.keys(USER_ID_TABLES).sort());
  });
});

/** Resolves once another session waits for a lock `holder` holds (the apply, behind the code check's row lock). */
async function waitUntilBlocked(holder: Client): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    const rows = await holder.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND $1 = ANY(pg_blocking_pids(pid))`,
      [(await holder.query('SELECT pg_backend_pid() AS pid')).rows[0].pid],
    );
    if (rows.rows[0].n > 0) return;
    if (Date.now() > until) throw new Error('the apply did not wait for the lock within 10 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
