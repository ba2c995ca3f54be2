import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { PhoneCodeLimit } from './access-decision';

/**
 * Codes sent to a user's phone, by SMS or by a call that reads them out: six digits drawn by the
 * service's random source, stored as a hash, bound to one access request, single use and open for
 * five minutes, checked within the request's five attempts like any other code.
 */
export const PHONE_CODE_DIGITS = 6;
export const PHONE_CODE_TTL_MINUTES = 5;

/** A uniform random integer in [0, maxExclusive): `crypto.randomInt` in the service. */
export type PhoneCodeRandom = (maxExclusive: number) => number;

/** A new code: six digits, leading zeros kept. */
export function newPhoneCode(randomInt: PhoneCodeRandom): string {
  return String(randomInt(10 ** PHONE_CODE_DIGITS)).padStart(PHONE_CODE_DIGITS, '0');
}

/** Until when a code sent at `sentAt` is accepted. */
export function phoneCodeExpiry(sentAt: Date): Date {
  return new Date(sentAt.getTime() + PHONE_CODE_TTL_MINUTES * 60_000);
}

/**
 * A phone number as a reply may show it: the country code and the last two digits, the rest as dots
 * grouped like a number (`+7 ••• •• 12`), so the user recognises the phone and a reader of the
 * reply learns no number. `+79991234512` → `+7 ••• •• 12`.
 */
export function maskPhoneNumber(e164: string): string {
  const digits = e164.replace(/\D/g, '');
  const countryCode = parsePhoneNumberFromString(e164)?.countryCallingCode;
  const cc = countryCode && digits.startsWith(countryCode) ? countryCode : digits.slice(0, 1);
  const last = digits.slice(-2);
  return `+${cc} ••• •• ${last}`;
}

/** The abuse limits on sending codes to phones; each account may set its own allow-list of destinations. */
export interface PhoneCodeLimits {
  /** seconds between two codes sent to one user */
  cooldownSeconds: number;
  /** codes sent to one user within an hour */
  hourlyCapPerUser: number;
  /** codes one account may send within a day (each costs the customer money) */
  dailyBudgetPerAccount: number;
  /** E.164 prefixes (`+7`, `+4420`) a code may be sent to; empty: any destination */
  allowedPrefixes: readonly string[];
}

export const DEFAULT_PHONE_CODE_LIMITS: PhoneCodeLimits = {
  cooldownSeconds: 30,
  hourlyCapPerUser: 5,
  dailyBudgetPerAccount: 1000,
  allowedPrefixes: [],
};

/** What is known of the codes sent so far, counted by the caller (sent ones only: a failed send costs nothing). */
export interface PhoneCodeHistory {
  /** the time of the last code sent to this user; null: none */
  lastSentToUser: Date | null;
  /** codes sent to this user in the hour before now */
  sentToUserLastHour: number;
  /** codes the account sent in the day before now */
  sentByAccountLastDay: number;
  /**
   * the account's codes to the destination's range (destinationRange) sent in the last hour whose
   * five minutes are over, and how many of them were entered; absent: not counted
   */
  range?: { settled: number; entered: number };
}

/** The breaker's window, sample and threshold: an hour of settled codes, at least 20, fewer than 1 in 5 entered. */
export const BREAKER_WINDOW_MINUTES = 60;
export const BREAKER_MIN_SETTLED = 20;
export const BREAKER_MIN_ENTERED_SHARE = 0.2;

/**
 * The range a destination belongs to for the breaker: `+` and the first five digits (the country code
 * and the start of the national range, `+79991`), where SMS pumping rents its numbers.
 */
export function destinationRange(phone: string): string {
  return phone.slice(0, 6);
}

/**
 * Whether a code may be sent to `phone` now; the first limit hit, in the order a flood meets them:
 * the destination's country (a premium-rate range never gets a message), the user's cooldown and
 * hourly cap (a burst for one user), the account's daily budget (a burst across many users), and
 * the breaker: a destination range whose codes are mostly never entered is suspended.
 */
export function phoneCodeLimitHit(phone: string, limits: PhoneCodeLimits, history: PhoneCodeHistory, now: Date): PhoneCodeLimit | null {
  if (limits.allowedPrefixes.length > 0 && !limits.allowedPrefixes.some((prefix) => phone.startsWith(prefix))) return 'destination';
  if (history.lastSentToUser && now.getTime() - history.lastSentToUser.getTime() < limits.cooldownSeconds * 1000) return 'cooldown';
  if (history.sentToUserLastHour >= limits.hourlyCapPerUser) return 'hourlyCap';
  if (history.sentByAccountLastDay >= limits.dailyBudgetPerAccount) return 'dailyBudget';
  // SMS pumping: codes to numbers nobody reads; the range stays suspended while its last hour looks so
  const range = history.range;
  if (range && range.settled >= BREAKER_MIN_SETTLED && range.entered < range.settled * BREAKER_MIN_ENTERED_SHARE) return 'breaker';
  return null;
}

/** An allow-list entry: `+` and one to six digits, the start of an E.164 number. */
export function parseDestinationPrefix(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  return /^\+[1-9]\d{0,5}$/.test(text) ? text : null;
}
