import { AccountId } from '@twofold/domain';
import { Db } from '@twofold/persistence';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { Client } from 'pg';
import { ResourcePrincipal } from '../../auth/principal';
import { startTestApp, TestApp } from '../../../test/testing/test-app';
import { RaAttempts } from '../ra/ra-attempts';
import { AccessDecisionService } from './access-decision.service';
import { CodeFactorCheck } from './code-factor.check';
import { AcceptedFactor } from './sign-in';

const KEY = Buffer.from('3132333435363738393031323334353637383930', 'hex');
/** What the resumed attempt answers: a code here, standing in for the answer an approval factor will name. */
const STAND_IN = { kind: 'code', code: '000000' } as const;

/**
 * The seam an approval factor (Telegram, the mobile app) plugs into, proved with the code check made
 * to answer `pending` as an approval's check will: the attempt records the request as waiting and its
 * transaction commits, so while the person decides nothing is held (no transaction, no row lock); their
 * answer is applied by a second run on the stored request, which takes the same row locks and decides
 * the request's state and the user's lock anew.
 */
describe('the approval seam of AccessDecisionService', () => {
  let t: TestApp;
  let accountId: AccountId;
  let principal: ResourcePrincipal;
  let decision: AccessDecisionService;
  let attempts: RaAttempts;
  let other: Client;

  beforeAll(async () => {
    t = await startTestApp();
    accountId = (await t.newAccount()).account.id;
    const resource = await t.newResource(accountId, 'VPN');
    principal = { kind: 'resource', accountId, resourceId: resource.resource.id, login: resource.apiKey, identityFormat: 'AsIs' };
    decision = t.app.get(AccessDecisionService);
    attempts = t.app.get(RaAttempts);
    other = new Client({ connectionString: t.database.url });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await t.close();
  });
  afterEach(() => jest.restoreAllMocks());

  async function userAsked(identity: string) {
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    const token = await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: KEY, now: t.clock.now() });
    const factor: AcceptedFactor = { kind: token.kind, id: token.id, name: token.name };
    // the check an approval factor will have: inside the transaction it only decides that a person is asked
    const open = async (accessRequestId: string) => ({
      accountId,
      id: accessRequestId,
      accessRequestId,
      factor: 'Telegram' as const,
      authenticatorId: token.id,
      number: null,
      expiresAt: t.clock.now(),
    });
    jest.spyOn(t.app.get(CodeFactorCheck), 'check').mockResolvedValueOnce({ result: 'pending', factor, open });
    const asked = await decision.run(
      attempts.passCode(principal, 'ra', { identity, passCodeIntent: STAND_IN, language: 'en', userIp: null }),
    );
    return { user, factor, asked };
  }
  /** Locks the rows from another connection, failing at once if anyone still holds them. */
  const lockNowait = async (table: 'access_requests' | 'users', id: string) => {
    await other.query('BEGIN');
    try {
      return (await other.query(`SELECT id FROM ${table} WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rowCount;
    } finally {
      await other.query('ROLLBACK');
    }
  };
  const statusOf = async (id: string) => (await other.query('SELECT status FROM access_requests WHERE id = $1', [id])).rows[0].status;

  it('a pending check records the request as waiting and commits: nothing is held while the person decides', async () => {
    const { user, asked } = await userAsked('ann');
    expect(asked).toMatchObject({ kind: 'pending', requestId: expect.any(String) });
    const requestId = asked.requestId as string;
    expect(t.app.get(Db).inTransaction()).toBe(false);
    // committed: seen by another connection, which can lock the request and the user at once
    expect(await statusOf(requestId)).toBe('AwaitingAuthentication');
    expect(await lockNowait('access_requests', requestId)).toBe(1);
    expect(await lockNowait('users', user.id)).toBe(1);
  });

  it("the person's approval is applied by a new run on the stored request: Granted by the factor asked", async () => {
    const { factor, asked } = await userAsked('bob');
    const requestId = asked.requestId as string;
    const resumed = await decision.run(attempts.challenge(principal, { identity: 'bob', challenge: STAND_IN, requestId, language: 'en' }), {
      result: 'granted',
      factor,
    });
    expect(resumed).toMatchObject({ kind: 'granted', factor, requestId });
    expect(await statusOf(requestId)).toBe('Granted');
  });

  it('the new run decides anew: a user locked or a request expired while the person decided is not granted', async () => {
    const locked = await userAsked('cid');
    await other.query('UPDATE users SET is_locked = true WHERE id = $1', [locked.user.id]);
    const resume = (identity: string, requestId: string, factor: AcceptedFactor) =>
      decision.run(attempts.challenge(principal, { identity, challenge: STAND_IN, requestId, language: 'en' }), {
        result: 'granted',
        factor,
      });
    expect(await resume('cid', locked.asked.requestId as string, locked.factor)).toMatchObject({
      kind: 'denied',
      refusal: { kind: 'locked' },
    });
    expect(await statusOf(locked.asked.requestId as string)).toBe('Denied');

    const late = await userAsked('dan');
    t.clock.advance(15 * 60_000);
    expect(await resume('dan', late.asked.requestId as string, late.factor)).toMatchObject({ kind: 'closed', status: 'Expired' });
    expect(await statusOf(late.asked.requestId as string)).toBe('Expired');
  });
});
