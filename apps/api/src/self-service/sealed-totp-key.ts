import { AccountId, ValidationFailed } from '@twofold/domain';
import { SecretCipher } from '@twofold/persistence';

/** How long the older portals' new-app key stays usable: the time to scan a QR code and type a code. */
export const SEALED_TOTP_KEY_TTL_MINUTES = 10;

export const SEALED_KEY_REFUSED = 'The key is not valid: open the page for adding an authenticator app again.';

interface SealedContent {
  a: string;
  u: string;
  e: number;
  s: string;
}

/**
 * The `key` of the older portals' "add an authenticator app": the portal puts it in the user's page
 * and sends it back with the first code, so it travels through the browser. It is sealed (AES-256-GCM
 * under the service's key): the secret inside cannot be read, and a key changed, expired or issued to
 * another user (or account) is refused, never taken as a raw secret.
 */
export function sealTotpKey(cipher: SecretCipher, owner: { accountId: AccountId; userId: string }, secret: Buffer, now: Date): string {
  const content: SealedContent = {
    a: owner.accountId,
    u: owner.userId,
    e: now.getTime() + SEALED_TOTP_KEY_TTL_MINUTES * 60_000,
    s: secret.toString('hex'),
  };
  return cipher.encrypt('self-service.totp-key', JSON.stringify(content)).toString('base64url');
}

/** The secret sealed for this user, or a refusal. */
export function openTotpKey(cipher: SecretCipher, owner: { accountId: AccountId; userId: string }, key: unknown, now: Date): Buffer {
  if (typeof key !== 'string' || key.length === 0 || key.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(key))
    throw new ValidationFailed(SEALED_KEY_REFUSED);
  let content: SealedContent;
  try {
    content = JSON.parse(cipher.decrypt('self-service.totp-key', Buffer.from(key, 'base64url')).toString('utf8')) as SealedContent;
  } catch {
    throw new ValidationFailed(SEALED_KEY_REFUSED);
  }
  if (content.a !== owner.accountId || content.u !== owner.userId || typeof content.e !== 'number' || content.e <= now.getTime())
    throw new ValidationFailed(SEALED_KEY_REFUSED);
  return Buffer.from(String(content.s), 'hex');
}
