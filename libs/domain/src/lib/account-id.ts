declare const accountIdBrand: unique symbol;

/**
 * The id of an account: a string the compiler tells apart from every other id, so a query cannot be
 * scoped by the wrong value, nor called with its arguments swapped (`findById(id, accountId)` does not
 * compile). Values come typed from the database (entities) and from the caller's credentials.
 */
export type AccountId = string & { readonly [accountIdBrand]: true };

/** For an id known to be an account's from outside the type system: the CLI's arguments, a test's fixtures. */
export function asAccountId(value: string): AccountId {
  return value as AccountId;
}
