import { createCipheriv, createDecipheriv, createHash, createSecretKey, KeyObject, randomBytes } from 'node:crypto';

/** version(1) | iv(12) | tag(16) | ciphertext: written before key rotation existed; carries no key id */
const LEGACY_VERSION = 1;
/** version(1) | key id(4) | iv(12) | tag(16) | ciphertext; version and key id are authenticated too */
const VERSION = 2;
const KEY_ID_BYTES = 4;
const HEADER_BYTES = 1 + KEY_ID_BYTES;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a ciphertext is for; bound as associated data so a value cannot be moved to another column. */
export type SecretPurpose =
  | 'account.api-secret'
  | 'resource.api-secret'
  | 'authenticator.secret'
  | 'authenticator.private-id'
  | 'token.signing-key'
  // the sealed TOTP key older self-service portals carry through the user's browser
  | 'self-service.totp-key'
  // the private key of the service's VAPID key pair (Web Push)
  | 'web-push.vapid-private-key'
  // an account's SMS or call gateway (its HTTP template, with passwords and tokens)
  | 'phone.gateway';

export class SecretDecryptionError extends Error {
  constructor(message = 'A stored secret could not be decrypted: wrong SECRET_ENCRYPTION_KEY or corrupted data.') {
    super(message);
  }
}

/** The ciphertext names a key that is neither SECRET_ENCRYPTION_KEY nor one of SECRET_ENCRYPTION_PREVIOUS_KEYS. */
export class UnknownEncryptionKeyError extends SecretDecryptionError {
  constructor(
    readonly keyId: string,
    configured: readonly string[],
  ) {
    super(
      `A stored secret was encrypted under key id ${keyId}, which is not configured (configured key ids: ${configured.join(', ')}). ` +
        'Add that key to SECRET_ENCRYPTION_PREVIOUS_KEYS, or finish `cli secrets rotate-key` before removing it.',
    );
  }
}

/**
 * The id a ciphertext carries for its key: the first 4 bytes of a SHA-256 over the key under a label of its
 * own, as 8 hex characters. Safe to print (a hash of 256 random bits tells nothing of them); it lets an
 * operator see which configured key a row needs without anyone writing ids down.
 */
export function encryptionKeyId(key: Buffer): string {
  return keyIdBytes(key).toString('hex');
}

function keyIdBytes(key: Buffer): Buffer {
  return createHash('sha256').update('twofold secret-encryption key id\0').update(key).digest().subarray(0, KEY_ID_BYTES);
}

function checkKey(key: Buffer, name: string): Buffer {
  if (key.length !== 32) throw new Error(`${name} must be exactly 32 bytes.`);
  return Buffer.from(key);
}

/**
 * Secrets at rest: AES-256-GCM with a fresh random IV per encryption; the tag authenticates the
 * ciphertext, its header and its purpose. The current key (SECRET_ENCRYPTION_KEY) encrypts; previous
 * keys (SECRET_ENCRYPTION_PREVIOUS_KEYS) only decrypt, so that `cli secrets rotate-key` can re-encrypt
 * rows while the API keeps serving them. Ciphertexts of the first format (no key id) are tried with
 * every configured key: GCM's tag tells the right one, so they need no migration before a rotation.
 */
export class SecretCipher {
  private readonly header: Buffer;
  /**
   * Every configured key by its id, the current one included, as the key objects the ciphers are keyed
   * with: Node 24's createCipheriv and createDecipheriv spend about 10 µs turning a byte key into one on
   * every call (13 µs a decryption against 1.3 µs), and every sign-in decrypts at least one secret.
   */
  private readonly keys = new Map<string, KeyObject>();
  /** the current key */
  private readonly currentKey: KeyObject;
  /** the current key's id, as ciphertexts carry it */
  readonly keyId: string;

