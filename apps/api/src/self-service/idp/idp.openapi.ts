import { SchemaObject } from '@nestjs/swagger';
import { RouteDoc } from '../../openapi/api-route';

/* The login service of current portal releases: `{success, message, data}`, enums as integers. */

function idpEnvelope(data: SchemaObject): SchemaObject {
  return {
    type: 'object',
    required: ['success', 'message', 'data'],
    properties: { success: { type: 'boolean' }, message: { type: 'string', nullable: true }, data: { ...data, nullable: true } },
  };
}

const STEP: SchemaObject = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    action: {
      type: 'integer',
      description: 'LoginAction: 0 Error, 2 MfaRequired, 6 AccessDenied (IdentityAction: 0 Error, 1 MfaRequired)',
    },
    redirectUrl: { type: 'string', nullable: true, description: 'the access page' },
    username: { type: 'string', nullable: true },
    errorMessage: { type: 'string', nullable: true },
  },
};
const COMPLETED: SchemaObject = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    action: { type: 'integer', description: 'LoginCompletedAction: 0 Error, 1 Authenticated, 4 ChangePassword' },
    sessionId: { type: 'string', nullable: true },
    tokenExpirationDate: { type: 'string', format: 'date-time', nullable: true },
    identity: { type: 'string', nullable: true },
    rawUserName: { type: 'string', nullable: true },
    mustChangePassword: { type: 'boolean' },
    errorMessage: { type: 'string', nullable: true },
  },
};
const LOGIN_BODY: SchemaObject = {
  type: 'object',
  required: ['verifiedCredentials', 'loginCompletedCallbackUrl'],
  properties: {
    verifiedCredentials: {
      type: 'object',
      description:
        'what the portal found in its directory: `isAuthenticated`, `userMustChangePassword`, `username`, `displayName`, `email`, `phone`, `customIdentity`',
    },
    additionalClaims: { type: 'object', description: 'carried in the token' },
    loginCompletedCallbackUrl: { type: 'string', description: 'where the access page posts `accessToken`' },
    settings: { type: 'object', description: '`netBiosName` and `signUpGroups` are used' },
  },
};
const STEP_EXAMPLE = {
  success: true,
  message: null,
  data: { success: true, action: 2, redirectUrl: 'https://twofold.example/access/6b1f0e52-3d6a-4c39-8a0f-3f6b1d0c2e77', username: 'jane' },
};

export const IDP_DOCS = {
  login: {
    summary: 'Sign-in after the portal checked the password: an access request for the second factor',
    description: "`isBypass` is not honoured: only the account's IP lists skip the second factor.",
    envelope: 'model',
    body: {
      schema: LOGIN_BODY,
      example: {
        verifiedCredentials: {
          isAuthenticated: true,
          isBypass: false,
          userMustChangePassword: false,
          username: 'jane',
          displayName: 'Jane Doe',
        },
        loginCompletedCallbackUrl: 'https://sspr.corp.example/account/PostbackFromMfa',
        settings: { netBiosName: 'CORP', signUpGroups: '' },
      },
    },
    ok: { schema: idpEnvelope(STEP), example: STEP_EXAMPLE },
    errors: { 400: 'Malformed JSON body.' },
  },
  identity: {
    summary: 'Pre-authentication sign-in: the second factor before the password',
    envelope: 'model',
    body: {
      schema: {
        type: 'object',
        required: ['username', 'loginCompletedCallbackUrl'],
        properties: { username: { type: 'string' }, loginCompletedCallbackUrl: { type: 'string' } },
      },
      example: { username: 'jane', loginCompletedCallbackUrl: 'https://sspr.corp.example/account/PostbackFromMfa', settings: {} },
    },
    ok: { schema: idpEnvelope(STEP), example: { ...STEP_EXAMPLE, data: { ...STEP_EXAMPLE.data, action: 1 } } },
    errors: { 400: 'Malformed JSON body.' },
  },
  loginCompleted: {
    summary: 'Confirms the access token the access page posted to the portal (form `accessToken`)',
    envelope: 'model',
    body: {
      schema: { type: 'object', required: ['accessToken'], properties: { accessToken: { type: 'string' } } },
      example: { accessToken: 'eyJhbGciOiJSUzI1NiJ9.RVhBTVBMRQ.RVhBTVBMRQ' },
    },
    ok: {
      schema: idpEnvelope(COMPLETED),
      example: {
        success: true,
        message: null,
        data: {
          success: true,
          action: 1,
          sessionId: '6b1f0e52-3d6a-4c39-8a0f-3f6b1d0c2e77',
          tokenExpirationDate: '2026-05-20T11:00:00.000Z',
          identity: 'CORP\\jane',
          rawUserName: 'jane',
          mustChangePassword: false,
          errorMessage: null,
        },
      },
    },
    errors: { 400: 'Malformed JSON body.' },
  },
  loadProfile: {
    summary: "The signed-in user's profile (Bearer), as `GET /self-service` in this envelope",
    envelope: 'model',
    ok: {
      schema: idpEnvelope({ type: 'object' }),
      example: {
        success: true,
        message: null,
        data: { id: 'b1c8e2f4-4c1e-4a8b-9a51-2f7d0c3e9a11', identity: 'jane', name: null, email: null },
      },
    },
  },
  logout: {
    summary: 'Sign-out (Bearer): nothing is kept server-side, always a success',
    envelope: 'model',
    ok: { schema: idpEnvelope({ type: 'object' }), example: { success: true, message: null, data: { success: true, errorMessage: null } } },
  },
  samlBypass: {
    summary: 'SAML single sign-on bypass: not available',
    envelope: 'model',
    ok: {
      schema: idpEnvelope({ type: 'object' }),
      example: {
        success: false,
        message: 'Single sign-on bypass is not available: Twofold is not a SAML or OpenID Connect identity provider.',
        data: null,
      },
    },
  },
  oidcBypass: {
    summary: 'OpenID Connect single sign-on bypass: not available',
    envelope: 'model',
    ok: {
      schema: idpEnvelope({ type: 'object' }),
      example: {
        success: false,
        message: 'Single sign-on bypass is not available: Twofold is not a SAML or OpenID Connect identity provider.',
        data: null,
      },
    },
  },
} satisfies Record<string, RouteDoc>;
