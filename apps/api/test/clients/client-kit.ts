import { AccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { TestApp } from '../testing/test-app';

/**
 * What the client specs share: users with a known TOTP key, the access page walked as a browser
 * does, and the way these clients read an answer. The clients' own code is never copied here: each
 * reading below is written from what the clients' documented calls and compatibility rules say the client does.
 */

export const TOTP_KEY = Buffer.from('3132333435363738393031323334353637383930', 'hex');

/** Every field of the `ra`-family model, which RADIUS adapters deserialize one by one. */
export const RA_MODEL_FIELDS = [
  'account',
  'authenticator',
  'authenticatorId',
  'bypassed',
  'city',
  'countryCode',
  'id',
  'identity',
  'phone',
  'region',
  'replyMessage',
  'status',
].sort();

export async function totpUser(t: TestApp, accountId: AccountId, identity: string, options: { locked?: boolean } = {}) {
  const user = await newUser(t.db, accountId, identity, { locked: options.locked, now: t.clock.now() });
  const authenticator = await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, {
    kind: 'TotpToken',
    key: TOTP_KEY,
    name: 'Key fob',
    now: t.clock.now(),
  });
  return { user, authenticator };
}

export function totpCode(t: TestApp, offsetMs = 0): string {
  return generateTotp({ secret: TOTP_KEY, time: t.clock.now().getTime() + offsetMs });
}

/** A six-digit code that is none of the codes accepted now (one step either side). */
export function wrongTotpCode(t: TestApp, n = 0): string {
  const valid = new Set([-30_000, 0, 30_000].map((offset) => totpCode(t, offset)));
  for (let candidate = 100_000 + n * 7_919; ; candidate += 1) {
    const code = String(candidate % 1_000_000).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

/** The hidden inputs of the page's forms, by name exactly as written. */
export function hiddenInputs(html: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields.set(match[1], match[2]);
  return fields;
}

/**
 * A person on the access page of `url`: opens it, types `code` into the prompt and submits. Returns
 * the page the browser then gets.
 */
export async function submitCodeOnPage(t: TestApp, url: string, code: string) {
  const path = new URL(url).pathname;
  // one browser loads the page and posts its form: it sends back the cookie the page set
  const browser = t.browser();
  const page = await browser.get(path);
  const formToken = hiddenInputs(page.text).get('formToken');
  if (!formToken) throw new Error(`no code prompt on the page (status ${page.status})`);
  return browser.post(path).type('form').send({ formToken, code });
}

/**
 * How these clients read an HTTP answer (a habit they share): 401 is bad credentials and 429
 * a refusal, any other non-2xx "API unreachable" — which, with their common "bypass when unreachable"
 * setting, lets the user in without a second factor. A test that sees `unreachable` has found a way
 * past the second factor.
 */
export function clientReading(status: number): 'answer' | 'credentials' | 'throttled' | 'unreachable' {
  if (status >= 200 && status < 300) return 'answer';
  if (status === 401) return 'credentials';
  if (status === 429) return 'throttled';
  return 'unreachable';
}
