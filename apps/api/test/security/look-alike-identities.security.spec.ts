import { startTestApp, TestApp } from '../testing/test-app';

/**
 * Identities that look the same are one user: compatibility forms (full-width, the Kelvin sign,
 * decomposed letters), the case of any script and trailing dots are folded in the comparison; invisible
 * and text-direction characters are refused. They made distinct users that an administrator, a journal
 * reader or the user could not tell apart.
 */
describe('look-alike identities', () => {
  let t: TestApp;
  let authorization: string;
  let vpn: Awaited<ReturnType<TestApp['newResource']>>;
  const createUser = (identity: string) => t.as(authorization).post('/users').send({ Identity: identity });

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    authorization = account.authorization;
    vpn = await t.newResource(account.account.id, 'VPN');
  });
  afterAll(() => t.close());

  it.each([
    ['a Latin letter in another case', 'Élan', 'élan'],
    ['full case folding', 'Straße', 'STRASSE'],
    ['Greek final sigma', 'ΣΑΣ', 'σας'],
    ['full-width letters', 'jane', 'ｊａｎｅ'],
    ['a decomposed letter', 'émile', 'e\u0301mile'],
    ['the Kelvin sign', 'kate', '\u212Aate'],
    ['a trailing dot', 'omar', 'omar.'],
  ])('%s is the same user: 409 for the second, and either spelling finds the first', async (_name, first, second) => {
    const created = await createUser(first);
    expect(created.status).toBe(200);
    const again = await createUser(second);
    expect(again.status).toBe(409);
    const found = await t.as(authorization).get('/users').query({ identity: second });
    expect(found.body.model.map((user: { id: string }) => user.id)).toEqual([created.body.model.id]);
  });

  it('stores a decomposed identity composed', async () => {
    const created = await createUser('Zoe\u0308');
    expect(created.status).toBe(200);
    expect(created.body.model.identity).toBe('Zoë');
  });

  it.each([
    ['a zero-width space', 'ja\u200bne'],
    ['a zero-width joiner', 'ja\u200dne'],
    ['a right-to-left override', 'admin\u202Egnp.exe'],
    ['a left-to-right mark', 'jane\u200e'],
    ['a byte-order mark inside', 'ja\ufeffne'],
    ['a soft hyphen', 'ja\u00adne'],
    ['a Hangul filler', 'jane\u3164'],
    ['a control character', 'ja\u0007ne'],
  ])('refuses an identity with %s (400 on the users API)', async (_name, identity) => {
    const res = await createUser(identity);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Identity must not contain invisible, control or text-direction characters.');
  });

  it('and on the sign-in calls, a 200 refusal as those clients need', async () => {
    const res = await t.as(vpn).post('/access/requests/ra').send({ identity: 'ja\u200bne', passCode: '123456' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, model: { status: 'Denied' } });
  });
});
