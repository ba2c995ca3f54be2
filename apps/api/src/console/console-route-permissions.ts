import { ConsolePermission } from '@twofold/domain';

/**
 * Which permission of the role table each account API route needs when the console calls it with a
 * session (an API key may do everything). Keyed by method and path, the API version left out and every
 * path parameter written `*`: `PUT /users/*`. A route missing here is refused to every session
 * (console-roles.spec.ts checks that every account route of the API document is here).
 */
export const CONSOLE_ROUTE_PERMISSIONS: Readonly<Record<string, ConsolePermission>> = {
  // see users, their factors, the access history
  'GET /users': 'users.read',
  'GET /users/count': 'users.read',
  'GET /users/*/authenticators': 'users.read',
  'GET /access/requests': 'users.read',
  'GET /groups': 'users.read',

  // lock/unlock users, send enrollment links, clear code lockouts
  'POST /users/*/lock': 'users.support',
  'POST /users/*/unlock': 'users.support',
  'POST /users/*/enroll': 'users.support',

  // delete, disable and rename factors; issue bypass codes (and the factors' other care: tokens, resync, recovery codes)
  'DELETE /users/*/authenticators/*': 'factors.manage',
  'DELETE /users/*/authenticators/*/*': 'factors.manage',
  'PATCH /users/*/authenticators/*/*': 'factors.manage',
  'PUT /users/*/authenticators/*/*': 'factors.manage',
  'POST /users/*/authenticators/*': 'factors.manage',
  'POST /users/*/authenticators/*/*/disable': 'factors.manage',
  'POST /users/*/authenticators/*/*/enable': 'factors.manage',
  'POST /users/*/authenticators/*/*/resync': 'factors.manage',
  'POST /users/*/bypass-codes': 'factors.manage',
  'POST /users/*/recovery-codes': 'factors.manage',

  // create, change and delete users; groups
  'POST /users': 'users.manage',
  'PUT /users/*': 'users.manage',
  'DELETE /users/*': 'users.manage',
  'POST /users/*/phone': 'users.manage',
  'POST /users/*/phones': 'users.manage',
  'PUT /users/*/customfields': 'users.manage',
  'DELETE /users/*/customfields': 'users.manage',
  'POST /users/*/groups': 'users.manage',
  'DELETE /users/*/groups': 'users.manage',
  'POST /groups': 'users.manage',
  'PUT /groups/*': 'users.manage',
  'DELETE /groups/*': 'users.manage',

  // the journal
  'GET /journal': 'journal.read',

  // administrators, resources and their secrets, IP lists, settings, API key and secret
  'GET /admins': 'account.manage',
  'POST /admins': 'account.manage',
  'PUT /admins/*': 'account.manage',
  'DELETE /admins/*': 'account.manage',
  'POST /admins/lock/*': 'account.manage',
  'POST /admins/unlock/*': 'account.manage',
  'POST /admins/resend-invitation-email': 'account.manage',
  'POST /admins/resend-invitation-email/*': 'account.manage',
  'GET /resources': 'account.manage',
  'POST /resources': 'account.manage',
  'PUT /resources/*': 'account.manage',
  'DELETE /resources/*': 'account.manage',
  'GET /resources/*/secret': 'account.manage',
  'POST /resources/*/secret': 'account.manage',
  'GET /ip-lists': 'account.manage',
  'POST /ip-lists': 'account.manage',
  'PUT /ip-lists/*': 'account.manage',
  'DELETE /ip-lists/*': 'account.manage',
  'GET /settings/branding': 'account.manage',
  'PUT /settings/branding': 'account.manage',
  'GET /settings/call-gateway': 'account.manage',
  'PUT /settings/call-gateway': 'account.manage',
  'DELETE /settings/call-gateway': 'account.manage',
  'GET /settings/sms-gateway': 'account.manage',
  'PUT /settings/sms-gateway': 'account.manage',
  'DELETE /settings/sms-gateway': 'account.manage',
  'GET /settings/directory-sync': 'account.manage',
  'PUT /settings/directory-sync': 'account.manage',
  'GET /settings/identity-format': 'account.manage',
  'PUT /settings/identity-format': 'account.manage',
  'POST /settings/identity-format/apply': 'account.manage',
  'GET /settings/identity-format/apply/*': 'account.manage',
  'GET /settings/identity-format/dry-run': 'account.manage',
  'GET /settings/phone-destinations': 'account.manage',
  'PUT /settings/phone-destinations': 'account.manage',
  'GET /settings/showcase': 'account.manage',
  'PUT /settings/showcase': 'account.manage',
  'GET /settings/showcase/logos': 'account.manage',
  'POST /settings/showcase/logos': 'account.manage',
  'DELETE /settings/showcase/logos/*': 'account.manage',
  'GET /settings/support-info': 'account.manage',
  'PUT /settings/support-info': 'account.manage',
};

/**
 * The table's key of a route: `GET /v2/users/:id` → `GET /users/*` (the API document's `{id}` form
 * too). Trailing slashes and the version prefix do not change what a route may do.
 */
export function consoleRouteKey(method: string, path: string): string {
  const withoutVersion = path.replace(/^\/v[0-9]+(?=\/|$)/, '');
  const generic = withoutVersion
    .split('/')
    .map((segment) => (segment.startsWith(':') || /^\{.+\}$/.test(segment) ? '*' : segment))
    .join('/')
    .replace(/\/+$/, '');
  return `${method.toUpperCase()} ${generic || '/'}`;
}

/** The permission a route needs, or null: not a route the console may call. */
export function consolePermissionOf(method: string, routePath: string): ConsolePermission | null {
  // HEAD is answered by the GET route
  const key = consoleRouteKey(method === 'HEAD' ? 'GET' : method, routePath);
  return Object.hasOwn(CONSOLE_ROUTE_PERMISSIONS, key) ? CONSOLE_ROUTE_PERMISSIONS[key] : null;
}
