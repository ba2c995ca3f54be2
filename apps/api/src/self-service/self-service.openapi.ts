import { SchemaObject } from '@nestjs/swagger';
import { RouteDoc } from '../openapi/api-route';
import { arrayOf, modelEnvelope } from '../openapi/common.openapi';

/* The self-service portals' calls and the account settings that feed them, with inline schemas. */

const FACTOR: SchemaObject = {
  type: 'object',
  required: ['id', 'label'],
  properties: { id: { type: 'string' }, label: { type: 'string' } },
};
const FACTOR_LISTS_PROPERTIES: Record<string, SchemaObject> = {
  totpAuthenticators: arrayOf(FACTOR),
  telegramAuthenticators: arrayOf(FACTOR),
  mobileAppAuthenticators: arrayOf(FACTOR),
  phoneAuthenticators: arrayOf(FACTOR),
};
const FACTOR_LISTS: SchemaObject = {
  type: 'object',
  description: 'each list always an array; authenticator apps and hardware tokens are `totp`, phone numbers `phone`',
  required: Object.keys(FACTOR_LISTS_PROPERTIES),
  properties: FACTOR_LISTS_PROPERTIES,
};
const NO_FACTORS = { totpAuthenticators: [], telegramAuthenticators: [], mobileAppAuthenticators: [], phoneAuthenticators: [] };
const SOME_FACTORS = { ...NO_FACTORS, totpAuthenticators: [{ id: '5f0c3c7e-3a52-4f55-9d8e-0c6f1d2b7a10', label: 'Twofold' }] };
const PROFILE: SchemaObject = {
  type: 'object',
  required: ['id', 'identity', 'name', 'email', 'policy', ...Object.keys(FACTOR_LISTS_PROPERTIES)],
  properties: {
    id: { type: 'string', format: 'uuid' },
    identity: { type: 'string' },
    name: { type: 'string', nullable: true },
    email: { type: 'string', nullable: true },
    policy: {
      type: 'object',
      description:
        'every resource is permitted (Twofold has no per-resource permissions); `totp`, `telegram`, `mobileApp`, `phone`: the kinds the user may set up from the portal',
      properties: {
        allResourcesPermitted: { type: 'boolean' },
        permittedResources: arrayOf({ type: 'string' }),
        totp: { type: 'boolean' },
        telegram: { type: 'boolean' },
        mobileApp: { type: 'boolean' },
        phone: { type: 'boolean' },
      },
    },
    ...FACTOR_LISTS_PROPERTIES,
  },
};
const URL_MODEL: SchemaObject = { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } };
const SUPPORT_INFO: SchemaObject = {
  type: 'object',
  properties: {
    adminName: { type: 'string', nullable: true, maxLength: 200 },
    adminEmail: { type: 'string', nullable: true },
    adminPhone: { type: 'string', nullable: true, maxLength: 50 },
  },
};
const SHOWCASE: SchemaObject = {
  type: 'object',
  required: ['enabled', 'showcaseLinks'],
  properties: {
    enabled: { type: 'boolean' },
    showcaseLinks: arrayOf({
      type: 'object',
      required: ['url', 'title'],
      properties: {
        resourceId: { type: 'string' },
        url: { type: 'string', description: 'an absolute http(s) URL' },
        title: { type: 'string', maxLength: 200 },
        image: { type: 'string', description: 'the name of an uploaded logo, or empty' },
        openInNewTab: { type: 'boolean' },
      },
    }),
  },
};
const SUPPORT_EXAMPLE = { adminName: 'IT service desk', adminEmail: 'helpdesk@corp.example', adminPhone: '+1 555 0100' };
const SHOWCASE_EXAMPLE = {
  enabled: true,
  showcaseLinks: [{ resourceId: '', url: 'https://mail.corp.example/', title: 'Mail', image: 'mail.png', openInNewTab: true }],
};
const RECOVERY_BODY: SchemaObject = {
  type: 'object',
  required: ['identity', 'callbackUrl'],
  properties: {
    identity: { type: 'string' },
    callbackUrl: { type: 'string', description: 'an absolute http(s) URL: the page posts `accessToken` there' },
    claims: { type: 'object', description: "the portal's claims (`rawUserName`), carried in the token as sent" },
  },
};
const LOGO_NAME = { name: 'name', description: '1-100 characters of `A-Za-z0-9._-`, not starting with `.`' };
const ok = <T>(model: T) => ({ model, success: true, message: null });

