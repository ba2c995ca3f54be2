import { createCipheriv, randomBytes } from 'node:crypto';
import { SecretPurpose } from '../lib/secret-cipher';

/**
 * A ciphertext as written before key ids existed (version 1 | iv | tag | ciphertext, the purpose as
 * associated data): what databases of earlier releases hold.
 */
export function legacyCiphertext(key: Buffer, purpose: SecretPurpose, plaintext: Buffer | string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(purpose, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), body]);
}
