import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

/**
 * The built authenticator app (apps/authenticator, `nx build authenticator` → dist/apps/authenticator),
 * served by the API at `$ACCESS_URL/app/`. Read once, at start-up, from the directory next to the API
 * bundle (dist/apps/api → dist/apps/authenticator, also in the container image) or, when the API runs
 * from its sources (jest), from the workspace's dist/.
 */
export const APP_DIRECTORIES = [
  join(__dirname, '..', 'authenticator'),
  join(__dirname, '..', '..', '..', '..', 'dist', 'apps', 'authenticator'),
];

/**
 * The page's policy: its own scripts, style, images, manifest and worker only, requests to its own
 * origin only (the device protocol), never framed (no clickjacking of the Approve button), no base
 * or form target to hijack. No inline script or style at all, so no nonce either.
 */
export const APP_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; manifest-src 'self'; " +
  "worker-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A year: a content-hashed name never changes content; a new build has new names. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page and the service worker are looked at on every visit, so that a new build takes effect. */
const REVALIDATE = 'no-cache';
/** Manifest and icons: a day. */
const SHORT = 'public, max-age=86400';

export interface AppFile {
  bytes: Buffer;
  contentType: string;
  cacheControl: string;
}

export function cacheControlOf(name: string): string {
  if (/\.[0-9a-f]{12}\.(js|css)$/.test(name)) return IMMUTABLE;
  if (name === 'index.html' || name === 'sw.js') return REVALIDATE;
  return SHORT;
}

/** The app's files by name, or null when the directory holds no built app (`npm run build` makes it). */
export function loadAppFiles(directory: string): Map<string, AppFile> | null {
  if (!existsSync(join(directory, 'index.html'))) return null;
  const files = new Map<string, AppFile>();
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    const contentType = TYPES[extname(name)];
    if (!contentType || !statSync(path).isFile()) continue;
    files.set(name, { bytes: readFileSync(path), contentType, cacheControl: cacheControlOf(name) });
  }
  return files;
}

export function findAppDirectory(candidates: readonly string[] = APP_DIRECTORIES): string | null {
  return candidates.find((candidate) => existsSync(join(candidate, 'index.html'))) ?? null;
}
