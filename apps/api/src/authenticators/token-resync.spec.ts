import { execFileSync } from 'node:child_process';
import { AccountId } from '@twofold/domain';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../../test/testing/test-app';

/** Two consecutive codes from oathtool (OATH Toolkit), an implementation independent of libs/otp. */
const KEY_HEX = '3132333435363738393031323334353637383930';
function oathHotp(counter: number): [string, string] {
  const [a, b] = execFileSync('oathtool', ['--hotp', '-c', String(counter), '-w', '1', KEY_HEX], { encoding: 'utf8' })
    .trim()
    .split('\n');
  return [a, b];
}
function oathTotp(at: Date): [string, string] {
  const now = at
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  const [a, b] = execFileSync('oathtool', ['--totp', '--now', now, '-w', '1', KEY_HEX], { encoding: 'utf8' }).trim().split('\n');
  return [a, b];
}
function oathTotpOne(at: Date): string {
  return oathTotp(at)[0];
}

describe('token resync: POST /users/{id}/authenticators/{hotptoken|totptoken}/{id}/resync', () => {
  let t: TestApp;
  let accountId: AccountId;
  let account: { authorization: string };
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  const key = Buffer.from(KEY_HEX, 'hex');
  let bodies = 0;

  beforeAll(async () => {
    t = await startTestApp();
    const created = await t.newAccount();
    accountId = created.account.id;
    account = created;
    resource = await t.newResource(accountId, 'VPN');
  });
  afterAll(() => t.close());

  async function tokenUser(identity: string, kind: 'HotpToken' | 'TotpToken'): Promise<{ userId: string; tokenId: string }> {
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    const token = await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind, key, now: t.clock.now() });
    return { userId: user.id, tokenId: token.id };
  }
  const resync = (ids: { userId: string; tokenId: string }, type: string, codes: unknown) =>
    t.as(account).post(`/users/${ids.userId}/authenticators/${type}/${ids.tokenId}/resync`).send({ codes });
  const ra = (identity: string, passCode: string) =>
    t.as(resource).post('/access/requests/ra').send({ identity, passCode, language: 'en' });
  const journal = () =>
    t.database.dataSource.query(
      `SELECT success, additional_fields FROM journal_events WHERE account_id = $1 AND object = 'Authenticator' AND action = 'Resync' ORDER BY event_date, seq`,
      [accountId],
    );

  it('HOTP: finds two consecutive codes up to 1000 ahead, moves the counter past them, and journals it', async () => {
    const ids = await tokenUser('hank', 'HotpToken');
    // the token was pressed 500 times away from the service: a code is out of the code check's look-ahead
    expect((await ra('hank', oathHotp(502)[0])).body.model.status).toBe('Denied');

    const res = await resync(ids, 'hotptoken', oathHotp(500));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Token resynchronized.', model: { countersSkipped: 500 } });
    const [row] = await t.database.dataSource.query('SELECT hotp_counter FROM authenticators WHERE id = $1', [ids.tokenId]);
    expect(row.hotp_counter).toBe('502');
    expect((await ra('hank', oathHotp(503)[0])).body.model).toMatchObject({ status: 'Granted', authenticator: 'HotpToken' });

    const events = await journal();
    expect(events[0]).toMatchObject({
      success: true,
      additional_fields: { UserIdentity: 'hank', AuthenticatorId: ids.tokenId, AuthenticatorKind: 'HotpToken', CountersSkipped: '500' },
    });
    expect(JSON.stringify(events)).not.toContain(oathHotp(500)[0]);
  });

  it('HOTP: refuses codes already used, in the wrong order, or beyond 1000 ahead', async () => {
    const ids = await tokenUser('ida', 'HotpToken');
    expect((await ra('ida', oathHotp(0)[0])).body.model.status).toBe('Granted');
    expect((await ra('ida', oathHotp(1)[0])).body.model.status).toBe('Granted');

    const used = await resync(ids, 'hotptoken', oathHotp(0));
    expect(used.status).toBe(400);
    expect(used.body).toMatchObject({ success: false, message: 'The codes were already used: enter the next two codes the token shows.' });
    const [a, b] = oathHotp(40);
    expect((await resync(ids, 'hotptoken', [b, a])).body.message).toBe('The codes are in the wrong order: enter the earlier code first.');
    expect((await resync(ids, 'hotptoken', oathHotp(1003))).body.message).toBe(
      'The codes are not two consecutive codes of this token within 1000 codes ahead of its counter.',
    );
    const [c40, , c42] = [oathHotp(40)[0], null, oathHotp(42)[0]];
    expect((await resync(ids, 'hotptoken', [c40, c42])).status).toBe(400);
    const [row] = await t.database.dataSource.query('SELECT hotp_counter FROM authenticators WHERE id = $1', [ids.tokenId]);
    expect(row.hotp_counter).toBe('2');
    expect((await journal()).filter((e: { success: boolean }) => !e.success).length).toBeGreaterThanOrEqual(4);
  });

  it('TOTP: finds the drift within ten minutes, stores it, and the code check uses it from then on', async () => {
    const ids = await tokenUser('jill', 'TotpToken');
    // the token's clock runs 7 minutes fast
    const tokenNow = () => new Date(t.clock.now().getTime() + 7 * 60_000);
    expect((await ra('jill', oathTotpOne(tokenNow()))).body.model.status).toBe('Denied');

    const res = await resync(ids, 'totptoken', oathTotp(tokenNow()));
    expect(res.status).toBe(200);
    expect(res.body.model).toEqual({ driftSeconds: expect.any(Number) });
    expect(Math.abs(res.body.model.driftSeconds - 7 * 60)).toBeLessThanOrEqual(30);
    // the codes given are spent
    expect((await ra('jill', oathTotp(tokenNow())[1])).body.model.status).toBe('Denied');

    t.clock.advance(90_000);
    expect((await ra('jill', oathTotpOne(tokenNow()))).body.model).toMatchObject({ status: 'Granted', authenticator: 'TotpToken' });
    expect((await journal()).at(-1).additional_fields).toMatchObject({
      UserIdentity: 'jill',
      DriftSeconds: String(res.body.model.driftSeconds),
    });
  });

  it('TOTP: refuses codes already used, in the wrong order, or more than ten minutes off', async () => {
    const ids = await tokenUser('kai', 'TotpToken');
    const [now, next] = oathTotp(t.clock.now());
    expect((await ra('kai', now)).body.model.status).toBe('Granted');
    const used = await resync(ids, 'totptoken', [now, next]);
    expect(used.body).toMatchObject({ success: false, message: 'The codes were already used: enter the next two codes the token shows.' });

    const later = oathTotp(new Date(t.clock.now().getTime() + 3 * 60_000));
    expect((await resync(ids, 'totptoken', [later[1], later[0]])).body.message).toBe(
      'The codes are in the wrong order: enter the earlier code first.',
    );
    expect((await resync(ids, 'totptoken', oathTotp(new Date(t.clock.now().getTime() + 11 * 60_000)))).body.message).toBe(
      'The codes are not two consecutive codes of this token within 10 minutes of the current time.',
    );
  });

  it.each([[{}], [['123456']], [['123456', 'abcdef']], [['123456', '654321', '111111']], ['123456']])(
    'refuses the body %j',
    async (codes) => {
      const ids = await tokenUser(`body-${++bodies}`, 'HotpToken');
      const res = await resync(ids, 'hotptoken', codes);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, message: 'codes must be an array of two codes of 6 digits.' });
    },
  );

  it('only for OTP tokens of the user', async () => {
    const ids = await tokenUser('lee', 'HotpToken');
    expect((await resync(ids, 'totptoken', oathHotp(5))).status).toBe(404);
    expect((await resync({ ...ids, tokenId: '5b0c9a8e-3f2f-4c55-9a36-3f1e2b9b7c11' }, 'hotptoken', oathHotp(5))).body.message).toBe(
      'Authenticator not found.',
    );
    expect((await resync(ids, 'telegram', oathHotp(5))).status).toBe(400);
  });
});
