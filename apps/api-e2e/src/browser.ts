import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';

/**
 * Helpers of the browser tests: the system Chromium (Debian's package, driven by playwright-core;
 * never a downloaded browser), an RFC 6238 TOTP written here on node:crypto so that the test checks
 * the API against an implementation of its own, and a callback server standing in for the client's site.
 */

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * With SCREENSHOT_DIR set (relative to the repository), the page as the user sees it is saved there:
 * how the README's and docs/images' pictures are made (`SCREENSHOT_DIR=docs/images npx jest <spec>`).
 */
export async function screenshotIfAsked(target: Page, name: string): Promise<void> {
  const dir = process.env['SCREENSHOT_DIR'];
  if (!dir) return;
  const root = resolve(__dirname, '../../..');
  mkdirSync(resolve(root, dir), { recursive: true });
  await target.screenshot({ path: resolve(root, dir, name), fullPage: true, animations: 'disabled' });
}

export const CHROMIUM_INSTALL_HINT =
  'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium   (as root; .ci/run does it)';

export type ChromiumAvailability = { available: true } | { available: false; mustFail: boolean; message: string };

/** Missing Chromium: CI must fail (a skipped browser test is a green build that proves nothing); locally the test is skipped loudly. */
export function chromiumAvailability(env: NodeJS.ProcessEnv = process.env, path = CHROMIUM_PATH): ChromiumAvailability {
  if (existsSync(path)) return { available: true };
  const mustFail = Boolean(env['CI']) && env['CI'] !== 'false' && env['CI'] !== '0';
  const message = [
    '',
    '='.repeat(100),
    `${path} is missing: the access-page browser test ${mustFail ? 'FAILS (CI is set)' : 'is SKIPPED'}.`,
    `Install Debian's chromium (no browser is ever downloaded by the tests):`,
    `    ${CHROMIUM_INSTALL_HINT}`,
    '='.repeat(100),
    '',
  ].join('\n');
  return { available: false, mustFail, message };
}

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 Base32, case-insensitive, ignoring spaces, dashes and padding (how pages usually group a secret). */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = BASE32_ALPHABET.indexOf(char);
    if (index < 0) throw new Error(`not Base32: ${JSON.stringify(char)} in the secret`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 4226 HOTP with HMAC-SHA-1. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

export const TOTP_STEP_SECONDS = 30;

/** RFC 6238 TOTP: SHA-1, 6 digits, 30-second steps from the Unix epoch. */
export function totp(base32Secret: string, atMs = Date.now(), digits = 6): string {
  return totpOfKey(base32Decode(base32Secret), atMs, digits);
}

/** The same TOTP for a raw key (a hardware token registered with its hex key). */
export function totpOfKey(key: Buffer, atMs = Date.now(), digits = 6): string {
  return hotp(key, Math.floor(atMs / 1000 / TOTP_STEP_SECONDS), digits);
}

export interface CallbackPost {
  path: string;
  contentType: string | undefined;
  fields: URLSearchParams;
}

export interface CallbackServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** every POST received so far */
  posts: CallbackPost[];
  /** resolves with the next POST (or the first one, if it came already and was not taken) */
  nextPost(timeoutMs: number): Promise<CallbackPost>;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

/** The client's site: receives the browser's POST with accessToken and answers with a plain page. */
export async function startCallbackServer(): Promise<CallbackServer> {
  const posts: CallbackPost[] = [];
  let taken = 0;
  const waiters: Array<() => void> = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      if (request.method === 'POST') {
        const body = await readBody(request);
        posts.push({ path: request.url ?? '', contentType: request.headers['content-type'], fields: new URLSearchParams(body) });
        waiters.splice(0).forEach((wake) => wake());
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>Client site</title><h1 id="client">Signed in at the client site</h1>');
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    posts,
    nextPost: (timeoutMs) =>
      new Promise<CallbackPost>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no POST reached the callback server ${origin} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const check = () => {
          if (posts.length > taken) {
            clearTimeout(timer);
            resolve(posts[taken++]);
          } else {
            waiters.push(check);
          }
        };
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the framing site's `message` listener saw, reported to the test by the function the test exposes. */
export interface FramedMessage {
  origin: string;
  data: unknown;
  /** the message came from the site's own iframe */
  fromFrame: boolean;
}

/** Name of the function the test exposes on the framing page (playwright `exposeFunction`). */
export const REPORT_MESSAGE = 'reportFramedMessage';
/** Name of the function told when the iframe fires `load` (its document, or the browser's error page). */
export const REPORT_FRAME_LOAD = 'reportFrameLoad';

export interface FramingSite {
  /** e.g. http://127.0.0.1:41235: another origin than the API's */
  origin: string;
  /** the site's page framing `src` in a 430×680 iframe (the AD FS adapter's size) */
  pageUrl(src: string): string;
  close(): Promise<void>;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/**
 * A site that opens the access page in an iframe and listens for its `postMessage`, as the AD FS
 * adapter and the Keycloak authenticator do. Every `message` event is handed to the test (origin,
 * data, whether it came from the iframe); the test, like the adapter, accepts the token only from the
 * access page's origin.
 */
export async function startFramingSite(): Promise<FramingSite> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://framing.invalid');
    if (url.pathname !== '/login') {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    const src = url.searchParams.get('src') ?? 'about:blank';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html>
<html><head><meta charset="utf-8"><title>Framing site</title></head>
<body><h1 id="site">Sign in to the framing site</h1>
<iframe id="mfa" title="Second factor" width="430" height="680" src="${escapeAttribute(src)}"></iframe>
<script>
  var frame = document.getElementById('mfa');
  frame.addEventListener('load', function () { if (window.${REPORT_FRAME_LOAD}) window.${REPORT_FRAME_LOAD}(); });
  window.addEventListener('message', function (event) {
    window.${REPORT_MESSAGE}({ origin: event.origin, data: event.data, fromFrame: event.source === frame.contentWindow });
  });
</script>
</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    pageUrl: (src) => `${origin}/login?src=${encodeURIComponent(src)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
