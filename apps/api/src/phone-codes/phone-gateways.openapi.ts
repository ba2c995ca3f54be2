import { ApiProperty } from '@nestjs/swagger';
import { ok } from '../http/envelope';
import { RouteDoc } from '../openapi/api-route';
import { modelEnvelope, ref } from '../openapi/common.openapi';
import { PhoneDestinationsDto, PhoneGatewayDto } from './phone-gateways.dto';

export class GatewayBasicAuth {
  @ApiProperty() username!: string;
  @ApiProperty({ description: 'stored encrypted, never shown' }) password!: string;
}

/** The HTTP template gateway as `PUT /settings/sms-gateway` and `/settings/call-gateway` take it. */
export class SetPhoneGateway {
  @ApiProperty({
    description: 'http(s) URL; `{phone}`, `{text}`, `{code}` are replaced (URL-encoded)',
    example: 'https://sms.example/send',
  })
  url!: string;
  @ApiProperty({ enum: ['GET', 'POST', 'PUT'], required: false, description: 'default POST' })
  method?: string;
  @ApiProperty({ enum: ['json', 'form', 'none'], required: false, description: 'default json (none for GET)' })
  bodyFormat?: string;
  @ApiProperty({
    required: false,
    type: Object,
    additionalProperties: { type: 'string' },
    description: 'the body fields; `{phone}` (E.164), `{text}` and `{code}` are replaced in the values',
  })
  body?: Record<string, string>;
  @ApiProperty({
    required: false,
    type: Object,
    additionalProperties: { type: 'string' },
    description: 'headers sent (values never shown again)',
  })
  headers?: Record<string, string>;
  @ApiProperty({
    required: false,
    type: GatewayBasicAuth,
    nullable: true,
    description: 'Basic auth (the password is stored encrypted and never shown)',
  })
  basicAuth?: { username: string; password: string } | null;
  @ApiProperty({
    required: false,
    nullable: true,
    type: String,
    description: 'the message was taken only when the 2xx answer contains this text',
  })
  successContains?: string | null;
  @ApiProperty({ required: false, minimum: 100, maximum: 10000, description: 'milliseconds; default 5000' })
  timeoutMs?: number;
}

const GATEWAY_EXAMPLE = ok<PhoneGatewayDto>({
  method: 'sms',
  source: 'account',
  url: 'https://sms.example/send',
  httpMethod: 'POST',
  bodyFormat: 'json',
  basicAuth: true,
  headers: ['X-Api-Key'],
});
const SET_EXAMPLE = {
  url: 'https://sms.example/send',
  method: 'POST',
  bodyFormat: 'json',
  body: { to: '{phone}', message: '{text}' },
  headers: { 'X-Api-Key': 'key' },
  basicAuth: { username: 'acme', password: 'secret' },
  successContains: '"status":"queued"',
  timeoutMs: 5000,
};

function gatewayDocs(method: 'sms' | 'call', journal: 'ExternalSMS' | 'ExternalSIP') {
  const what = method === 'sms' ? 'SMS' : 'call';
  return {
    read: {
      summary: `Read where the account's ${what} codes go`,
      envelope: 'model',
      ok: { schema: modelEnvelope(ref(PhoneGatewayDto)), example: { ...GATEWAY_EXAMPLE, model: { ...GATEWAY_EXAMPLE.model, method } } },
    },
    set: {
      summary: `Set the account's own ${what} gateway (journal: ${journal} Enable)`,
      description:
        'An HTTP template gateway. Its passwords, tokens and header values are stored encrypted and never shown in an answer or the journal. A gateway that does not take a message (down, slow, an error or an unexpected answer) ends the sign-in Denied at once; its answer body is never shown.',
      envelope: 'model',
      body: { type: SetPhoneGateway, example: SET_EXAMPLE },
      ok: { schema: modelEnvelope(ref(PhoneGatewayDto)), example: { ...GATEWAY_EXAMPLE, model: { ...GATEWAY_EXAMPLE.model, method } } },
      errors: { 400: 'url must be an http(s) URL.' },
    },
    remove: {
      summary: `Remove the account's own ${what} gateway: the service's is used again (journal: ${journal} Disable)`,
      envelope: 'model',
      ok: {
        schema: modelEnvelope(ref(PhoneGatewayDto)),
        example: ok<PhoneGatewayDto>({
          method,
          source: 'outbox',
          url: null,
          httpMethod: null,
          bodyFormat: null,
          basicAuth: false,
          headers: [],
        }),
      },
    },
  } satisfies Record<string, RouteDoc>;
}

export const PHONE_GATEWAY_DOCS = {
  sms: gatewayDocs('sms', 'ExternalSMS'),
  call: gatewayDocs('call', 'ExternalSIP'),
  destinations: {
    summary: 'Read the countries codes may be sent to',
    envelope: 'model',
    ok: { schema: modelEnvelope(ref(PhoneDestinationsDto)), example: ok<PhoneDestinationsDto>({ allowedPrefixes: ['+7'] }) },
  } satisfies RouteDoc,
  setDestinations: {
    summary: 'Set the countries codes may be sent to, by E.164 prefix (journal: ExternalSMS ChangeDestinations)',
    description:
      'A code to a number outside the list is not sent: the sign-in is Denied, and the hit is journaled (AccessRequest PhoneCodeLimit) and counted.',
    envelope: 'model',
    body: { type: PhoneDestinationsDto, example: { allowedPrefixes: ['+7', '+375'] } },
    ok: { schema: modelEnvelope(ref(PhoneDestinationsDto)), example: ok<PhoneDestinationsDto>({ allowedPrefixes: ['+7', '+375'] }) },
    errors: { 400: 'Each prefix must be "+" and one to six digits, such as "+7".' },
  } satisfies RouteDoc,
};
