import { jwtVerify } from 'jose';
import { StandbyCodesFixture } from '../../test/testing/standby-codes-fixture';
import { STANDBY_CODE_PATTERN } from '../access/page/access-page-standby.view';

describe('recovery codes: POST /users/{id}/recovery-codes, and standby codes on the access page', () => {
  const f = StandbyCodesFixture.use('Intranet');
  const { userWithToken, ra } = f;
  const recoveryCodes = async (userId: string): Promise<string[]> => {
    const res = await f.recoveryCodesCall(userId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Recovery codes created.' });
    return res.body.model.codes;
  };

  it('ten single-use codes, shown once; regenerating voids the old ones; journaled without the codes', async () => {
    const userId = await userWithToken('gil');
    const first = await recoveryCodes(userId);
    expect(first).toHaveLength(10);
    expect(new Set(first).size).toBe(10);
    for (const code of first) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);

    const used = await ra({ identity: 'gil', passCode: first[0] });
    expect(used.body.model).toMatchObject({ status: 'Granted', authenticator: 'RecoveryCode', replyMessage: 'Access granted.' });
    const again = await ra({ identity: 'gil', passCode: first[0] });
    expect(again.body.model.status).toBe('Denied');

    const second = await recoveryCodes(userId);
    const voided = await ra({ identity: 'gil', passCode: first[1] });
    expect(voided.body.model).toMatchObject({ status: 'Denied', replyMessage: 'Access denied: wrong code.' });
    expect((await ra({ identity: 'gil', passCode: second[0] })).body.model.status).toBe('Granted');

    const events = await f.t.database.dataSource.query(
      `SELECT action, additional_fields FROM journal_events WHERE account_id = $1 AND object = 'RecoveryCode' ORDER BY event_date, seq`,
      [f.accountId],
    );
    expect(events.map((e: { action: string }) => e.action)).toEqual(['Create', 'Use', 'Create', 'Use']);
    expect(events[0].additional_fields).toMatchObject({ UserId: userId, UserIdentity: 'gil', CodeCount: '10' });
    expect(events[1].additional_fields).toMatchObject({ UserIdentity: 'gil', Resource: 'Intranet', Channel: 'ra', CodesLeft: '9' });
    const journal = JSON.stringify(events);
    for (const code of [...first, ...second]) expect(journal).not.toContain(code.replace(/-/g, ''));
  });

  it('warns in the reply message when three or fewer are left', async () => {
    const userId = await userWithToken('hal');
    const codes = await recoveryCodes(userId);
    for (const code of codes.slice(0, 6))
      expect((await ra({ identity: 'hal', passCode: code })).body.model.replyMessage).toBe('Access granted.');
    const seventh = await ra({ identity: 'hal', passCode: codes[6] });
    expect(seventh.body.model).toMatchObject({
      status: 'Granted',
      replyMessage: 'Access granted. Recovery codes left: 3. Ask your administrator for new ones.',
    });
    const eighth = await ra({ identity: 'hal', passCode: codes[7], language: 'ru' });
    expect(eighth.body.model.replyMessage).toBe('Доступ разрешён. Осталось кодов восстановления: 2. Запросите у администратора новые.');
  });

  it('refuses an unknown user', async () => {
    const res = await f.t.as(f.account).post('/users/5b0c9a8e-3f2f-4c55-9a36-3f1e2b9b7c11/recovery-codes').send();
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, message: 'User not found.' });
  });

  it("the page's code prompt offers a field of its own for a recovery or helpdesk code; typed as read aloud, it grants", async () => {
    const identity = 'page-typed';
    const userId = await userWithToken(identity);
    const [code] = await recoveryCodes(userId);
    const { page, postCode, requestId } = await f.openAccessPage(identity);
    // the token's field keeps its digits and numeric keyboard; the standby code's field takes letters
    expect(page.text).toMatch(/<input id="code" name="code" inputmode="numeric" pattern="\[0-9\]\{6,8\}"/);
    expect(page.text).toContain('<summary>Lost your phone? Use a recovery code</summary>');
    const field = /<input id="standby-code" name="code" inputmode="text"[^>]*>/.exec(page.text)?.[0] ?? '';
    expect(field).toContain(`pattern="${STANDBY_CODE_PATTERN}"`);
    // the browser checks the pattern with the v flag, anchored: as handed over, lowercase, with spaces; never a token code
    const admits = (value: string) => new RegExp(`^(?:${STANDBY_CODE_PATTERN})$`, 'v').test(value);
    const typed = code.toLowerCase().replace(/-/g, ' ');
    expect([code, typed, code.replace(/-/g, '')].map(admits)).toEqual([true, true, true]);
    expect(['123456', '12345678', `${code}X`].map(admits)).toEqual([false, false, false]);

    const granted = await postCode(typed);
    expect(granted.text).toContain('name="accessToken"');
    const [row] = await f.t.database.dataSource.query('SELECT authenticator FROM access_requests WHERE id = $1', [requestId]);
    expect(row.authenticator).toBe('RecoveryCode');
  });

  it.each([
    ['bypass', 'bypass_code', 'BypassCode'],
    ['recovery', 'recovery_code', 'RecoveryCode'],
  ])('on the access page a %s code grants, and the AccessToken says amr %s', async (kind, amr, authenticator) => {
    const identity = `page-${kind}`;
    const userId = await userWithToken(identity);
    const codes = kind === 'bypass' ? (await f.bypassCodesCall(userId, {})).body.model.codes : await recoveryCodes(userId);
    const { postCode, requestId } = await f.openAccessPage(identity);
    const granted = await postCode(codes[0]);
    expect(granted.status).toBe(200);
    const token = /<input type="hidden" name="accessToken" value="([^"]+)">/.exec(granted.text)?.[1] as string;
    const { payload } = await jwtVerify(token, new TextEncoder().encode(f.resource.apiSecret), { currentDate: f.t.clock.now() });
    expect(payload).toMatchObject({ sub: identity, amr: [amr] });
    const [row] = await f.t.database.dataSource.query('SELECT status, authenticator FROM access_requests WHERE id = $1', [requestId]);
    expect(row).toEqual({ status: 'Granted', authenticator });

    // a refreshed token keeps how the user signed in
    const refreshed = await f.t.as(f.resource).post('/token/refresh').send({ AccessToken: token });
    expect(refreshed.body.success).toBe(true);
    const again = await jwtVerify(refreshed.body.model, new TextEncoder().encode(f.resource.apiSecret), { currentDate: f.t.clock.now() });
    expect(again.payload.amr).toEqual([amr]);
  });
});
