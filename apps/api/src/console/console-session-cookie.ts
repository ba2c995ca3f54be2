/**
 * The console's session cookie. `__Host-` binds it to this origin (Secure, Path=/, no Domain), HttpOnly
 * keeps it from scripts, SameSite=Strict from every cross-site request; browsers treat
 * http://localhost as secure, so it works on a developer's machine too.
 */
export const CONSOLE_SESSION_COOKIE = '__Host-twofold-console';
/** The header every console-session request carries its CSRF token in. */
export const CONSOLE_CSRF_HEADER = 'x-csrf-token';

export function consoleSessionCookie(token: string): string {
  return `${CONSOLE_SESSION_COOKIE}=${token}; Path=/; Secure; HttpOnly; SameSite=Strict`;
}

export function clearedConsoleSessionCookie(): string {
  return `${CONSOLE_SESSION_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0`;
}

/** The session token of a Cookie header, or null; only the first cookie of that name counts. */
export function consoleSessionToken(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== CONSOLE_SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
  }
  return null;
}
