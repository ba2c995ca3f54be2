import { RouteDoc } from '../openapi/api-route';

const SIGNED =
  'Signed by the device: the body carries `deviceId`, `counter` (greater than every counter the device sent before), `time` (Unix seconds, ' +
  'within 5 minutes of the service) and `signature`: ECDSA P-256 with SHA-256, r‖s (64 bytes) in base64url, over the lines ' +
  '`twofold-app-1`, the operation, the device id, the counter, the time and the operation’s own fields, joined by "\\n". ' +
  'A request whose signature, counter or time does not hold is 403 and changes nothing.';

const ENVELOPE_PROPERTIES = {
  deviceId: { type: 'string', format: 'uuid' },
  counter: { type: 'integer', minimum: 1 },
  time: { type: 'integer' },
  signature: { type: 'string' },
};

const SUBSCRIPTION = {
  type: 'object',
  required: ['endpoint', 'keys'],
  properties: {
    endpoint: { type: 'string' },
    keys: { type: 'object', required: ['p256dh', 'auth'], properties: { p256dh: { type: 'string' }, auth: { type: 'string' } } },
  },
};

const EXAMPLE_SIGNATURE = 'MEUCIQDexampleexampleexampleexampleexampleexampleexampleexampleexampleexampleexample';
const EXAMPLE_ENVELOPE = { deviceId: '7a1c2d3e-0000-4000-8000-000000000001', counter: 12, time: 1779271200, signature: EXAMPLE_SIGNATURE };

