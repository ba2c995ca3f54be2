import { DomainError } from '@twofold/domain';
import { recordQueries } from '../../test/testing/query-counter';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { UserRegistrationService } from './user-registration.service';

/**
 * A refused user must not survive a caller that catches the refusal inside a transaction it goes on to
 * commit (a licence check moved after the INSERT was tried once for speed and would have let it through).
 */
describe('UserRegistrationService.register (licences)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const usersOf = async (accountId: string) =>
    (
      await t.database.dataSource.query(
        'SELECT (SELECT count(*)::int FROM users WHERE account_id = $1) AS rows, user_count FROM accounts WHERE id = $1',
        [accountId],
      )
    )[0];

  it('leaves no user and the count unchanged when a caller catches the refusal and commits', async () => {
    const { account } = await t.newAccount({ licenses: 1 });
    const registration = t.app.get(UserRegistrationService);
    const register = (identity: string) => registration.register(account.id, { identity, name: null, email: null, source: 'Api' });
    await t.db.transaction(() => register('first'));
    let refused: unknown;
    await t.db.transaction(async () => {
      refused = await register('second').catch((error: unknown) => error);
    });
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe('USERS_QUOTA_EXCEEDED');
    expect(await usersOf(account.id)).toEqual({ rows: 1, user_count: 1 });
  });

  it('refuses a taken identity before the licences, even on a full account', async () => {
    const { account } = await t.newAccount({ licenses: 1 });
    const registration = t.app.get(UserRegistrationService);
    await t.db.transaction(() => registration.register(account.id, { identity: 'Only', name: null, email: null, source: 'Api' }));
    const error = await t.db
      .transaction(() => registration.register(account.id, { identity: 'ONLY', name: null, email: null, source: 'Api' }))
      .catch((e: unknown) => e);
    expect((error as DomainError).code).toBe('USER_IDENTITY_TAKEN');
  });

  it('reads the licences and whether the identity is taken with the account lock, in one statement', async () => {
    const { account } = await t.newAccount({ licenses: 5 });
    const registration = t.app.get(UserRegistrationService);
    const register = (identity: string) => registration.register(account.id, { identity, name: null, email: null, source: 'Api' });
    const created = await recordQueries(() => t.db.transaction(() => register('one-statement')));
    expect(created).toEqual([
      'START TRANSACTION',
      expect.stringMatching(/FOR UPDATE/),
      expect.stringMatching(/^INSERT INTO users/),
      'COMMIT',
    ]);
    // a taken identity (compared as identities are) is refused by that same statement, nothing inserted
    const taken = await recordQueries(() => t.db.transaction(() => register('ONE-STATEMENT')).catch((e: unknown) => e));
    expect(taken).toEqual(['START TRANSACTION', expect.stringMatching(/FOR UPDATE/), 'ROLLBACK']);
  });
});
