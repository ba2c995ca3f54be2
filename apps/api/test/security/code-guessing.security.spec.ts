import { AccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../testing/test-app';

/**
 * Attacker: a client that forwards whatever a person types (a VPN / RADIUS front end) submits many
 * codes of one user at once through POST /access/requests/ra. The code lockouts (5 wrong codes from
 * one address, 20 through one resource: libs/domain code-lockouts.ts) must hold for parallel calls too.
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

  it('checks at most 5 wrong codes of one user from one address, however many calls arrive at once', async () => {
    await totpUser('par');
    const valid = new Set([-30_000, 0, 30_000].map((offset) => generateTotp({ secret: totpKey, time: t.clock.now().getTime() + offset })));
    const guesses: string[] = [];
    for (let n = 0; guesses.length < 40; n += 1) {
      const code = String(100000 + n * 7919).slice(0, 6);
      if (!valid.has(code)) guesses.push(code);
    }
    const replies = await Promise.all(
      guesses.map((passCode) =>
        t.as(resource).post('/access/requests/ra').send({ identity: 'par', passCode, language: 'en', ip: '198.51.100.1' }),
      ),
    );
    expect(replies.every((reply) => reply.status === 200 && reply.body.model.status === 'Denied')).toBe(true);
    const checked = replies.filter((reply) => reply.body.model.replyMessage === 'Access denied: wrong code.').length;
    expect(checked).toBe(5);
    // and the right code is not checked either until the lockout has passed
    const right = await t
      .as(resource)
      .post('/access/requests/ra')
      .send({ identity: 'par', passCode: [...valid][1], language: 'en', ip: '198.51.100.1' });
    expect(right.body.model.replyMessage).toBe('Access denied: too many wrong codes. Try again in 1 min.');
  });

  it('checks at most 20 wrong codes through one resource when the attacker varies the address, however many at once', async () => {
    await totpUser('spread');
    const valid = new Set([-30_000, 0, 30_000].map((offset) => generateTotp({ secret: totpKey, time: t.clock.now().getTime() + offset })));
    const guesses: string[] = [];
    for (let n = 0; guesses.length < 60; n += 1) {
      const code = String(100000 + n * 7919).slice(0, 6);
      if (!valid.has(code)) guesses.push(code);
    }
    const replies = await Promise.all(
      guesses.map((passCode, n) =>
        t
          .as(resource)
          .post('/access/requests/ra')
          .send({ identity: 'spread', passCode, language: 'en', ip: `192.0.2.${n + 1}` }),
      ),
    );
    expect(replies.filter((reply) => reply.body.model.replyMessage === 'Access denied: wrong code.')).toHaveLength(20);
  });
});
