import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a ciphertext is for; bound as associated data so a value cannot be moved to another column. */
export type SecretPurpose =
  | 'account.api-secret'
  | 'resource.api-secret'
  | 'authenticator.secret'
  | 'authenticator.private-id'
  | 'token.signing-key';

export class SecretDecryptionError extends Error {
  constructor() {
    super('A stored secret could not be decrypted: wrong SECRET_ENCRYPTION_KEY or corrupted data.');
  }
}

/**
 * Secrets at rest: AES-256-GCM, stored as version(1) | iv(12) | tag(16) | ciphertext.
 * A fresh random IV per encryption; the tag authenticates ciphertext and purpose.
 */
export class SecretCipher {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SECRET_ENCRYPTION_KEY must be exactly 32 bytes.');
    this.key = Buffer.from(key);
  }

  encrypt(purpose: SecretPurpose, plaintext: Buffer | string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
  }

  decrypt(purpose: SecretPurpose, stored: Buffer): Buffer {
    if (stored.length < 1 + IV_BYTES + TAG_BYTES || stored[0] !== VERSION) throw new SecretDecryptionError();
    const iv = stored.subarray(1, 1 + IV_BYTES);
    const tag = stored.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(purpose, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(stored.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      throw new SecretDecryptionError();
    }
  }

  decryptText(purpose: SecretPurpose, stored: Buffer): string {
    return this.decrypt(purpose, stored).toString('utf8');
  }
}

/** Accepts 32 bytes written as 64 hex characters or as base64 (CONTRACT §1). */
export function parseEncryptionKey(text: string): Buffer {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    const decoded = Buffer.from(trimmed, 'base64');
    if (decoded.length === 32) return decoded;
  }
  throw new Error('SECRET_ENCRYPTION_KEY must be 32 bytes, written as 64 hex characters or as base64.');
}
