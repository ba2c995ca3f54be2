import { ValidationFailed } from './domain-error';

/**
 * The rules of the `ra` family: `POST /access/requests/ra`, `/ra/challenge` and
 * `/md`, used by clients without a browser (a RADIUS adapter in front of a VPN, a directory server's
 * LDAP bind). Their bodies are parsed beside their controller (apps/api/src/access/ra/ra.commands.ts).
 */

/** A RADIUS client parses the status into an enum of exactly these and fails on any other. */
export const RA_STATUSES = ['AwaitingAuthentication', 'Granted', 'Denied'] as const;
export type RaStatus = (typeof RA_STATUSES)[number];

/** A pass code or challenge longer than any code or delivery letter is refused, never stored or compared. */
export const PASS_CODE_MAX_CHARS = 64;

/**
 * `passCode` letters that ask for a delivery method instead of carrying a code
 * (Telegram, mobile push, SMS, call). `t` and `m` ask for an approval on the phone (Telegram today);
 * a letter is a preference: one Twofold cannot serve for the user falls back to the code prompt.
 */
export const DELIVERY_METHODS = { t: 'telegram', m: 'push', s: 'sms', c: 'call' } as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[keyof typeof DELIVERY_METHODS];

/** What a `passCode` or `challenge` asks for: nothing yet (the first step), a delivery method, or a code check. */
export type PassCodeIntent = { kind: 'none' } | { kind: 'delivery'; method: DeliveryMethod } | { kind: 'code'; code: string };

/**
 * A `passCode` or `challenge`: null, absent or blank is no code yet (the two-step flow's first call);
 * one of the letters `t m s c` asks for a delivery method; anything else is a code to
 * check (spaces inside are what people type from a token's display, so they are dropped).
 */
export function parsePassCode(raw: unknown, field: string): PassCodeIntent {
  if (raw === undefined || raw === null) return { kind: 'none' };
  if (typeof raw !== 'string') throw new ValidationFailed(`${field} must be a string.`);
  if (raw.length > PASS_CODE_MAX_CHARS) throw new ValidationFailed(`${field} must be at most ${PASS_CODE_MAX_CHARS} characters.`);
  const text = raw.replace(/\s+/g, '');
  if (text === '') return { kind: 'none' };
  const method = DELIVERY_METHODS[text.toLowerCase() as keyof typeof DELIVERY_METHODS];
  if (method) return { kind: 'delivery', method };
  return { kind: 'code', code: text };
}

/** `success` is true exactly when the status is Granted or AwaitingAuthentication. */
export function raSuccess(status: RaStatus): boolean {
  return status !== 'Denied';
}
