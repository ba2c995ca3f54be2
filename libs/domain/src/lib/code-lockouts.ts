/**
 * Code lockouts. Wrong codes are counted per user in two scopes, and each scope locks on its own with
 * exponential back-off:
 * - `address`: the user's codes from one network (an IPv4 address or an IPv6 /64). An attacker
 *   guessing from one place locks out that place, not the user everywhere. Who saw the address
 *   matters: the access page's visitor is an address the service saw itself, and counts for every
 *   page; an address on the `ra` family is only what the calling resource says (`ip`,
 *   `callingStationId`: its holder can send any), so it counts within that resource alone and never
 *   locks another resource's sign-ins or the page's. A resource that sends no address has no address
 *   scope (all its unknown addresses shared one streak, which any stranger could lock).
 * - `resource`: the user's codes through one resource, from every address. It caps an attacker who
 *   varies the address, so its threshold is higher than an address's: the user's own network is not
 *   locked by a few strangers. A resource can exhaust only its own budget.
 * A locked scope refuses every code, the right one included (checking it would answer the guess).
 * A replayed code (already spent) is not a guess and counts nothing. A granted code clears both
 * scopes of that attempt; a scope whose last wrong code is a day old starts again from zero.
 */
export const CODE_LOCKOUT_SCOPES = ['address', 'resource'] as const;
export type CodeLockoutScope = (typeof CODE_LOCKOUT_SCOPES)[number];

/** Wrong codes a scope takes before its first lockout. */
export const WRONG_CODES_BEFORE_LOCKOUT: Readonly<Record<CodeLockoutScope, number>> = { address: 5, resource: 20 };
/** The first lockout lasts this long; each further wrong code doubles it, up to CODE_LOCKOUT_MAX_MINUTES. */
export const CODE_LOCKOUT_FIRST_MINUTES = 1;
export const CODE_LOCKOUT_MAX_MINUTES = 60;
/** A scope without a wrong code for this long starts counting from zero again. */
export const WRONG_CODES_FORGOTTEN_AFTER_HOURS = 24;

/**
 * The most wrong codes an attacker who tries whenever allowed gets checked in 24 hours without the
 * user signing in meanwhile: from one address (on the pages, whatever the resources; on the `ra` family,
 * within one resource), and through one resource (whatever the addresses and channels). A user's guess
 * budget per day is at most the resource figure times the number of resources of the account; each
 * code checks ±1 time step (3 codes) per authenticator. `code-lockouts.spec.ts` derives both from the
 * rules above, so they cannot drift apart.
 */
export const WRONG_CODES_PER_DAY_AT_MOST: Readonly<Record<CodeLockoutScope, number>> = { address: 33, resource: 48 };

/** The wrong codes of one user in one scope: `lockedUntil` in the future refuses every code. */
export interface WrongCodeStreak {
  failures: number;
  lastFailureAt: Date;
  lockedUntil: Date | null;
}

const MINUTE_MS = 60_000;

/** Until when the streak refuses codes, or null when it does not (now). */
export function lockedUntilOf(streak: WrongCodeStreak | null, now: Date): Date | null {
  return streak?.lockedUntil && streak.lockedUntil.getTime() > now.getTime() ? streak.lockedUntil : null;
}

/**
 * The streak after one more wrong code at `now` (counted only when the scope was not locked: a locked
 * scope checks no code). `lockedOut` is true when this wrong code starts a lockout: the moment to
 * journal and count it.
 */
export function streakAfterWrongCode(
  scope: CodeLockoutScope,
  streak: WrongCodeStreak | null,
  now: Date,
): { streak: WrongCodeStreak; lockedOut: boolean } {
  const remembered = streak !== null && now.getTime() - streak.lastFailureAt.getTime() < WRONG_CODES_FORGOTTEN_AFTER_HOURS * 60 * MINUTE_MS;
  const failures = (remembered ? streak.failures : 0) + 1;
  const beyond = failures - WRONG_CODES_BEFORE_LOCKOUT[scope];
  if (beyond < 0) return { streak: { failures, lastFailureAt: now, lockedUntil: null }, lockedOut: false };
  // 2^beyond grows past the cap after a few steps; the exponent is bounded so it never overflows
  const minutes = Math.min(CODE_LOCKOUT_FIRST_MINUTES * 2 ** Math.min(beyond, 30), CODE_LOCKOUT_MAX_MINUTES);
  return { streak: { failures, lastFailureAt: now, lockedUntil: new Date(now.getTime() + minutes * MINUTE_MS) }, lockedOut: true };
}

/** Where an address was seen: by the service itself (the access page's visitor), or as a resource said it. */
export type AddressWitness = { kind: 'page' } | { kind: 'resource'; resourceId: string };

/**
 * The key of an address scope: the network alone for the page's visitors (shared by every page), the
 * network and the resource for an address a resource named (that resource's alone).
 */
export function addressScopeKey(network: string, witness: AddressWitness): string {
  return witness.kind === 'page' ? network : `${network}@${witness.resourceId}`;
}

/** The network and, for an address a resource named, the resource of an address scope's key. */
export function addressOfScopeKey(scopeKey: string): { network: string; resourceId: string | null } {
  const at = scopeKey.lastIndexOf('@');
  return at === -1 ? { network: scopeKey, resourceId: null } : { network: scopeKey.slice(0, at), resourceId: scopeKey.slice(at + 1) };
}
