import { Db } from './transaction-context';

/**
 * The PostgreSQL channel on which every change of API credentials is announced: an account's API
 * enabled, disabled or given a new key or secret, a resource deleted. API instances that cache
 * verified credentials LISTEN on it and forget what changed (apps/api/src/auth/verified-credentials.cache.ts).
 * The notification is sent in the transaction of the change, so it is delivered when it commits.
 */
export const CREDENTIALS_CHANGED_CHANNEL = 'twofold_credentials_changed';

/** What changed: the credentials of this account, or of this resource. */
export type CredentialsOwner = { kind: 'account'; id: string } | { kind: 'resource'; id: string };

export function credentialsChangePayload(owner: CredentialsOwner): string {
  return `${owner.kind}:${owner.id}`;
}

export function parseCredentialsChangePayload(payload: string | undefined): CredentialsOwner | null {
  const match = /^(account|resource):([0-9a-f-]{36})$/.exec(payload ?? '');
  return match ? { kind: match[1] as CredentialsOwner['kind'], id: match[2] } : null;
}

type CommittedHere = (owner: CredentialsOwner) => void;
const committedHereListeners = new Set<CommittedHere>();

/**
 * Told of every credentials change this process commits, as soon as it commits: the notification
 * reaches this process's own LISTEN connection only a moment later, and a caller answered in between
 * (who disabled an API, then calls it) must already see the change. Returns the unsubscribe function.
 */
export function onCredentialsChangeCommittedHere(listener: CommittedHere): () => void {
  committedHereListeners.add(listener);
  return () => committedHereListeners.delete(listener);
}

export async function announceCredentialsChange(db: Db, owner: CredentialsOwner): Promise<void> {
  await db.manager().query('SELECT pg_notify($1, $2)', [CREDENTIALS_CHANGED_CHANNEL, credentialsChangePayload(owner)]);
  db.afterCommit(() => {
    for (const listener of committedHereListeners) listener(owner);
  });
}
