import { RouteDoc } from '../openapi/api-route';
import { EXAMPLE } from '../openapi/common.openapi';

const SESSION_VIEW = {
  type: 'object',
  properties: {
    csrfToken: { type: 'string', description: 'sent back in the `X-CSRF-Token` header of every console request' },
    administrator: {
      type: 'object',
      properties: { id: { type: 'string', format: 'uuid' }, identity: { type: 'string' }, role: { type: 'string' } },
    },
    accountId: { type: 'string', format: 'uuid' },
    permissions: {
      type: 'array',
      items: { type: 'string', enum: ['users.read', 'users.support', 'factors.manage', 'users.manage', 'journal.read', 'account.manage'] },
    },
  },
};

const SESSION_EXAMPLE = {
  csrfToken: 'q3Jx0Yc2s1Vn8mJm3v1r0Qw7mC6y1nE0b9t3aQ2vX4k',
  administrator: { id: '5f0c2a1e-0000-4000-8000-000000000001', identity: 'helpdesk@example.com', role: 'Support 2' },
  accountId: '9b1d3c2e-0000-4000-8000-000000000002',
  permissions: ['users.read', 'users.support'],
};

const SESSION_RULES =
  'A console session is the `__Host-twofold-console` cookie set by the sign-in. With it, and with the session’s CSRF token in ' +
  '`X-CSRF-Token`, the console calls the account API itself (no Authorization header), within the administrator’s role: ' +
  'a route the role does not cover is 403 "Your role does not allow this."; a change (any method but GET/HEAD) from another origin ' +
  'is 403. Sessions end after 30 idle minutes, 12 hours after the sign-in, on sign-out, and when the administrator is locked or deleted.';

export const CONSOLE_PAGE_DOCS = {
  page: {
    summary: "The administrators' console (HTML)",
    description:
      "The console's page, with a strict CSP (`script-src 'self'`, `connect-src 'self'`, `frame-ancestors 'none'`, no inline script). " +
      'Without the trailing slash: 301 to the folder. `CONSOLE=false`: 404.',
    statuses: { 200: 'the page (`Cache-Control: no-cache`)', 301: 'to `console/`' },
    errors: { 404: 'The console is not built (npm run build).' },
  },
  pageFile: {
    summary: "A file of the administrators' console",
    description: 'The build’s files only, by exact name: the content-hashed script and style (cached for a year, immutable) and the icon.',
    statuses: { 200: 'the file, with its content type' },
    errors: { 404: 'The console has no such file.' },
  },
} as const;

export const CONSOLE_DOCS = {
  start: {
    summary: 'Starts a sign-in to the console: mails a code',
    description:
      'Mails a single-use 8-digit code (10 minutes, 5 tries) to the administrator with this e-mail in each account where they may sign in ' +
      '(Active, or TemporaryLocked past its time). The answer is the same whoever the e-mail belongs to.',
    envelope: 'plain',
    body: {
      schema: {
        type: 'object',
        required: ['email'],
        properties: { email: { type: 'string' }, language: { type: 'string', enum: ['ru', 'en'] } },
      },
      example: { email: 'helpdesk@example.com', language: 'en' },
    },
    ok: { schema: { type: 'object' }, example: {} },
    errors: { 400: 'email must be an e-mail address.' },
  },
  finish: {
    summary: 'Finishes a sign-in: the mailed code and the second factor',
    description:
      'Both codes right: a session (`Set-Cookie`), journaled `AdminPanel SignIn` with `2FAMethod` and `UserIp`. A wrong second factor is ' +
      'journaled too (success false), and the fifth in a row makes the administrator TemporaryLocked for 15 minutes. Any wrong or ' +
      'expired code is 401 "The codes are wrong or have expired."; a Locked, Pending or TemporaryLocked administrator is 403. ' +
      SESSION_RULES,
    envelope: 'plain',
    body: {
      schema: {
        type: 'object',
        required: ['email', 'emailCode', 'secondFactorCode'],
        properties: { email: { type: 'string' }, emailCode: { type: 'string' }, secondFactorCode: { type: 'string' } },
      },
      example: { email: 'helpdesk@example.com', emailCode: '40718265', secondFactorCode: '123456' },
    },
    ok: { schema: SESSION_VIEW, example: SESSION_EXAMPLE },
    errors: {
      400: 'emailCode must be the code of the mail.',
      403: 'This administrator cannot sign in now. Ask another administrator of the account.',
    },
  },
  session: {
    summary: 'The signed-in administrator and the session’s CSRF token',
    description: 'With the session cookie alone (a console page opened in a new tab gets its CSRF token here); 401 without a live session.',
    envelope: 'plain',
    ok: { schema: SESSION_VIEW, example: SESSION_EXAMPLE },
  },
  dashboard: {
    summary: 'The account at a glance',
    description:
      'Licences and users, locked users, code lockouts in force, today’s (UTC) granted and denied sign-ins, approvals waiting. ' +
      'A console session of any role.',
    envelope: 'plain',
    ok: {
      schema: {
        type: 'object',
        properties: Object.fromEntries(
          ['licenses', 'users', 'lockedUsers', 'codeLockouts', 'signInsGranted', 'signInsDenied', 'approvalsWaiting'].map((name) => [
            name,
            { type: 'integer' },
          ]),
        ),
      },
      example: { licenses: 500, users: 312, lockedUsers: 2, codeLockouts: 1, signInsGranted: 1840, signInsDenied: 37, approvalsWaiting: 3 },
    },
  },
  selfLock: {
    summary: 'Locks the signed-in administrator out of the console',
    description:
      'The administrator becomes Locked, their sessions end, and only another Admin unlocks them (journaled `Employee SelfLock`, and ' +
      '`Employee SelfUnlock` when unlocked). The last Active Admin cannot: "Cannot lock last scope admin.". Needs the cookie, the CSRF ' +
      'token and the console’s origin.',
    envelope: 'plain',
    ok: { schema: { type: 'object' }, example: {} },
    errors: { 400: 'Cannot lock last scope admin.', 403: 'The request does not come from the console.' },
  },
  signOut: {
    summary: 'Signs out: ends the session',
    description: 'Needs the cookie, the CSRF token and the console’s origin.',
    envelope: 'plain',
    ok: { schema: { type: 'object' }, example: {} },
    errors: { 403: 'The request does not come from the console.' },
  },
} satisfies Record<string, RouteDoc>;

