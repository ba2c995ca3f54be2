import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { NotFoundException } from '@nestjs/common';
import { FastifyReply } from 'fastify';

/**
 * A built front end the API serves as static files (the console, the authenticator app): read once at
 * start-up from `dist/apps/<name>`, next to the API's bundle (dist/apps/api, also in the container)
 * or, when the API runs from its sources (jest, ts-node), in the workspace's dist/.
 */
export function builtAppDirectories(name: string): string[] {
  return [join(__dirname, '..', name), join(__dirname, '..', '..', '..', '..', 'dist', 'apps', name)];
}

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
/** Pages and service workers are looked at on every visit, so that a new build takes effect. */
const REVALIDATE = 'no-cache';
/** Manifests and icons: a day. */
const SHORT = 'public, max-age=86400';

export interface StaticFile {
  bytes: Buffer;
  contentType: string;
  cacheControl: string;
}

export function cacheControlOf(name: string): string {
  if (/\.[0-9a-f]{12}\.(js|css)$/.test(name)) return IMMUTABLE;
  if (name.endsWith('.html') || name === 'sw.js') return REVALIDATE;
  return SHORT;
}

/** The files of a built front end by name, or null when the directory holds none (`npm run build` makes it). */
export function loadStaticFiles(directory: string): Map<string, StaticFile> | null {
  if (!existsSync(join(directory, 'index.html'))) return null;
  const files = new Map<string, StaticFile>();
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    const contentType = TYPES[extname(name)];
    if (!contentType || !statSync(path).isFile()) continue;
    files.set(name, { bytes: readFileSync(path), contentType, cacheControl: cacheControlOf(name) });
  }
  return files;
}

export function findBuiltApp(candidates: readonly string[]): string | null {
  return candidates.find((candidate) => existsSync(join(candidate, 'index.html'))) ?? null;
}

/**
 * Answers one file of a built front end with its policy: `csp`, never framed, no Referer. An unknown
 * name is the service's usual 404 body (message, traceId) with `notFound`; a front end that was never
 * built says how to build it (`notBuilt`).
 */
export function sendStaticFile(
  res: FastifyReply,
  files: Map<string, StaticFile> | null,
  name: string,
  policy: { csp: string; notFound: string; notBuilt: string },
): void {
  res.header('Content-Security-Policy', policy.csp);
  res.header('X-Frame-Options', 'DENY');
  res.header('Referrer-Policy', 'no-referrer');
  const file = files?.get(name);
  if (!file) throw new NotFoundException(files ? policy.notFound : policy.notBuilt);
  res.header('Cache-Control', file.cacheControl).type(file.contentType).status(200).send(file.bytes);
}

/** A folder's page needs the folder's address (its relative URLs): `/console` → `/console/`. */
export function redirectToFolder(url: string, res: FastifyReply): boolean {
  const path = url.split('?')[0];
  if (path.endsWith('/')) return false;
  res.header('Cache-Control', 'no-cache').redirect(`${path.slice(path.lastIndexOf('/') + 1)}/`, 301);
  return true;
}
