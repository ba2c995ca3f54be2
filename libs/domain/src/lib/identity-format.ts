import { ValidationFailed } from './domain-error';
import { validateUserIdentity } from './users';
import { identityKey } from './identity-key';

/**
 * How an account writes its users' identities: `AsIs` keeps what the client sends; `Login`
 * keeps only the login, so that `CORP\jane`, `jane@corp.example` and `Jane` are one user `jane`
 * whichever Windows client signed them in.
 */
export const IDENTITY_FORMATS = ['AsIs', 'Login'] as const;
export type IdentityFormat = (typeof IDENTITY_FORMATS)[number];
export const DEFAULT_IDENTITY_FORMAT: IdentityFormat = 'AsIs';

export function isIdentityFormat(raw: unknown): raw is IdentityFormat {
  return typeof raw === 'string' && (IDENTITY_FORMATS as readonly string[]).includes(raw);
}

/** `format` of PUT /settings/identity-format: one of the names, in any case like every input name, given back as written here. */
export function parseIdentityFormat(raw: unknown, field = 'format'): IdentityFormat {
  const found = typeof raw === 'string' ? IDENTITY_FORMATS.find((format) => format.toLowerCase() === raw.trim().toLowerCase()) : undefined;
  if (!found) throw new ValidationFailed(`${field} must be "AsIs" or "Login".`);
  return found;
}

/**
 * The identity written in `format`, or null when nothing is left of it. `Login`: everything up to the
 * last `\` is dropped (the NetBIOS domain), then everything from the first `@` (the UPN suffix), and
 * the rest is lower-cased and trimmed. Case-insensitive lookups already make `Jane` and `jane` one
 * user; lower-casing makes the stored identity, and so a token's `sub`, the same for every client.
 */
export function formatIdentity(format: IdentityFormat, identity: string): string | null {
  if (format === 'AsIs') return identity;
  const afterDomain = identity.slice(identity.lastIndexOf('\\') + 1);
  const at = afterDomain.indexOf('@');
  const login = (at === -1 ? afterDomain : afterDomain.slice(0, at)).toLowerCase().trim();
  return login === '' ? null : login;
}

/** An identity received under `format`, normalized; one with nothing left (`CORP\`, `@corp.example`) is refused. */
export function normalizeIdentity(format: IdentityFormat, identity: string, field = 'Identity'): string {
  const formatted = formatIdentity(format, identity);
  if (formatted === null) {
    throw new ValidationFailed(
      `${field} has no login under the identity format Login: nothing is left after the last '\\' and before the first '@'.`,
    );
  }
  return formatted;
}

/** A user identity of a request body or query (not empty), normalized by the account's format. */
export function parseUserIdentity(raw: unknown, format: IdentityFormat, field = 'Identity'): string {
  return normalizeIdentity(format, validateUserIdentity(raw, field), field);
}

/** A user as the apply plan reads it. */
export interface IdentityOwner {
  id: string;
  identity: string;
  createdAt: Date;
}

/**
 * What `POST /settings/identity-format/apply` does to an account's users: every user whose identity is
 * not written in `format` is renamed, and users whose identities become one (compared by their keys,
 * as the unique index compares them) are merged into the oldest by `createdAt` (then id), which keeps
 * its id. A user of whose identity nothing is left under `format` is left as it is (`untouched`).
 */
export interface IdentityFormatPlan {
  /** survivors whose identity changes, each with its new identity */
  renamed: { user: IdentityOwner; to: string }[];
  /** each collision: the survivor (its identity after the rename) and the younger users merged into it, oldest first */
  merged: { into: IdentityOwner; identity: string; from: IdentityOwner[] }[];
  /** users of whose identity nothing is left under the format */
  untouched: IdentityOwner[];
}

export function planIdentityFormat(format: IdentityFormat, users: readonly IdentityOwner[]): IdentityFormatPlan {
  const plan: IdentityFormatPlan = { renamed: [], merged: [], untouched: [] };
  if (format === 'AsIs') return plan;
  const groups = new Map<string, { to: string; users: IdentityOwner[] }>();
  for (const user of users) {
    const to = formatIdentity(format, user.identity);
    if (to === null) {
      plan.untouched.push(user);
      continue;
    }
    const key = identityKey(to);
    const group = groups.get(key) ?? { to, users: [] };
    group.users.push(user);
    groups.set(key, group);
  }
  for (const { to, users: group } of groups.values()) {
    const [oldest, ...younger] = [...group].sort(byAge);
    if (oldest.identity !== to) plan.renamed.push({ user: oldest, to });
    if (younger.length > 0) plan.merged.push({ into: oldest, identity: to, from: younger });
  }
  plan.renamed.sort((a, b) => byAge(a.user, b.user));
  plan.merged.sort((a, b) => byAge(a.into, b.into));
  return plan;
}

function byAge(a: IdentityOwner, b: IdentityOwner): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