export const SELF_SERVICE_DOCS = {
  profile: {
    summary: "The signed-in user's profile (Bearer: the user's access token)",
    description: 'A user deleted since the token was issued: 200 `{success: false, message: "UserNotRegistered"}`.',
    envelope: 'model',
    ok: {
      schema: modelEnvelope(PROFILE),
      example: ok({
        id: 'b1c8e2f4-4c1e-4a8b-9a51-2f7d0c3e9a11',
        identity: 'jane',
        name: 'Jane Doe',
        email: 'jane@corp.example',
        policy: { allResourcesPermitted: true, permittedResources: [], totp: true, telegram: false, mobileApp: false, phone: false },
        ...SOME_FACTORS,
      }),
    },
  },
  createEnrollmentRequest: {
    summary: 'A link to the page where the user manages their factors (Bearer)',
    description:
      'No body is read (the portals send none, or the JSON string `"{ }"`). The page is single use, expires after 15 minutes, is bound to the browser that opens it first, and asks for a code of a factor the user has before any change.',
    envelope: 'model',
    ok: { schema: modelEnvelope(URL_MODEL), example: ok({ url: 'https://twofold.example/access/my-factors/3q2-7wEAAAA' }) },
  },
  userAuthenticators: {
    summary: "A user's factors, by identity (the portal's resource key)",
    envelope: 'model',
    body: {
      schema: { type: 'object', required: ['identity'], properties: { identity: { type: 'string' } } },
      example: { identity: 'jane' },
    },
    ok: { schema: modelEnvelope(FACTOR_LISTS), example: ok(SOME_FACTORS) },
    errors: { 400: 'Identity is required.' },
  },
  supportInfo: {
    summary: "The account's support contact (the portal's resource key)",
    envelope: 'model',
    ok: { schema: modelEnvelope(SUPPORT_INFO), example: ok(SUPPORT_EXAMPLE) },
  },
  showcase: {
    summary: "The account's showcase tiles, at the top level (the portal's resource key)",
    envelope: 'model',
    ok: {
      schema: { ...SHOWCASE, properties: { ...SHOWCASE.properties, success: { type: 'boolean' } } },
      example: { ...SHOWCASE_EXAMPLE, success: true },
    },
  },
  logo: {
    summary: "A showcase tile's logo, as its bytes (the portal's resource key)",
    envelope: 'model',
    params: [{ name: 'image', description: LOGO_NAME.description }],
    ok: {
      schema: { type: 'string', format: 'binary' },
      example: '(the image bytes)',
      description: 'the image: `image/png`, `image/jpeg` or `image/webp`',
    },
    errors: {
      400: 'The logo name must be 1-100 characters of A-Z, a-z, 0-9, ".", "_" and "-", not starting with ".".',
      404: 'Logo not found.',
    },
  },
  startResetPassword: {
    summary: "Start a directory password reset (the portal's resource key)",
    description:
      'An access request whose page posts a token with `resetPassword: "true"` and the claims sent to `callbackUrl`. Only for a user who already has a factor the page can check: it never enrolls one, and a Bypass IP list does not skip it. Refusals are 200 `success: false`.',
    envelope: 'model',
    body: {
      schema: RECOVERY_BODY,
      example: {
        identity: 'jane',
        callbackUrl: 'https://sspr.corp.example/ForgottenPassword/Change',
        claims: { resetPassword: 'true', rawUserName: 'jane' },
      },
    },
    ok: { schema: modelEnvelope(URL_MODEL), example: ok({ url: 'https://twofold.example/access/6b1f0e52-3d6a-4c39-8a0f-3f6b1d0c2e77' }) },
    errors: { 400: 'Malformed JSON body.' },
  },
  startUnlockUser: {
    summary: "Start a directory account unlock (the portal's resource key)",
    description: 'As the password reset, with `unlockUser: "true"` in the token.',
    envelope: 'model',
    body: {
      schema: RECOVERY_BODY,
      example: { identity: 'jane', callbackUrl: 'https://sspr.corp.example/Unlock/Complete', claims: { unlockUser: 'true' } },
    },
    ok: { schema: modelEnvelope(URL_MODEL), example: ok({ url: 'https://twofold.example/access/6b1f0e52-3d6a-4c39-8a0f-3f6b1d0c2e77' }) },
    errors: { 400: 'Malformed JSON body.' },
  },
  newTotp: {
    summary: 'A new authenticator app for the user: a sealed key and its QR link (older portals; Bearer)',
    description: '`key` is sealed: it cannot be read, and only this user can add it, within 10 minutes.',
    envelope: 'model',
    ok: {
      schema: modelEnvelope({
        type: 'object',
        required: ['key', 'link'],
        properties: { key: { type: 'string' }, link: { type: 'string' } },
      }),
      example: ok({ key: 'EXAMPLE-SEALED-KEY', link: 'otpauth://totp/Acme:jane?secret=JBSWY3DPEHPK3PXP&issuer=Acme' }),
    },
  },
  addTotp: {
    summary: 'Add the authenticator app of a sealed key on its first right code (older portals; Bearer)',
    envelope: 'model',
    body: {
      schema: { type: 'object', required: ['key', 'otp'], properties: { key: { type: 'string' }, otp: { type: 'string' } } },
      example: { key: 'EXAMPLE-SEALED-KEY', otp: '123456' },
    },
    ok: { schema: modelEnvelope(FACTOR_LISTS), example: ok(SOME_FACTORS) },
    errors: { 400: 'The key is not valid: open the page for adding an authenticator app again.' },
  },
  removeFactor: {
    summary: "Remove one of the user's factors, never the last (older portals; Bearer)",
    description: 'Any content type and an empty body are accepted (the portal sends an empty form).',
    envelope: 'model',
    params: [{ name: 'kind', enum: ['totp', 'telegram', 'mobileapp', 'phone'] }],
    ok: { schema: modelEnvelope(FACTOR_LISTS), example: ok(SOME_FACTORS) },
    errors: { 400: 'The kind must be one of: totp, telegram, mobileapp, phone.', 404: 'Authenticator not found.' },
  },
  bypassSaml: {
    summary: 'SAML single sign-on bypass: not available',
    description: 'Always 200 `success: false`: Twofold is not a SAML identity provider.',
    envelope: 'model',
    ok: {
      schema: modelEnvelope(null),
      example: {
        model: null,
        success: false,
        message: 'SAML single sign-on bypass is not available: Twofold is not a SAML identity provider. Sign in through access requests.',
      },
    },
  },
  bypassOidc: {
    summary: 'OpenID Connect single sign-on bypass: not available',
    description: 'Always 200 `success: false`: Twofold is not an OpenID Connect identity provider.',
    envelope: 'model',
    ok: {
      schema: modelEnvelope(null),
      example: {
        model: null,
        success: false,
        message:
          'OpenID Connect single sign-on bypass is not available: Twofold is not an OpenID Connect identity provider. Sign in through access requests.',
      },
    },
  },
} satisfies Record<string, RouteDoc>;

