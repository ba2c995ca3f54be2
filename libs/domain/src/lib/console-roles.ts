import { AdminRole } from './administrators';

/**
 * What an administrator may do in the console, one permission per row of the role table. Every
 * account API route the console may call names exactly one of them (apps/api/src/console/console-route-permissions.ts).
 */
export const CONSOLE_PERMISSIONS = [
  /** see users, their factors, the access history */
  'users.read',
  /** lock/unlock users, send enrollment links, clear code lockouts */
  'users.support',
  /** delete, disable and rename factors; issue bypass codes */
  'factors.manage',
  /** create, change and delete users; groups */
  'users.manage',
  /** the journal */
  'journal.read',
  /** administrators, resources and their secrets, IP lists, settings, API key and secret */
  'account.manage',
] as const;
export type ConsolePermission = (typeof CONSOLE_PERMISSIONS)[number];

/** The role table: each role may do its own row and every row of the roles below it. */
export const CONSOLE_ROLE_PERMISSIONS: Readonly<Record<AdminRole, readonly ConsolePermission[]>> = {
  'Support 1': ['users.read'],
  'Support 2': ['users.read', 'users.support'],
  'Support 3': ['users.read', 'users.support', 'factors.manage'],
  'Support 4': ['users.read', 'users.support', 'factors.manage', 'users.manage', 'journal.read'],
  Admin: ['users.read', 'users.support', 'factors.manage', 'users.manage', 'journal.read', 'account.manage'],
};

/** Whether `role` may do what `permission` covers; an unknown role may do nothing. */
export function roleMay(role: string, permission: ConsolePermission): boolean {
  if (!Object.hasOwn(CONSOLE_ROLE_PERMISSIONS, role)) return false;
  return CONSOLE_ROLE_PERMISSIONS[role as AdminRole].includes(permission);
}

/** Console sessions end after this long without a request… */
export const CONSOLE_SESSION_IDLE_MS = 30 * 60_000;
/** …and this long after the sign-in, whatever happens. */
export const CONSOLE_SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
/** The mailed sign-in code works this long, once. */
export const CONSOLE_SIGN_IN_CODE_MS = 10 * 60_000;
/** Wrong mailed codes before a sign-in challenge is void. */
export const CONSOLE_SIGN_IN_CODE_ATTEMPTS = 5;
/** Failed second factors in a row that make an administrator TemporaryLocked… */
export const CONSOLE_SECOND_FACTOR_FAILURES = 5;
/** …for this long. */
export const CONSOLE_TEMPORARY_LOCK_MS = 15 * 60_000;
