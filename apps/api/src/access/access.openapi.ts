import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACCESS_REQUEST_STATUSES, CALLBACK_TARGETS, RA_STATUSES } from '@twofold/domain';
import { REFUSALS } from '../http/input-guard';
import { RouteDoc } from '../openapi/api-route';
import { EnvelopeErrorBody, EXAMPLE, modelEnvelope, PAGE_QUERY, pagedOf, ref, Schema } from '../openapi/common.openapi';
import { USER_NOT_REGISTERED } from './ra/ra-replies';

export class AccessCallback {
  @ApiProperty({
    description: 'where the browser returns: an http(s) URL, or the one postMessage form the AD FS and Keycloak integrations send',
  })
  action!: string;
  @ApiPropertyOptional({ enum: CALLBACK_TARGETS }) target?: string;
}

export class GroupPolicyPreset {
  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'group names separated by `;`' }) signUpGroups?: string | null;
}

export class AccessRequestBody {
  @ApiProperty({ description: "the user's login in the client's system" }) identity!: string;
  @ApiPropertyOptional({ type: 'string', nullable: true }) email?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) phone?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true, description: '`en…` English, `ru…` Russian, else Russian' }) language?:
    | string
    | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'copied into the token with their JSON types' })
  claims?: Record<string, unknown>;
  @ApiPropertyOptional({ type: AccessCallback }) callback?: AccessCallback;
  @ApiPropertyOptional({ type: GroupPolicyPreset }) groupPolicyPreset?: GroupPolicyPreset;
}

export class CreatedAccessRequest {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uri', description: '`$ACCESS_URL/<id>`: send the browser there' }) url!: string;
  @ApiProperty({ enum: ACCESS_REQUEST_STATUSES }) status!: string;
}

/** An access request's history item; geo fields are null (no geo database). */
export class AccessRequest {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() identity!: string;
  @ApiProperty({ enum: ACCESS_REQUEST_STATUSES }) status!: string;
  @ApiProperty({ type: 'string', nullable: true }) resourceName!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) grantedAt!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) authenticator!: string | null;
  @ApiProperty({
    enum: ['page', 'ra', 'md', 'la'],
    description: 'how the request came: the access page, `ra` (RADIUS), `md` (a directory bind), `la` (the LDAP adapter)',
  })
  channel!: string;
  @ApiProperty({ type: 'string', nullable: true }) countryCode!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) region!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) city!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) remoteHost!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) ip!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) twoFADeviceIp!: string | null;
  @ApiProperty({ description: 'granted without a code: the address is on a Bypass IP list' }) bypassed!: boolean;
}

export class PassCodeBody {
  @ApiProperty() identity!: string;
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: 'the code; null or empty: ask for it (two steps); `t`, `m`, `s`, `c`: a delivery method',
  })
  passCode?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) language?: string | null;
}

export class DirectoryBindBody extends PassCodeBody {
  @ApiPropertyOptional({ type: GroupPolicyPreset }) groupPolicyPreset?: GroupPolicyPreset;
}

/** The LDAP adapter's body: no code at all, the service chooses the approval factor. */
export class LdapBindBody {
  @ApiProperty() identity!: string;
  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'ignored' }) email?: string | null;
}

export class ChallengeBody {
  @ApiProperty() identity!: string;
  @ApiProperty({ description: 'the code' }) challenge!: string;
  @ApiProperty({ format: 'uuid', description: 'the id of the AwaitingAuthentication answer' }) requestId!: string;
}

/** Every field, every time, refusals included; unknown values are null. */
export class RaModel {
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'null only when no request was recorded' }) id!:
    | string
    | null;
  @ApiProperty({ type: 'string', nullable: true }) identity!: string | null;
  @ApiProperty({ enum: RA_STATUSES }) status!: string;
  @ApiProperty({ maxLength: 253, description: "shown to the user by the VPN, in the request's language" }) replyMessage!: string;
  @ApiProperty({ type: 'string', nullable: true }) authenticator!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) authenticatorId!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) account!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) phone!: string | null;
  @ApiProperty({ description: 'Granted without a code: the address is on a Bypass IP list' }) bypassed!: boolean;
  @ApiProperty({ type: 'string', nullable: true }) countryCode!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) region!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) city!: string | null;
}

