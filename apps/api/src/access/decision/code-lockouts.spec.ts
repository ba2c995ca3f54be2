import { AccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../../../test/testing/test-app';

/**
 * Lockouts were a weapon. Ten wrong codes in 15 minutes locked the user out
 * everywhere (the right code refused on /ra and the page), anyone holding any resource key kept it
 * so with ~40 calls an hour, nothing was journaled, and retransmitted codes counted as wrong. Now
 * wrong codes lock the user's codes from one address network, or through one resource, with
 * exponential back-off; the guess budget per day is in libs/domain code-lockouts.spec.ts.
 */
describe('code lockouts per address and per resource', () => {
  let t: TestApp;
  let accountId: AccountId;
  let accountAuth: string;
  let vpn: Awaited<ReturnType<TestApp['newResource']>>;
  let portal: Awaited<ReturnType<TestApp['newResource']>>;
  const key = Buffer.from('3132333435363738393031323334353637383930', 'hex');

  beforeAll(async () => {
    // the page's visitor address comes from X-Forwarded-For, as behind a load balancer
    t = await startTestApp({ trustedProxies: ['127.0.0.1', '::1'] });
    const account = await t.newAccount();
    accountId = account.account.id;
    accountAuth = account.authorization;
    vpn = await t.newResource(accountId, 'VPN');
    portal = await t.newResource(accountId, 'Portal');
  });
  afterAll(() => t.close());

  async function totpUser(identity: string) {
    // every test's user starts a minute later: its codes are of a time step no other test spent
    t.clock.advance(60_000);
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key, now: t.clock.now() });
    return user;
  }
  const codeNow = () => generateTotp({ secret: key, time: t.clock.now().getTime() });
  const wrongCode = () => {
    const valid = [-30_000, 0, 30_000].map((offset) => generateTotp({ secret: key, time: t.clock.now().getTime() + offset }));
    return valid.includes('000000') || valid.includes('000001') ? '999999' : '000000';
  };
  const ra = (body: Record<string, unknown>, resource = vpn) =>
    t
      .as(resource)
      .post('/access/requests/ra')
      .send({ language: 'en', ...body });
  const reply = async (body: Record<string, unknown>, resource = vpn) => {
    const res = await ra(body, resource);
    expect(res.status).toBe(200);
    return res.body.model as { status: string; replyMessage: string; id: string | null };
  };
  const streaksOf = (userId: string) =>
    t.database.dataSource.query(
      'SELECT scope, scope_key, failures, locked_until FROM wrong_code_streaks WHERE user_id = $1 ORDER BY scope, scope_key',
      [userId],
    );
  const lockoutEvents = (identity: string) =>
    t.database.dataSource.query(
      `SELECT object, action, subject, success, additional_fields FROM journal_events
        WHERE account_id = $1 AND object = 'User' AND additional_fields->>'UserIdentity' = $2 ORDER BY event_date, id`,
      [accountId, identity],
    );
  const usersListed = async (identity: string) => {
    const res = await t.as(accountAuth).get(`/users?identity=${identity}`);
    expect(res.status).toBe(200);
    return res.body.model[0];
  };

  it('an attacker guessing from one address locks out that address, not the user signing in from another', async () => {
    await totpUser('amy');
    for (let n = 0; n < 5; n += 1)
      expect(await reply({ identity: 'amy', passCode: wrongCode(), ip: '198.51.100.10' })).toMatchObject({
        status: 'Denied',
        replyMessage: 'Access denied: wrong code.',
      });
    // the attacker keeps going: none of these is checked, the right code neither
    for (let n = 0; n < 5; n += 1)
      expect((await reply({ identity: 'amy', passCode: wrongCode(), ip: '198.51.100.10' })).replyMessage).toBe(
        'Access denied: too many wrong codes. Try again in 1 min.',
      );
    expect((await reply({ identity: 'amy', passCode: codeNow(), ip: '198.51.100.10' })).status).toBe('Denied');
    // the user, from home, through the same VPN
    expect(await reply({ identity: 'amy', passCode: codeNow(), callingStationId: '203.0.113.5' })).toMatchObject({
      status: 'Granted',
      replyMessage: 'Access granted.',
    });
  });

  it('locks the whole /64 of an IPv6 attacker, not the user’s other network', async () => {
    await totpUser('ivy');
    for (let n = 1; n <= 5; n += 1) await reply({ identity: 'ivy', passCode: wrongCode(), ip: `2001:db8:1:2::${n}` });
    expect((await reply({ identity: 'ivy', passCode: codeNow(), ip: '2001:db8:1:2::99' })).replyMessage).toMatch(/too many wrong codes/);
    expect((await reply({ identity: 'ivy', passCode: codeNow(), ip: '2001:db8:1:3::1' })).status).toBe('Granted');
  });

  it('an attacker holding one resource’s key and varying the address is capped by the resource: the user’s other resources are untouched', async () => {
    await totpUser('bob');
    const replies: string[] = [];
    for (let n = 0; n < 40; n += 1)
      replies.push((await reply({ identity: 'bob', passCode: wrongCode(), ip: `192.0.2.${n + 1}` })).replyMessage);
    expect(replies.filter((text) => text === 'Access denied: wrong code.')).toHaveLength(20);
    expect(replies.slice(20).every((text) => text === 'Access denied: too many wrong codes. Try again in 1 min.')).toBe(true);
    // through the VPN the user waits too (its resource is locked), through the portal they sign in
    expect((await reply({ identity: 'bob', passCode: codeNow(), ip: '203.0.113.9' })).status).toBe('Denied');
    expect((await reply({ identity: 'bob', passCode: codeNow(), ip: '203.0.113.9' }, portal)).status).toBe('Granted');
  });

  describe('an address a resource names counts within that resource only', () => {
    it('five wrong codes through one resource from an address do not lock another resource from the same address', async () => {
      await totpUser('uma');
      for (let n = 0; n < 5; n += 1) await reply({ identity: 'uma', passCode: wrongCode(), ip: '192.0.2.10' }, portal);
      expect((await reply({ identity: 'uma', passCode: codeNow(), ip: '192.0.2.10' }, portal)).replyMessage).toMatch(
        /too many wrong codes/i,
      );
      // the attack's repro: the VPN's own sign-in from that address, with the right code
      expect(await reply({ identity: 'uma', passCode: codeNow(), ip: '192.0.2.10' }, vpn)).toMatchObject({ status: 'Granted' });
    });

    it('without any address, a resource’s wrong codes lock nobody else: no shared "unknown" address any more', async () => {
      await totpUser('ugo');
      for (let n = 0; n < 5; n += 1) await reply({ identity: 'ugo', passCode: wrongCode() }, portal);
      // another resource that sends no address either
      expect(await reply({ identity: 'ugo', passCode: codeNow() }, vpn)).toMatchObject({ status: 'Granted' });
      // the guessing resource itself is capped by its own budget (20), not by an address of 5
      t.clock.advance(30_000);
      for (let n = 0; n < 14; n += 1)
        expect((await reply({ identity: 'ugo', passCode: wrongCode() }, portal)).replyMessage).toBe('Access denied: wrong code.');
      expect((await reply({ identity: 'ugo', passCode: wrongCode() }, portal)).replyMessage).toBe('Access denied: wrong code.');
      expect((await reply({ identity: 'ugo', passCode: codeNow() }, portal)).replyMessage).toMatch(/too many wrong codes/i);
    });

    it('an address named by a resource never locks the user’s own access page at that address', async () => {
      await totpUser('uli');
      for (let n = 0; n < 5; n += 1) await reply({ identity: 'uli', passCode: wrongCode(), ip: '198.51.100.77' }, portal);
      const created = await t
        .as(vpn)
        .post('/access/requests')
        .send({ identity: 'uli', language: 'en', callback: { action: 'https://app.example/cb', target: '_self' } });
      const path = new URL(created.body.model.url).pathname;
      const browser = t.browser();
      const page = await browser.get(path).set('X-Forwarded-For', '198.51.100.77');
      const formToken = /name="formToken"[^>]*value="([^"]+)"/.exec(page.text)?.[1] as string;
      const granted = await browser.post(path).set('X-Forwarded-For', '198.51.100.77').type('form').send({ code: codeNow(), formToken });
      expect(granted.text).toContain('<h1>Access granted</h1>');
    });
  });

  it('backs off exponentially: after each lockout one code is checked, and a wrong one doubles the wait', async () => {
    await totpUser('cal');
    const from = { identity: 'cal', ip: '198.51.100.20' };
    for (let n = 0; n < 5; n += 1) await reply({ ...from, passCode: wrongCode() });
    const waits: string[] = [];
    for (const minutes of [1, 2, 4]) {
      waits.push((await reply({ ...from, passCode: wrongCode() })).replyMessage);
      t.clock.advance(minutes * 60_000);
      expect((await reply({ ...from, passCode: wrongCode() })).replyMessage).toBe('Access denied: wrong code.');
    }
    waits.push((await reply({ ...from, passCode: wrongCode() })).replyMessage);
    expect(waits).toEqual([1, 2, 4, 8].map((minutes) => `Access denied: too many wrong codes. Try again in ${minutes} min.`));
    // the lockout ends; the right code grants and starts the address's count again
    t.clock.advance(8 * 60_000);
    expect((await reply({ ...from, passCode: codeNow() })).status).toBe('Granted');
    expect(await streaksOf((await usersListed('cal')).id)).toEqual([]);
    expect((await reply({ ...from, passCode: wrongCode() })).replyMessage).toBe('Access denied: wrong code.');
  });

  it('a replay of the code just accepted (a retransmission) is not a wrong code', async () => {
    const user = await totpUser('dan');
    const code = codeNow();
    expect((await reply({ identity: 'dan', passCode: code, ip: '198.51.100.30' })).status).toBe('Granted');
    for (let n = 0; n < 8; n += 1)
      expect(await reply({ identity: 'dan', passCode: code, ip: '198.51.100.30' })).toMatchObject({
        status: 'Denied',
        replyMessage: 'Access denied: this code has already been used. Wait for the next code.',
      });
    expect(await streaksOf(user.id)).toEqual([]);
    const [counted] = await t.database.dataSource.query(
      'SELECT count(*)::int AS requests, sum(failed_attempts)::int AS wrong FROM access_requests WHERE user_id = $1',
      [user.id],
    );
    expect(counted).toEqual({ requests: 9, wrong: 0 });
    t.clock.advance(30_000);
    expect((await reply({ identity: 'dan', passCode: codeNow(), ip: '198.51.100.30' })).status).toBe('Granted');
  });

  it('a replayed code on /ra/challenge keeps the request waiting without spending one of its five attempts', async () => {
    await totpUser('eli');
    const code = codeNow();
    expect((await reply({ identity: 'eli', passCode: code, ip: '198.51.100.40' })).status).toBe('Granted');
    const started = await reply({ identity: 'eli', ip: '198.51.100.40' });
    expect(started.status).toBe('AwaitingAuthentication');
    const challenge = (answer: string) =>
      t.as(vpn).post('/access/requests/ra/challenge').send({ identity: 'eli', challenge: answer, requestId: started.id });
    const again = await challenge(code);
    expect(again.body.model).toMatchObject({
      status: 'AwaitingAuthentication',
      replyMessage: 'This code has already been used. Wait for the next code and enter it.',
    });
    const [row] = await t.database.dataSource.query('SELECT failed_attempts, status FROM access_requests WHERE id = $1', [started.id]);
    expect(row).toEqual({ failed_attempts: 0, status: 'AwaitingAuthentication' });
    t.clock.advance(30_000);
    expect((await challenge(codeNow())).body.model.status).toBe('Granted');
  });

  it('/ra/challenge counts against the address its ra step recorded', async () => {
    await totpUser('fox');
    const started = await reply({ identity: 'fox', ip: '198.51.100.50' });
    for (let n = 0; n < 4; n += 1) await reply({ identity: 'fox', passCode: wrongCode(), ip: '198.51.100.50' });
    const fifth = await t
      .as(vpn)
      .post('/access/requests/ra/challenge')
      .send({ identity: 'fox', challenge: wrongCode(), requestId: started.id });
    expect(fifth.body.model.status).toBe('AwaitingAuthentication');
    const refused = await t
      .as(vpn)
      .post('/access/requests/ra/challenge')
      .send({ identity: 'fox', challenge: codeNow(), requestId: started.id });
    expect(refused.body.model).toMatchObject({
      status: 'Denied',
      replyMessage: 'Access denied: too many wrong codes. Try again in 1 min.',
    });
    expect((await reply({ identity: 'fox', passCode: codeNow(), ip: '203.0.113.50' })).status).toBe('Granted');
  });

  it('journals each lockout (User Update, success false, the reason and scope), shows it on the user, and an unlock clears it', async () => {
    const user = await totpUser('gil');
    for (let n = 0; n < 5; n += 1) await reply({ identity: 'gil', passCode: wrongCode(), ip: '198.51.100.60' });
    const lockedUntil = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const events = await lockoutEvents('gil');
    expect(events).toEqual([
      {
        object: 'User',
        action: 'Update',
        subject: 'gil',
        success: false,
        additional_fields: {
          UserId: user.id,
          UserIdentity: 'gil',
          Reason: 'Too many wrong codes',
          LockoutScope: 'address',
          UserIp: '198.51.100.60',
          // the address was named by this resource, and locks its sign-ins alone
          ResourceId: vpn.resource.id,
          ResourceName: 'VPN',
          WrongCodes: '5',
          LockedUntil: lockedUntil,
          Channel: 'ra',
        },
      },
    ]);

    const listed = await usersListed('gil');
    expect(listed.isLocked).toBe(false);
    expect(listed.codeLockouts).toEqual([
      { scope: 'address', address: '198.51.100.60', resource: { id: vpn.resource.id, name: 'VPN' }, wrongCodes: 5, lockedUntil },
    ]);

    const unlocked = await t.as(accountAuth).post(`/v2/users/${user.id}/unlock`);
    expect(unlocked.body).toEqual({ model: null, success: true, message: 'User unlocked.' });
    expect((await usersListed('gil')).codeLockouts).toEqual([]);
    expect(await streaksOf(user.id)).toEqual([]);
    const unlocks = await t.database.dataSource.query(
      `SELECT object, action, success, additional_fields FROM journal_events WHERE account_id = $1 AND additional_fields->>'UserId' = $2
          AND additional_fields ? 'CodeLockoutsCleared'`,
      [accountId, user.id],
    );
    expect(unlocks).toEqual([
      {
        object: 'User',
        action: 'Update',
        success: true,
        additional_fields: expect.objectContaining({ UserLocked: 'false', CodeLockoutsCleared: '1' }),
      },
    ]);
    expect((await reply({ identity: 'gil', passCode: codeNow(), ip: '198.51.100.60' })).status).toBe('Granted');
  });

  it('shows a resource lockout with the resource’s name, and forgets a lockout once it has ended', async () => {
    await totpUser('hal');
    for (let n = 0; n < 20; n += 1) await reply({ identity: 'hal', passCode: wrongCode(), ip: `192.0.2.${100 + n}` });
    const lockouts = (await usersListed('hal')).codeLockouts;
    expect(lockouts).toContainEqual({
      scope: 'resource',
      address: null,
      resource: { id: vpn.resource.id, name: 'VPN' },
      wrongCodes: 20,
      lockedUntil: new Date(t.clock.now().getTime() + 60_000).toISOString(),
    });
    const events = await lockoutEvents('hal');
    expect(events.map((event: { additional_fields: Record<string, string> }) => event.additional_fields.LockoutScope)).toEqual([
      'resource',
    ]);
    expect(events[0].additional_fields).toMatchObject({ ResourceId: vpn.resource.id, ResourceName: 'VPN', WrongCodes: '20' });
    t.clock.advance(60_000);
    expect((await usersListed('hal')).codeLockouts).toEqual([]);
  });

  it('never writes a code into the journal or the user list', async () => {
    await totpUser('kim');
    const tried: string[] = [];
    for (let n = 0; n < 6; n += 1) {
      const code = wrongCode();
      tried.push(code);
      await reply({ identity: 'kim', passCode: code, ip: '198.51.100.70' });
    }
    const written = JSON.stringify([await lockoutEvents('kim'), await usersListed('kim')]);
    for (const code of new Set(tried)) expect(written).not.toContain(code);
  });

  describe('on the access page', () => {
    const pageRequest = async (identity: string, resource = vpn) => {
      const created = await t.as(resource).post('/access/requests').send({ identity, language: 'en' });
      return new URL(created.body.model.url).pathname;
    };
    /** A browser at `address` (behind the trusted proxy) submits `code` on a fresh page of the request. */
    const submit = async (path: string, address: string, code: string) => {
      const browser = t.browser();
      const page = await browser.get(path).set('X-Forwarded-For', address);
      const formToken = /name="formToken" value="([^"]+)"/.exec(page.text)?.[1] as string;
      return browser.post(path).set('X-Forwarded-For', address).type('form').send({ code, formToken });
    };

    it('locks out the visitor’s address across requests, keeps the request waiting, and lets the user in from elsewhere', async () => {
      await totpUser('joy');
      for (let n = 0; n < 5; n += 1) {
        const wrong = await submit(await pageRequest('joy'), '198.51.100.80', wrongCode());
        expect(wrong.text).toContain('That code is not right.');
      }
      const path = await pageRequest('joy');
      const locked = await submit(path, '198.51.100.80', codeNow());
      expect(locked.status).toBe(200);
      expect(locked.text).toContain('Too many wrong codes. Try again in 1 minute, or ask your administrator to unlock your sign-in.');
      const id = path.split('/').at(-1);
      const [row] = await t.database.dataSource.query('SELECT status, failed_attempts FROM access_requests WHERE id = $1', [id]);
      expect(row).toEqual({ status: 'AwaitingAuthentication', failed_attempts: 0 });
      const elsewhere = await submit(path, '203.0.113.80', codeNow());
      expect(elsewhere.text).toContain('<h1>Access granted</h1>');
    });

    it('a replayed code on the page says it was used and spends no attempt', async () => {
      await totpUser('lee');
      const code = codeNow();
      expect((await submit(await pageRequest('lee'), '198.51.100.90', code)).text).toContain('<h1>Access granted</h1>');
      const path = await pageRequest('lee');
      const again = await submit(path, '198.51.100.90', code);
      expect(again.text).toContain('That code has already been used. Wait for the next code and enter it.');
      const [row] = await t.database.dataSource.query('SELECT failed_attempts FROM access_requests WHERE id = $1', [
        path.split('/').at(-1),
      ]);
      expect(row.failed_attempts).toBe(0);
    });
  });
});
