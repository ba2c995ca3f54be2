import { createRemoteJWKSet, jwtVerify, JWTPayload } from 'jose';
import { TestApp } from '../testing/test-app';
import { hiddenInputs } from './client-kit';

/**
 * How the self-service portals talk to the API, written from what CLIENTS.md and the portals' public
 * sources say they do (their code is not copied): the bodies as each generation serializes them, and
 * the answers read the way the portal reads them.
 */

/** The Linux portal's System.Text.Json settings: camelCase names, null members left out. */
export function linuxJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => (member === null ? undefined : member));
}

/** The Windows portal's Newtonsoft default: the names as declared (PascalCase), nulls written. */
export function windowsJson(value: unknown): string {
  return JSON.stringify(value);
}

/**
 * The portals' `ExecuteAsync`: a null answer, `success` other than the JSON boolean true, or a null
 * `model` each throw; otherwise the model. Names are read case-sensitively, as the Linux portal's
 * deserializer does (camelCase, no case folding).
 */
export function portalModel<T = Record<string, unknown>>(status: number, body: unknown): T {
  if (status < 200 || status >= 300) throw new Error(`HTTP ${status}: the portal's HttpClient throws`);
  if (body === null || typeof body !== 'object') throw new Error('Response is null');
  const answer = body as { success?: unknown; message?: unknown; model?: unknown };
  if (answer.success !== true) throw new Error(`unsuccessful: ${String(answer.message)}`);
  if (answer.model === null || answer.model === undefined) throw new Error('Response payload is null');
  return answer.model as T;
}

/** The portal's refusal: 200, `success` false, and the message it shows or matches. */
export function portalRefusal(status: number, body: unknown): string {
  if (status !== 200) throw new Error(`HTTP ${status}: the portal's HttpClient throws`);
  const answer = body as { success?: unknown; message?: unknown };
  if (answer.success !== false || typeof answer.message !== 'string') throw new Error(`not a refusal: ${JSON.stringify(body)}`);
  return answer.message;
}

/**
 * A person on the access page of `url` typing `code`; returns where the page posts and the hidden
 * fields it posts (the portal's callback receives exactly these).
 */
export async function accessPagePost(t: TestApp, url: string, code: string): Promise<{ action: string; fields: Map<string, string> }> {
  const path = new URL(url).pathname;
  const browser = t.browser();
  const page = await browser.get(path);
  const formToken = hiddenInputs(page.text).get('formToken');
  if (!formToken) throw new Error(`no code prompt on the page (status ${page.status}): ${page.text.slice(0, 200)}`);
  const granted = await browser.post(path).type('form').send({ formToken, code });
  const action = /<form method="post" action="([^"]+)"/.exec(granted.text)?.[1];
  if (!action) throw new Error(`the page posts nowhere (status ${granted.status})`);
  return { action: action.replace(/&amp;/g, '&'), fields: hiddenInputs(granted.text) };
}

/** The portal's token check: RS256 against the JWKS, audience its key, issuer not checked. */
export async function portalVerifies(baseUrl: string, token: string, apiKey: string, now: Date): Promise<JWTPayload> {
  const jwks = createRemoteJWKSet(new URL(`${baseUrl}/.well-known/jwks.json`));
  return (await jwtVerify(token, jwks, { audience: apiKey, currentDate: now })).payload;
}
