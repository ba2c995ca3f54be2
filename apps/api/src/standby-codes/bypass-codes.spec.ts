import { generateTotp } from '@twofold/otp';
import { newUser } from '@twofold/persistence/testing';
import { StandbyCodesFixture } from '../../test/testing/standby-codes-fixture';

describe('helpdesk bypass codes: POST /users/{id}/bypass-codes, accepted wherever a code is', () => {
  const f = StandbyCodesFixture.use('VPN');
  const { userWithToken, ra, journalOf } = f;
  const bypassCodes = f.bypassCodesCall;

  it('hands out codes shown once (XXXX-XXXX-XXXX), stores only salted hashes, and journals the limits, never a code', async () => {
    const userId = await userWithToken('ann');
    const res = await bypassCodes(userId, { count: 3, uses: 2, ttlMinutes: 30 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Bypass codes created.' });
    expect(res.body.model.codes).toHaveLength(3);
    for (const code of res.body.model.codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(new Set(res.body.model.codes).size).toBe(3);
    expect(res.body.model).toMatchObject({ uses: 2, expiresAt: new Date(f.t.clock.now().getTime() + 30 * 60_000).toISOString() });

    const rows = await f.t.database.dataSource.query(`SELECT * FROM standby_codes WHERE user_id = $1`, [userId]);
    expect(rows).toHaveLength(3);
    const stored =
      JSON.stringify(rows) +
      rows.map((row: { code_hash: Buffer; salt: Buffer }) => row.code_hash.toString('latin1') + row.salt.toString('latin1'));
    for (const code of res.body.model.codes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace(/-/g, ''));
    }
    expect(rows[0]).toMatchObject({ kind: 'BypassCode', uses_left: 2, created_by: expect.any(String) });

    const [event] = await journalOf('BypassCode', 'Create');
    expect(event).toMatchObject({
      success: true,
      additional_fields: { UserId: userId, UserIdentity: 'ann', CodeCount: '3', CodeUses: '2', CodeTtlMinutes: '30' },
    });
    for (const code of res.body.model.codes) expect(JSON.stringify(event)).not.toContain(code.replace(/-/g, ''));
  });

  it.each([
    [{ count: 0 }, 'count must be an integer from 1 to 10.'],
    [{ count: 11 }, 'count must be an integer from 1 to 10.'],
    [{ uses: 0 }, 'uses must be an integer from 1 to 10.'],
    [{ uses: 1.5 }, 'uses must be an integer from 1 to 10.'],
    [{ ttlMinutes: 4 }, 'ttlMinutes must be an integer from 5 to 1440.'],
    [{ ttlMinutes: 1441 }, 'ttlMinutes must be an integer from 5 to 1440.'],
    [{ ttlMinutes: '60' }, 'ttlMinutes must be an integer from 5 to 1440.'],
  ])('refuses %j: %s', async (body, message) => {
    const userId = await userWithToken(`range-${JSON.stringify(body).replace(/\W/g, '')}`);
    const res = await bypassCodes(userId, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
    expect(await f.t.database.dataSource.query(`SELECT 1 FROM standby_codes WHERE user_id = $1`, [userId])).toHaveLength(0);
  });

  it('refuses an unknown user', async () => {
    const res = await bypassCodes('5b0c9a8e-3f2f-4c55-9a36-3f1e2b9b7c11', {});
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, message: 'User not found.' });
  });

  it('on ra: Granted as BypassCode for its uses, then Denied as used; each use journaled with who, which resource, which address', async () => {
    const userId = await userWithToken('ben');
    const [code] = (await bypassCodes(userId, { uses: 2 })).body.model.codes as string[];

    const first = await ra({ identity: 'ben', passCode: code, ip: '198.51.100.7' });
    expect(first.body.model).toMatchObject({ status: 'Granted', authenticator: 'BypassCode', bypassed: false });
    // typed without the dashes, in lower case
    const second = await ra({ identity: 'ben', passCode: code.replace(/-/g, '').toLowerCase(), ip: '198.51.100.7' });
    expect(second.body.model).toMatchObject({ status: 'Granted', authenticator: 'BypassCode' });
    const third = await ra({ identity: 'ben', passCode: code, ip: '198.51.100.7' });
    expect(third.body).toMatchObject({ success: false, model: { status: 'Denied' } });
    expect(third.body.model.replyMessage).toBe('Access denied: this code has already been used. Wait for the next code.');

    const history = await f.t.database.dataSource.query(
      `SELECT status, authenticator FROM access_requests WHERE identity = 'ben' ORDER BY created_at, id`,
    );
    expect(history.filter((row: { status: string }) => row.status === 'Granted')).toEqual([
      { status: 'Granted', authenticator: 'BypassCode' },
      { status: 'Granted', authenticator: 'BypassCode' },
    ]);
    const uses = (await journalOf('BypassCode', 'Use')).filter((e: { subject: string }) => e.subject === 'ben');
    expect(uses).toHaveLength(2);
    expect(uses[0]).toMatchObject({
      success: true,
      additional_fields: {
        UserId: userId,
        UserIdentity: 'ben',
        UserIp: '198.51.100.7',
        Resource: 'VPN',
        ResourceId: f.resource.resource.id,
        Channel: 'ra',
        UsesLeft: '1',
      },
    });
    expect(uses[1].additional_fields.UsesLeft).toBe('0');
    expect(JSON.stringify(uses)).not.toContain(code.replace(/-/g, ''));
  });

  it('used twice at once from two connections: exactly one grant', async () => {
    const userId = await userWithToken('cora');
    const [code] = (await bypassCodes(userId, { uses: 1 })).body.model.codes as string[];
    const answers = await Promise.all([ra({ identity: 'cora', passCode: code }), ra({ identity: 'cora', passCode: code })]);
    const statuses = answers.map((res) => res.body.model.status).sort();
    expect(statuses).toEqual(['Denied', 'Granted']);
    expect(
      await journalOf('BypassCode', 'Use').then((events) => events.filter((e: { subject: string }) => e.subject === 'cora')),
    ).toHaveLength(1);
  });

  it('on ra/challenge and md, and for a user whose token is gone', async () => {
    const userId = await userWithToken('dan');
    const codes = (await bypassCodes(userId, { count: 2 })).body.model.codes as string[];
    const waiting = await ra({ identity: 'dan' });
    expect(waiting.body.model.status).toBe('AwaitingAuthentication');
    const challenged = await f.t
      .as(f.resource)
      .post('/access/requests/ra/challenge')
      .send({ identity: 'dan', challenge: codes[0], requestId: waiting.body.model.id, language: 'en' });
    expect(challenged.body.model).toMatchObject({ status: 'Granted', authenticator: 'BypassCode' });

    const md = await f.t.as(f.resource).post('/access/requests/md').send({ identity: 'dan', passCode: codes[1] });
    expect(md.body.model).toMatchObject({ status: 'Granted', authenticator: 'BypassCode' });

    // the phone lost, the administrator removed its token: the code alone still signs in
    const erin = await newUser(f.t.db, f.accountId, 'erin', { now: f.t.clock.now() });
    const [erinCode] = (await bypassCodes(erin.id, {})).body.model.codes as string[];
    const prompt = await ra({ identity: 'erin' });
    expect(prompt.body.model.status).toBe('AwaitingAuthentication');
    const granted = await ra({ identity: 'erin', passCode: erinCode });
    expect(granted.body.model).toMatchObject({ status: 'Granted', authenticator: 'BypassCode' });
  });

  it('a wrong or expired code is Denied, and the token code still works beside the bypass codes', async () => {
    const userId = await userWithToken('fay');
    const [code] = (await bypassCodes(userId, { ttlMinutes: 5 })).body.model.codes as string[];
    const wrong = await ra({ identity: 'fay', passCode: 'AAAA-BBBB-CCCC' });
    expect(wrong.body.model).toMatchObject({ status: 'Denied', replyMessage: 'Access denied: wrong code.' });

    f.t.clock.advance(5 * 60_000);
    const expired = await ra({ identity: 'fay', passCode: code });
    expect(expired.body.model.status).toBe('Denied');
    expect((await journalOf('BypassCode', 'Use')).filter((e: { subject: string }) => e.subject === 'fay')).toHaveLength(0);

    const token = await ra({ identity: 'fay', passCode: generateTotp({ secret: f.key, time: f.t.clock.now().getTime() }) });
    expect(token.body.model).toMatchObject({ status: 'Granted', authenticator: 'TotpToken' });
  });
});
