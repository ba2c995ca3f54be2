/**
 * The vendor's login service answers `{success, message, data}` (not the API's `{model, success,
 * message}`), and its `data` carries its own `success`, an integer `action` and `errorMessage`: the
 * current portal releases read exactly these, camelCase, enums as their integer values.
 */
export interface IdpEnvelope<T> {
  success: boolean;
  message: string | null;
  data: T | null;
}

/** The portal's LoginAction, as integers. */
export const LOGIN_ACTION = {
  Error: 0,
  Authenticated: 1,
  MfaRequired: 2,
  BypassSaml: 3,
  BypassOidc: 4,
  ChangePassword: 5,
  AccessDenied: 6,
} as const;
/** The portal's IdentityAction (the pre-authentication flow: second factor first, then the password). */
export const IDENTITY_ACTION = { Error: 0, MfaRequired: 1, ShowAuthn: 2, AccessDenied: 3 } as const;
/** The portal's LoginCompletedAction. */
export const LOGIN_COMPLETED_ACTION = { Error: 0, Authenticated: 1, BypassSaml: 2, BypassOidc: 3, ChangePassword: 4 } as const;

export function idpOk<T>(data: T): IdpEnvelope<T> {
  return { success: true, message: null, data };
}

/** A refusal the portal shows: `data` keeps the step's shape (its own `success: false`, `action` Error and the reason). */
export function idpRefused<T extends object>(message: string, data: T): IdpEnvelope<T & { success: false; errorMessage: string }> {
  return { success: false, message, data: { ...data, success: false, errorMessage: message } };
}
