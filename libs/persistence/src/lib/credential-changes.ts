import { EntityManager } from 'typeorm';

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

export async function announceCredentialsChange(manager: EntityManager, owner: CredentialsOwner): Promise<void> {
  await manager.query('SELECT pg_notify($1, $2)', [CREDENTIALS_CHANGED_CHANNEL, credentialsChangePayload(owner)]);
}