export const MOBILE_APP_DOCS = {
  pushKey: {
    summary: "The service's VAPID public key, for the app's push subscription",
    description: 'The `applicationServerKey` the app subscribes with (base64url, uncompressed P-256). Public.',
    envelope: 'plain',
    ok: { schema: { type: 'object', properties: { publicKey: { type: 'string' } } }, example: { publicKey: 'BExample' } },
  },
  enroll: {
    summary: 'Registers a device with an enrollment token',
    description:
      'The app makes a non-extractable P-256 key pair and sends its public key (JWK or base64 SPKI) with the single-use, expiring token ' +
      'a page gave it, and its Web Push subscription. Signed by that key over `twofold-app-1`, `enroll`, the token, the counter, the time, ' +
      'then the subscription’s endpoint, p256dh and auth (three `-` without one). The user gets a `MobileApp` authenticator whose id is `deviceId`. ' +
      'A token that is unknown, spent or expired is 410; a bad signature 403. ' +
      'The answer carries, this once, the device’s TOTP secret (Base32, RFC 6238 SHA-1, 6 digits, 30 s): the app shows its codes, ' +
      'which the service accepts like any authenticator app’s until the device is deleted.',
    envelope: 'plain',
    body: {
      schema: {
        type: 'object',
        required: ['token', 'publicKey', 'counter', 'time', 'signature'],
        properties: {
          token: { type: 'string' },
          publicKey: { oneOf: [{ type: 'string' }, { type: 'object' }] },
          name: { type: 'string' },
          subscription: SUBSCRIPTION,
          counter: { type: 'integer', minimum: 1 },
          time: { type: 'integer' },
          signature: { type: 'string' },
        },
      },
      example: {
        token: 'q3Jd…',
        publicKey: { kty: 'EC', crv: 'P-256', x: '…', y: '…' },
        counter: 1,
        time: 1779271200,
        signature: EXAMPLE_SIGNATURE,
      },
    },
    ok: {
      schema: {
        type: 'object',
        properties: {
          deviceId: { type: 'string' },
          accountName: { type: 'string' },
          identity: { type: 'string' },
          totp: {
            type: 'object',
            properties: {
              secret: { type: 'string', description: 'Base32' },
              algorithm: { type: 'string', enum: ['SHA1'] },
              digits: { type: 'integer' },
              period: { type: 'integer' },
            },
          },
        },
      },
      example: {
        deviceId: '7a1c2d3e-0000-4000-8000-000000000001',
        accountName: 'Acme',
        identity: 'alice',
        totp: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', algorithm: 'SHA1', digits: 6, period: 30 },
      },
    },
    errors: {
      400: 'publicKey must be a P-256 public key (JWK or SPKI).',
      403: 'The request is not signed by a registered device.',
      410: 'This enrollment link is no longer valid.',
    },
  },
  approvals: {
    summary: "The device's pending approvals",
    description:
      `${SIGNED} Operation \`approvals\`, no fields of its own. Each approval names the account, the resource, the sign-in's address and time, ` +
      'the three numbers to offer for a browser sign-in (null: approve / "it wasn\'t me"), and the `nonce` to sign with the decision.',
    envelope: 'plain',
    body: {
      schema: { type: 'object', required: ['deviceId', 'counter', 'time', 'signature'], properties: ENVELOPE_PROPERTIES },
      example: EXAMPLE_ENVELOPE,
    },
    ok: {
      schema: { type: 'object', properties: { approvals: { type: 'array', items: { type: 'object' } } } },
      example: { approvals: [] },
    },
    errors: { 400: 'counter must be a positive integer.', 403: 'The request is not signed by a registered device.' },
  },
  decide: {
    summary: 'A signed decision on a pending approval',
    description:
      `${SIGNED} Operation \`decision\`, fields: the approval id, the choice (\`approve\`, \`notMe\` or the number picked) and the approval's nonce. ` +
      '`result` is `approved`, `rejected`, or `ignored` (not this device’s approval, decided, expired, or not a choice it offered: nothing changed).',
    envelope: 'plain',
    body: {
      schema: {
        type: 'object',
        required: ['deviceId', 'counter', 'time', 'signature', 'approvalId', 'choice', 'nonce'],
        properties: {
          ...ENVELOPE_PROPERTIES,
          approvalId: { type: 'string', format: 'uuid' },
          choice: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          nonce: { type: 'string' },
        },
      },
      example: { ...EXAMPLE_ENVELOPE, approvalId: '7a1c2d3e-0000-4000-8000-0000000000a1', choice: 42, nonce: 'n0nceExample' },
    },
    ok: {
      schema: { type: 'object', properties: { result: { type: 'string', enum: ['approved', 'rejected', 'ignored'] } } },
      example: { result: 'approved' },
    },
    errors: {
      400: 'choice must be "approve", "notMe" or a number from 10 to 99.',
      403: 'The request is not signed by a registered device.',
    },
  },
  subscription: {
    summary: "Replaces the device's Web Push subscription",
    description: `${SIGNED} Operation \`subscription\`, fields: the endpoint, p256dh and auth (three \`-\` to remove it).`,
    envelope: 'plain',
    body: {
      schema: {
        type: 'object',
        required: ['deviceId', 'counter', 'time', 'signature'],
        properties: { ...ENVELOPE_PROPERTIES, subscription: SUBSCRIPTION },
      },
      example: {
        ...EXAMPLE_ENVELOPE,
        subscription: { endpoint: 'https://push.example/send/abc', keys: { p256dh: 'BNcRd', auth: 'tBHItJI5svbpez7KI4CCXg' } },
      },
    },
    ok: { schema: { type: 'object', additionalProperties: false }, example: {} },
    errors: { 400: 'subscription.endpoint must be an https URL.', 403: 'The request is not signed by a registered device.' },
  },
} satisfies Record<string, RouteDoc>;

/** `$ACCESS_URL/app/`: the service's authenticator app, static files of its build (apps/authenticator). */
export const AUTHENTICATOR_APP_DOCS = {
  index: {
    summary: 'The Twofold Authenticator web app (HTML)',
    description:
      "The app’s page, with a strict CSP (`script-src 'self'`, `connect-src 'self'`, `frame-ancestors 'none'`, no inline script). " +
      'Enrollment links open `$ACCESS_URL/app/#enroll=<token>`: the token is in the fragment, which browsers never send. ' +
      'Without the trailing slash: 301 to the folder.',
    statuses: { 200: 'the app’s page (`Cache-Control: no-cache`)', 301: 'to `app/`' },
    errors: { 404: 'The authenticator app is not built (npm run build).' },
  },
  file: {
    summary: 'A file of the Twofold Authenticator web app',
    description:
      'The build’s files only, by exact name: the content-hashed script and style (cached for a year, immutable), `sw.js` (the service ' +
      'worker, `no-cache`), `manifest.webmanifest` and the icons (a day). Same CSP as the page.',
    statuses: { 200: 'the file, with its content type' },
    errors: { 404: 'The authenticator app has no such file.' },
  },
} as const;
