import { AccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../testing/test-app';

/**
 * Attacker: a client that forwards whatever a person types (a VPN / RADIUS front end) submits many
 * codes of one user at once through POST /access/requests/ra. The per-user cap of wrong codes
 * (ACCESS_USER_MAX_RECENT_FAILED_CODES = 10 in 15 minutes) must hold for parallel calls too.
 */
describe('security: guessing codes through parallel /access/requests/ra calls', () => {
  let t: TestApp;
  let accountId: AccountId;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  const totpKey = Buffer.from('3132333435363738393031323334353637383930', 'hex');

  beforeAll(async () => {
    t = await startTestApp();
    accountId = (await t.newAccount()).account.id;
    resource = await t.newResource(accountId, 'VPN');
  });
  afterAll(() => t.close());

  async function totpUser(identity: string) {
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: totpKey, now: t.clock.now() });
    return user;
  }

  it('checks at most 10 wrong codes of one user, however many calls arrive at once', async () => {
    await totpUser('par');
    const valid = new Set([-30_000, 0, 30_000].map((offset) => generateTotp({ secret: totpKey, time: t.clock.now().getTime() + offset })));
    const guesses: string[] = [];
    for (let n = 0; guesses.length < 40; n += 1) {
      const code = String(100000 + n * 7919).slice(0, 6);
      if (!valid.has(code)) guesses.push(code);
    }
    const replies = await Promise.all(
      guesses.map((passCode) =>
        t
          .http()
          .post('/access/requests/ra')
          .set('Authorization', resource.authorization)
          .send({ identity: 'par', passCode, language: 'en' }),
      ),
    );
    expect(replies.every((reply) => reply.status === 200 && reply.body.model.status === 'Denied')).toBe(true);
    const checked = replies.filter((reply) => reply.body.model.replyMessage === 'Access denied: wrong or already used code.').length;
    expect(checked).toBe(10);
    // and the right code is not checked either until the window has passed
    const right = await t
      .http()
      .post('/access/requests/ra')
      .set('Authorization', resource.authorization)
      .send({ identity: 'par', passCode: [...valid][1], language: 'en' });
    expect(right.body.model.replyMessage).toBe('Access denied: too many wrong codes. Try again later.');
  });
});