export const SELF_SERVICE_SETTINGS_DOCS = {
  supportInfo: {
    summary: 'Read the support contact the self-service portals show',
    envelope: 'model',
    ok: { schema: modelEnvelope(SUPPORT_INFO), example: ok(SUPPORT_EXAMPLE) },
  },
  setSupportInfo: {
    summary: 'Set the support contact the self-service portals show (journal: SelfService ChangeSupportInfo)',
    envelope: 'model',
    body: { schema: SUPPORT_INFO, example: SUPPORT_EXAMPLE },
    ok: { schema: modelEnvelope(SUPPORT_INFO), example: ok(SUPPORT_EXAMPLE) },
    errors: { 400: 'adminName must be at most 200 characters.' },
  },
  showcase: {
    summary: "Read the self-service portals' showcase",
    envelope: 'model',
    ok: { schema: modelEnvelope(SHOWCASE), example: ok(SHOWCASE_EXAMPLE) },
  },
  setShowcase: {
    summary: "Set the self-service portals' showcase (journal: SelfService ChangeShowcase)",
    envelope: 'model',
    body: { schema: SHOWCASE, example: SHOWCASE_EXAMPLE },
    ok: { schema: modelEnvelope(SHOWCASE), example: ok(SHOWCASE_EXAMPLE) },
    errors: { 400: 'showcaseLinks[0].url must be an absolute http or https URL.' },
  },
  logos: {
    summary: "The names of the showcase's logos",
    envelope: 'model',
    ok: { schema: modelEnvelope(arrayOf({ type: 'string' })), example: ok(['mail.png']) },
  },
  putLogo: {
    summary: 'Upload or replace a showcase logo (journal: SelfService UploadLogo)',
    description: 'A PNG, JPEG or WebP image as its bytes prove, at most 256 KiB, sent as base64 in `data`.',
    envelope: 'model',
    params: [LOGO_NAME],
    body: {
      schema: { type: 'object', required: ['data'], properties: { data: { type: 'string', format: 'byte' } } },
      example: { data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' },
    },
    ok: {
      schema: modelEnvelope({
        type: 'object',
        properties: { name: { type: 'string' }, contentType: { type: 'string' }, size: { type: 'integer' } },
      }),
      example: ok({ name: 'mail.png', contentType: 'image/png', size: 70 }),
    },
    errors: { 400: 'The logo must be a PNG, JPEG or WebP image.', 413: 'Request body is too large.' },
  },
  deleteLogo: {
    summary: 'Delete a showcase logo (journal: SelfService DeleteLogo)',
    envelope: 'model',
    params: [LOGO_NAME],
    ok: { schema: modelEnvelope({ type: 'object', properties: { name: { type: 'string' } } }), example: ok({ name: 'mail.png' }) },
    errors: { 404: 'Logo not found.' },
  },
} satisfies Record<string, RouteDoc>;
