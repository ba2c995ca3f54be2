/**
 * The console's calls: the account API itself and the console's own sign-in, on the service's origin.
 * The session is the HttpOnly cookie the browser sends by itself; the CSRF token it gave goes in a
 * header of every call (the server refuses a call without it), and is kept in memory only.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Where the service's API is: the console lives at `<base>/console/`. */
export const API_BASE = location.pathname.replace(/\/console(\/.*)?$/, '');

let csrfToken: string | null = null;
let onSessionEnded: () => void = () => undefined;

export function useSession(token: string | null, ended: () => void): void {
  csrfToken = token;
  onSessionEnded = ended;
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (csrfToken) headers['X-CSRF-Token'] = csrfToken;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${API_BASE}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    cache: 'no-store',
  });
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const message = (parsed as { message?: string } | null)?.message ?? response.statusText;
    if (response.status === 401 && csrfToken) {
      csrfToken = null;
      onSessionEnded();
    }
    throw new ApiError(response.status, message);
  }
  return parsed as T;
}

/** The `model` of the API's `{model, success, message}` answers. */
export async function model<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await call<{ model: T }>(method, path, body)).model;
}

export interface Session {
  csrfToken: string;
  administrator: { id: string; identity: string; role: string };
  accountId: string;
  permissions: string[];
}
