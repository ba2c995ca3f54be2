import { AccountId } from '@twofold/domain';
import { generateHotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { Client } from 'pg';
import { startTestApp, TestApp } from '../../../test/testing/test-app';
import { ResourcePrincipal } from '../../auth/principal';
import { RaAttempts } from '../ra/ra-attempts';
import { AccessDecisionService } from './access-decision.service';
import { SignInAttempt } from './sign-in';

/**
 * A code is checked against the state read with the user's row lock and spent by the grant's own
 * statement. Every sign-in path takes that lock first, so nothing of ours spends a code in between;
 * should anything else do it (another tool on the database, a process of an older version), the grant
 * finds the code spent and writes nothing: the code is answered as a replay, never granted twice.
 */
describe('a code spent by someone else between the check and the grant', () => {
  let t: TestApp;
  let elsewhere: Client;
  let decisions: AccessDecisionService;
  let attempts: RaAttempts;
  let principal: ResourcePrincipal;
  let resourceAuth: string;
  let accountId: AccountId;
  const key = Buffer.from('3132333435363738393031323334353637383930', 'hex');

  beforeAll(async () => {
    t = await startTestApp();
    elsewhere = new Client({ connectionString: t.database.url });
    await elsewhere.connect();
    decisions = t.app.get(AccessDecisionService);
    attempts = t.app.get(RaAttempts);
    accountId = (await t.newAccount()).account.id;
    const resource = await t.newResource(accountId);
    resourceAuth = resource.authorization;
    principal = { kind: 'resource', accountId, resourceId: resource.resource.id, login: resource.apiKey, identityFormat: 'AsIs' };
  });
  afterAll(async () => {
    await elsewhere.end();
    await t.close();
  });

  async function userWithHotp(identity: string): Promise<string> {
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'HotpToken', key, now: t.clock.now() });
    return user.id;
  }

  /** The attempt, with the user's counter moved past `counter` on another connection once the attempt has read it. */
  function spentAfterTheRead(attempt: SignInAttempt, userId: string, counter: number): SignInAttempt {
    return {
      ...attempt,
      open: async () => {
        const opened = await attempt.open();
        if (opened.kind !== 'opened') throw new Error('the attempt found no request');
        const lockUser = opened.lockUser;
        return {
          ...opened,
          lockUser: async (keys) => {
            const found = await lockUser(keys);
            await elsewhere.query(`UPDATE authenticators SET hotp_counter = $2 WHERE user_id = $1`, [userId, counter + 1]);
            return found;
          },
        };
      },
    };
  }

  const requestsOf = async (userId: string) =>
    (await elsewhere.query(`SELECT status FROM access_requests WHERE user_id = $1 ORDER BY created_at, status`, [userId])).rows.map(
      (row: { status: string }) => row.status,
    );

  it('/ra (a call that is its own request): Denied as a code already used, never Granted', async () => {
    const userId = await userWithHotp('ra.spent');
    const attempt = attempts.passCode(principal, 'ra', {
      identity: 'ra.spent',
      passCodeIntent: { kind: 'code', code: generateHotp({ secret: key, counter: 0 }) },
      language: 'en',
      userIp: null,
    });
    const outcome = await decisions.run(spentAfterTheRead(attempt, userId, 0));
    expect(outcome).toEqual(expect.objectContaining({ kind: 'denied', refusal: { kind: 'codeAlreadyUsed' } }));
    expect(await requestsOf(userId)).toEqual(['Denied']);
    // not a guess: no wrong-code streak
    expect((await elsewhere.query(`SELECT count(*)::int AS n FROM wrong_code_streaks WHERE user_id = $1`, [userId])).rows[0].n).toBe(0);
  });

  it('/ra/challenge (a stored request): still waiting, as after any replayed code, and not Granted', async () => {
    const userId = await userWithHotp('challenge.spent');
    const started = await t.as(resourceAuth).post('/access/requests/ra').send({ identity: 'challenge.spent' });
    expect(started.body.model.status).toBe('AwaitingAuthentication');
    const attempt = attempts.challenge(principal, {
      identity: 'challenge.spent',
      challenge: { kind: 'code', code: generateHotp({ secret: key, counter: 0 }) },
      requestId: started.body.model.id,
      language: 'en',
    });
    const outcome = await decisions.run(spentAfterTheRead(attempt, userId, 0));
    expect(outcome).toEqual(expect.objectContaining({ kind: 'waiting', prompt: { kind: 'codeAlreadyUsed' } }));
    expect(await requestsOf(userId)).toEqual(['AwaitingAuthentication']);
  });

  it('without anyone in between, the same calls grant (the wrapper itself changes nothing else)', async () => {
    const userId = await userWithHotp('ra.fine');
    const attempt = attempts.passCode(principal, 'ra', {
      identity: 'ra.fine',
      passCodeIntent: { kind: 'code', code: generateHotp({ secret: key, counter: 0 }) },
      language: 'en',
      userIp: null,
    });
    // the counter moved to 0 + 1 elsewhere would spend code 0; moving it to where it is already changes nothing
    const outcome = await decisions.run(spentAfterTheRead(attempt, userId, -1));
    expect(outcome.kind).toBe('granted');
    expect(await requestsOf(userId)).toEqual(['Granted']);
  });
});
