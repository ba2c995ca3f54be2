import { Page } from '@twofold/domain';

/** `{model, success, message}`: the envelope of user, authenticator, access-request and management responses. */
export interface ModelEnvelope<T> {
  model: T;
  success: boolean;
  message: string | null;
}

export function ok<T>(model: T, message: string | null = null): ModelEnvelope<T> {
  return { model, success: true, message };
}

export interface PagedModel<T> {
  data: T[];
  offset: number;
  limit: number;
  totalElements: number;
}

/** One page of rows, mapped to their DTOs, with the window and the total (SPEC.md "Paged lists"). */
export function pagedModel<Row, Dto>(rows: Row[], totalElements: number, page: Page, toDto: (row: Row) => Dto): PagedModel<Dto> {
  return { data: rows.map(toDto), offset: page.offset, limit: page.limit, totalElements };
}

/**
 * Which error body a path gets (CONTRACT §4): the administrator API answers `{message, traceId}`,
 * the enveloped APIs `{model: null, success: false, message, traceId}`.
 */
const ENVELOPED_PREFIXES = ['users', 'journal', 'groups', 'resources', 'access', 'settings'];

export function usesModelEnvelope(path: string): boolean {
  const segments = path.split('?')[0].split('/').filter(Boolean);
  const first = /^v\d+$/.test(segments[0] ?? '') ? segments[1] : segments[0];
  return first !== undefined && ENVELOPED_PREFIXES.includes(first.toLowerCase());
}

/**
 * The POST endpoints an integration calls at each sign-in (CONTRACT §8.1): their refusals are 200
 * `success: false`. `ra` marks the `ra` family, whose refusals carry the whole `ra` model (§8.2).
 * Paths are matched as express routes them: any case, a trailing slash allowed.
 */
const CLIENT_FACING_POSTS = new Map<string, 'ra' | 'plain'>([
  ['access/requests', 'plain'],
  ['access/requests/ra', 'ra'],
  ['access/requests/ra/challenge', 'ra'],
  ['access/requests/md', 'ra'],
  ['token/refresh', 'plain'],
]);

export function clientFacingEndpoint(method: string, path: string): 'ra' | 'plain' | null {
  if (method.toUpperCase() !== 'POST') return null;
  const key = path.split('?')[0].split('/').filter(Boolean).join('/').toLowerCase();
  return CLIENT_FACING_POSTS.get(key) ?? null;
}
