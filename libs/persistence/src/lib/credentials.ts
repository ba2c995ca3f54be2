import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface ApiCredentials {
  key: string;
  secret: string;
}

/** An API key identifies (it is looked up); the secret authenticates (it is compared in constant time). */
export function generateApiCredentials(): ApiCredentials {
  return {
    key: randomBytes(16).toString('hex'),
    secret: randomBytes(32).toString('base64url'),
  };
}

/** Constant time whatever the lengths: both sides are hashed to 32 bytes first. */
export function secretsEqual(presented: string, stored: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(stored, 'utf8').digest();
  return timingSafeEqual(a, b);
}