  constructor(key: Buffer, previousKeys: readonly Buffer[] = []) {
    const current = checkKey(key, 'SECRET_ENCRYPTION_KEY');
    this.keyId = encryptionKeyId(current);
    this.header = Buffer.concat([Buffer.from([VERSION]), keyIdBytes(current)]);
    this.currentKey = createSecretKey(current);
    this.keys.set(this.keyId, this.currentKey);
    for (const previous of previousKeys) {
      const bytes = checkKey(previous, 'each of SECRET_ENCRYPTION_PREVIOUS_KEYS');
      const id = encryptionKeyId(bytes);
      const checked = createSecretKey(bytes);
      const known = this.keys.get(id);
      // the same key given twice is harmless; two keys with one id (2^-32) could not be told apart
      if (known && !known.equals(checked)) throw new Error(`two configured encryption keys share the key id ${id}: replace one of them.`);
      this.keys.set(id, checked);
    }
  }

  /** the ids of every key this cipher decrypts with, the current one first */
  get keyIds(): string[] {
    return [...this.keys.keys()];
  }

  encrypt(purpose: SecretPurpose, plaintext: Buffer | string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.currentKey, iv);
    cipher.setAAD(associatedData(this.header, purpose));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([this.header, iv, cipher.getAuthTag(), body]);
  }

  decrypt(purpose: SecretPurpose, stored: Buffer): Buffer {
    if (stored.length >= HEADER_BYTES + IV_BYTES + TAG_BYTES && stored[0] === VERSION) {
      const header = stored.subarray(0, HEADER_BYTES);
      const id = header.subarray(1).toString('hex');
      const key = this.keys.get(id);
      if (!key) throw new UnknownEncryptionKeyError(id, this.keyIds);
      const plaintext = open(key, associatedData(header, purpose), stored.subarray(HEADER_BYTES));
      if (!plaintext) throw new SecretDecryptionError();
      return plaintext;
    }
    if (stored.length >= 1 + IV_BYTES + TAG_BYTES && stored[0] === LEGACY_VERSION) {
      const aad = Buffer.from(purpose, 'utf8');
      for (const key of this.keys.values()) {
        const plaintext = open(key, aad, stored.subarray(1));
        if (plaintext) return plaintext;
      }
    }
    throw new SecretDecryptionError();
  }

  decryptText(purpose: SecretPurpose, stored: Buffer): string {
    return this.decrypt(purpose, stored).toString('utf8');
  }

  /** Whether `stored` is already in the current format under the current key (rotation leaves it alone). */
  isCurrent(stored: Buffer): boolean {
    return stored.length >= HEADER_BYTES && stored.subarray(0, HEADER_BYTES).equals(this.header);
  }
}

/** The key id a ciphertext carries; null for the first format, which carries none. */
export function ciphertextKeyId(stored: Buffer): string | null {
  return stored.length >= HEADER_BYTES && stored[0] === VERSION ? stored.subarray(1, HEADER_BYTES).toString('hex') : null;
}

function associatedData(header: Buffer, purpose: SecretPurpose): Buffer {
  return Buffer.concat([header, Buffer.from(purpose, 'utf8')]);
}

/** iv | tag | ciphertext opened with `key`, or null when the tag does not match (another key, tampering). */
function open(key: KeyObject, aad: Buffer, sealed: Buffer): Buffer | null {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}

/** Accepts 32 bytes written as 64 hex characters or as base64. */
export function parseEncryptionKey(text: string, name = 'SECRET_ENCRYPTION_KEY'): Buffer {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    const decoded = Buffer.from(trimmed, 'base64');
    if (decoded.length === 32) return decoded;
  }
  throw new Error(`${name} must be 32 bytes, written as 64 hex characters or as base64.`);
}

/**
 * SECRET_ENCRYPTION_PREVIOUS_KEYS: keys that only decrypt, comma separated, each as SECRET_ENCRYPTION_KEY.
 * An error names the entry's position, never its text.
 */
export function parsePreviousEncryptionKeys(text: string | undefined): Buffer[] {
  if (!text?.trim()) return [];
  return text.split(',').map((entry, index) => {
    try {
      return parseEncryptionKey(entry, `SECRET_ENCRYPTION_PREVIOUS_KEYS entry ${index + 1}`);
    } catch (error) {
      throw new Error(`${(error as Error).message} (the entries are separated by commas)`);
    }
  });
}