/** A refusal on a client-facing POST also carries the trace id. */
function withTraceId(schema: Schema): Schema {
  return { allOf: [schema, { type: 'object', properties: { traceId: { type: 'string', description: 'on refusals' } } }] };
}

const ok = (model: unknown, message: string | null = null) => ({ model, success: true, message });
const RA_NULLS = { authenticatorId: null, account: null, phone: null, bypassed: false, countryCode: null, region: null, city: null };
const MALFORMED = 'Malformed JSON body.';

const raDoc = (summary: string, body: RouteDoc['body'], description: string): RouteDoc => ({
  summary,
  description: `${description} Every outcome is 200 with the whole model; \`success\` is true exactly for Granted and AwaitingAuthentication.`,
  envelope: 'model',
  body,
  ok: {
    schema: withTraceId(modelEnvelope(ref(RaModel))),
    examples: {
      awaiting: {
        summary: 'code asked for',
        value: ok({
          ...RA_NULLS,
          id: EXAMPLE.requestId,
          identity: 'jane',
          status: 'AwaitingAuthentication',
          replyMessage: 'Enter the code from your authenticator app or token.',
          authenticator: null,
        }),
      },
      granted: {
        summary: 'granted',
        value: ok({
          ...RA_NULLS,
          id: EXAMPLE.requestId,
          identity: 'jane',
          status: 'Granted',
          replyMessage: 'Access granted.',
          authenticator: 'TotpToken',
          authenticatorId: EXAMPLE.authenticatorId,
          account: 'Token 1',
        }),
      },
      unknownUser: {
        summary: 'refused: unknown identity',
        value: {
          model: {
            ...RA_NULLS,
            id: null,
            identity: 'nobody',
            status: 'Denied',
            replyMessage: 'Access denied: the user is not registered.',
            authenticator: null,
          },
          success: false,
          message: USER_NOT_REGISTERED,
        },
      },
    },
  },
  errors: { 400: MALFORMED },
});

export const ACCESS_DOCS = {
  create: {
    summary: 'Create an access request (resource credentials)',
    description: 'Refusals (validation, quota, policy) are 200 `success: false`.',
    envelope: 'model',
    body: {
      type: AccessRequestBody,
      example: {
        identity: 'jane',
        language: 'en',
        claims: { role: 'staff' },
        callback: { action: 'https://app.example.com/login/callback', target: '_self' },
      },
    },
    ok: {
      schema: { oneOf: [modelEnvelope(ref(CreatedAccessRequest)), ref(EnvelopeErrorBody)] },
      examples: {
        created: {
          summary: 'created',
          value: ok({
            id: EXAMPLE.requestId,
            url: `https://twofold.example.com/access/${EXAMPLE.requestId}`,
            status: 'AwaitingAuthentication',
          }),
        },
        refused: {
          summary: 'refused',
          value: { model: null, success: false, message: 'Users quota exceeded', traceId: EXAMPLE.traceId },
        },
      },
    },
    errors: { 400: MALFORMED, 413: 'Request body exceeds 1 MiB.' },
  },
  history: {
    summary: 'Access request history of one past day (account credentials)',
    envelope: 'model',
    query: [
      { name: 'createdAt', required: true, type: String, format: 'date', description: 'yyyy-mm-dd, a past UTC day (not today)' },
      { name: 'identity', required: false, type: String, description: 'filter by login' },
      ...PAGE_QUERY,
    ],
    ok: {
      schema: modelEnvelope(pagedOf(ref(AccessRequest))),
      example: ok({
        data: [
          {
            id: EXAMPLE.requestId,
            identity: 'jane',
            status: 'Granted',
            resourceName: 'VPN',
            createdAt: EXAMPLE.timestamp,
            grantedAt: EXAMPLE.timestamp,
            authenticator: 'Totp',
            countryCode: null,
            region: null,
            city: null,
            remoteHost: '192.0.2.10',
            ip: '192.0.2.10',
            twoFADeviceIp: '192.0.2.10',
            bypassed: false,
            channel: 'page',
          },
        ],
        offset: 0,
        limit: 100,
        totalElements: 1,
      }),
    },
    errors: { 400: 'createdAt must be a past day, not today or later.' },
  },
  find: {
    summary: 'Poll one access request (resource credentials)',
    envelope: 'model',
    ok: {
      schema: modelEnvelope(ref(AccessRequest)),
      example: ok({
        id: EXAMPLE.requestId,
        identity: 'jane',
        status: 'AwaitingAuthentication',
        resourceName: 'VPN',
        createdAt: EXAMPLE.timestamp,
        grantedAt: null,
        authenticator: null,
        countryCode: null,
        region: null,
        city: null,
        remoteHost: null,
        ip: null,
        twoFADeviceIp: null,
        bypassed: false,
        channel: 'page',
      }),
    },
    errors: { 404: 'Access request not found.' },
  },
  passCode: raDoc(
    'Check a code without a browser (RADIUS), or ask for it',
    { type: PassCodeBody, example: { identity: 'jane', passCode: null, language: 'en' } },
    'Without a passCode a user with a code factor gets AwaitingAuthentication and a prompt; with a code it is checked in one step.',
  ),
  challenge: raDoc(
    'Second step of the RADIUS flow: the code for an AwaitingAuthentication request',
    { type: ChallengeBody, example: { identity: 'jane', challenge: '123456', requestId: EXAMPLE.requestId } },
    'A wrong code answers AwaitingAuthentication until the five attempts are spent; a decided, expired or foreign request is Denied.',
  ),
  directoryBind: raDoc(
    "A directory server's LDAP bind: the same check as `ra`",
    { type: DirectoryBindBody, example: { identity: 'jane', passCode: '123456', groupPolicyPreset: { signUpGroups: 'VPN; Staff' } } },
    'Behaves as `ra` with that passCode.',
  ),
  ldapBind: raDoc(
    "The LDAP adapter's bind: always an approval on the user's phone (Telegram, the mobile app); the answer is held until the user decides, at most APPROVAL_WAIT_SECONDS",
    { type: LdapBindBody, example: { identity: 'jane', email: 'jane@example.com' } },
    'Granted when approved; Denied when rejected, not confirmed in time, not deliverable, or when the user has no approval factor.',
  ),
} satisfies Record<string, RouteDoc>;