const API_VIEW = {
  type: 'object',
  required: ['enabled', 'apiKey'],
  properties: {
    enabled: { type: 'boolean', description: 'whether the API key is accepted (console sessions work either way)' },
    apiKey: { type: 'string', nullable: true, description: 'null until the API is enabled for the first time' },
  },
};

const SECRET_VIEW = {
  type: 'object',
  required: ['enabled', 'apiKey', 'apiSecret'],
  properties: { ...API_VIEW.properties, apiKey: { type: 'string' }, apiSecret: { type: 'string' } },
};

const API_EXAMPLE = { enabled: true, apiKey: '3f2a9c1e5b7d4e8f9a0b1c2d3e4f5a6b' };
const SECRET_EXAMPLE = { ...API_EXAMPLE, apiSecret: EXAMPLE.apiSecret };
const ADMIN_ONLY =
  'An Admin’s console session only (the cookie, the CSRF token and, for a POST, the console’s origin); another role is 403 "Your role does not allow this.".';
const NEVER_ENABLED = 'The API of this account has never been enabled: enable it first.';

export const CONSOLE_ACCOUNT_API_DOCS = {
  read: {
    summary: 'The account API: on or off, and its key',
    description: `Never the secret. ${ADMIN_ONLY}`,
    envelope: 'plain',
    ok: { schema: API_VIEW, example: API_EXAMPLE },
  },
  displaySecret: {
    summary: 'Shows the account API’s secret (journal: PublicApiSecret Display)',
    description: `Each display is journaled with the administrator as the actor; the secret is in the answer only. ${ADMIN_ONLY}`,
    envelope: 'plain',
    ok: { schema: SECRET_VIEW, example: SECRET_EXAMPLE },
    errors: { 400: NEVER_ENABLED },
  },
  rotateSecret: {
    summary: 'Gives the account API a new secret, shown once (journal: PublicApiSecret Update)',
    description: `The key stays; the old secret stops working at once, on every instance. ${ADMIN_ONLY}`,
    envelope: 'plain',
    ok: { schema: SECRET_VIEW, example: SECRET_EXAMPLE },
    errors: { 400: NEVER_ENABLED },
  },
  enable: {
    summary: 'Turns the account API on (journal: Api Enable)',
    description: `The first time generates the key and secret (shown by \`POST …/secret/display\`); later the same credentials work again. ${ADMIN_ONLY}`,
    envelope: 'plain',
    ok: { schema: API_VIEW, example: API_EXAMPLE },
  },
  disable: {
    summary: 'Turns the account API off (journal: Api Disable)',
    description: `The key is refused with 403 "The extended API is disabled for this account." until enabled again; console sessions keep working. ${ADMIN_ONLY}`,
    envelope: 'plain',
    ok: { schema: API_VIEW, example: { ...API_EXAMPLE, enabled: false } },
  },
} satisfies Record<string, RouteDoc>;
