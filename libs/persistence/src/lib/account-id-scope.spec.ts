import { asAccountId } from '@twofold/domain';
import { GroupsRepository } from './repositories/groups.repository';
import { UsersRepository } from './repositories/users.repository';

/**
 * Tenancy by type: a query without its account does not compile. These calls are type-checked by ts-jest
 * when the suite runs: should a swapped or unscoped call compile, `@ts-expect-error` itself becomes the
 * error and this file fails. Nothing here runs a query.
 */
describe('AccountId scopes every query', () => {
  it('does not compile a look-up with its arguments swapped, or scoped by another id', () => {
    const calls = (users: UsersRepository, groups: GroupsRepository) => {
      const accountId = asAccountId('6f1c0e2a-7d3b-4a4e-9a59-0d0f4a3c2b1e');
      const userId = '0d0f4a3c-2b1e-4a4e-9a59-6f1c0e2a7d3b';
      void users.findById(accountId, userId);
      // @ts-expect-error: a user's id where the account's is expected
      void users.findById(userId, accountId);
      // @ts-expect-error: a plain string is not an account's id
      void groups.findByNames('6f1c0e2a-7d3b-4a4e-9a59-0d0f4a3c2b1e', ['Staff']);
    };
    expect(calls).toBeInstanceOf(Function);
  });
});