const CODE_FORM = {
  type: 'object',
  properties: {
    code: {
      type: 'string',
      description: 'the one-time code: 6 to 8 digits, or a 12-character recovery or helpdesk code (dashes and spaces ignored)',
    },
    send: {
      type: 'string',
      enum: ['sms', 'call'] as string[],
      description: '"send a code by SMS" / "call me" pressed: a code is sent to the user\'s phone (no `code` then)',
    },
  },
  additionalProperties: { type: 'string', description: "the form's hidden inputs, posted back as they are" },
} as const;

/** `$ACCESS_URL/<id>`: the access page, HTML for people; the unguessable request id is the key. */
export const ACCESS_PAGE_DOCS = {
  telegram: {
    summary: "The enrolling access page's check of its Telegram link (JSON)",
    statuses: {
      200: '`{"bound": true}` once the bot bound the user\'s chat through the link, else `{"bound": false}`',
      404: 'unknown request',
    },
  },
  mobileApp: {
    summary: "The enrolling access page's check of its Twofold Authenticator enrollment token (JSON)",
    description:
      'The page names the token by its id (`?token=`), never by the token itself. Another user\'s token, or one that enrolled nothing yet, is `{"enrolled": false}`.',
    statuses: {
      200: '`{"enrolled": true}` once the app registered a device with the token the page shows, else `{"enrolled": false}`',
      404: 'unknown request',
    },
  },
  approval: {
    summary: "The access page's long poll while it waits for the user's approval on their phone (JSON)",
    statuses: {
      200: '`{"status": "pending"}` at the bound of one poll (ask again), `{"status": "decided"}` (post the page\'s form)',
      404: 'unknown request',
    },
  },
  show: {
    summary: 'The access page (HTML): enrollment of an authenticator app, or the code prompt',
    statuses: {
      200: 'the enrollment view or the code prompt',
      403: 'denied, locked, too many codes',
      404: 'unknown request',
      410: 'expired or used',
    },
  },
  submit: {
    summary: 'The code posted by the access page; on success, the page returning the browser with `accessToken`',
    form: CODE_FORM,
    errors: { 400: REFUSALS.unstorable },
    statuses: {
      200: 'granted (auto-submits to the callback), or the prompt again',
      403: 'denied',
      404: 'unknown request',
      410: 'expired or used',
    },
  },
};
