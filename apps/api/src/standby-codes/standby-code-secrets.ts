import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { normalizeStandbyCode, STANDBY_CODE_ALPHABET, STANDBY_CODE_LENGTH } from '@twofold/domain';
import { NewStandbyCode, StandbyCodeRow } from '@twofold/persistence';

const SALT_BYTES = 16;

/** A fresh code: 12 characters of the alphabet drawn uniformly (60 random bits). */
export function generateStandbyCode(): string {
  let code = '';
  for (let i = 0; i < STANDBY_CODE_LENGTH; i++) code += STANDBY_CODE_ALPHABET[randomInt(STANDBY_CODE_ALPHABET.length)];
  return code;
}

function hashOf(salt: Buffer, code: string): Buffer {
  return createHash('sha256').update(salt).update(code).digest();
}

/** What is stored of a code: a salt of its own and the hash; the code itself is shown once and forgotten. */
export function sealStandbyCode(code: string, usesLeft: number, expiresAt: Date | null): NewStandbyCode {
  const salt = randomBytes(SALT_BYTES);
  return { salt, codeHash: hashOf(salt, code), usesLeft, expiresAt };
}

/** The stored code a code as typed is, if any (compared in constant time). */
export function findStandbyCode<R extends Pick<StandbyCodeRow, 'salt' | 'codeHash'>>(rows: readonly R[], typed: string): R | null {
  const code = normalizeStandbyCode(typed);
  if (!code) return null;
  return rows.find((row) => timingSafeEqual(hashOf(row.salt, code), row.codeHash)) ?? null;
}
