import { generateHotp, generateTotp } from '@twofold/otp';
import { startTestApp, TestApp } from '../testing/test-app';

/**
 * OTP token parameters, end to end over HTTP: a token registered through
 * POST /users/{id}/authenticators/{type} (hex Key, Algorithm) is checked by POST /access/requests/ra.
 * TOTP: 30 s steps, one step either side. HOTP: counter from 0, the next 10 counters looked ahead.
 */
describe('OTP token parameters', () => {
  let t: TestApp;
  let auth: string;
  let resourceAuth: string;
  const KEY_HEX = '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567';
  const key = Buffer.from(KEY_HEX, 'hex');
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    auth = account.authorization;
    resourceAuth = (await t.newResource(account.account.id)).authorization;
  });
  afterAll(() => t.close());

  /** A new user holding one token registered over HTTP; returns its identity. */
  async function userWithToken(type: 'totptoken' | 'hotptoken', body: object = {}): Promise<string> {
    const identity = `otp.user.${++n}`;
    const id = (await t.as(auth).post('/users').send({ Identity: identity })).body.model.id;
    const res = await t
      .as(auth)
      .post(`/users/${id}/authenticators/${type}`)
      .send({ Name: 'Token', Key: KEY_HEX, ...body });
    expect(res.status).toBe(200);
    return identity;
  }
  const ra = async (identity: string, passCode: string) => {
    const res = await t.as(resourceAuth).post('/access/requests/ra').send({ identity, passCode });
    expect(res.status).toBe(200);
    return res.body.model.status as string;
  };
  const totpAt = (offsetMs: number) => generateTotp({ secret: key, time: t.clock.now().getTime() + offsetMs });

  it.each([
    ['the current step', 0, 'Granted'],
    ['the previous step', -30_000, 'Granted'],
    ['the next step', 30_000, 'Granted'],
    ['two steps back', -60_000, 'Denied'],
    ['two steps ahead', 60_000, 'Denied'],
  ])('a TOTP token code of %s (%d ms) is %s', async (_, offsetMs, status) => {
    const identity = await userWithToken('totptoken');
    const code = totpAt(offsetMs);
    expect(code).toMatch(/^\d{6}$/);
    // a code that happens to equal an accepted one would make the refusal meaningless
    if (status === 'Denied') expect([totpAt(-30_000), totpAt(0), totpAt(30_000)]).not.toContain(code);
    expect(await ra(identity, code)).toBe(status);
  });

  it('an HOTP token starts at counter 0 and accepts up to 10 counters ahead, not 11', async () => {
    const first = await userWithToken('hotptoken');
    expect(await ra(first, generateHotp({ secret: key, counter: 0 }))).toBe('Granted');
    const ten = await userWithToken('hotptoken');
    expect(await ra(ten, generateHotp({ secret: key, counter: 10 }))).toBe('Granted');
    const eleven = await userWithToken('hotptoken');
    const code11 = generateHotp({ secret: key, counter: 11 });
    expect(Array.from({ length: 11 }, (_, counter) => generateHotp({ secret: key, counter }))).not.toContain(code11);
    expect(await ra(eleven, code11)).toBe('Denied');
  });

  it.each(['SHA256', 'SHA512'] as const)('an HOTP token registered with Algorithm %s is checked with that algorithm', async (algorithm) => {
    const identity = await userWithToken('hotptoken', { Algorithm: algorithm });
    const sha1 = generateHotp({ secret: key, counter: 0 });
    const own = generateHotp({ secret: key, counter: 0, algorithm });
    expect(own).not.toBe(sha1);
    expect(Array.from({ length: 11 }, (_, counter) => generateHotp({ secret: key, counter, algorithm }))).not.toContain(sha1);
    expect(await ra(identity, sha1)).toBe('Denied');
    expect(await ra(identity, own)).toBe('Granted');
  });
});
