import { calculateJwkThumbprint, CryptoKey, exportJWK, exportPKCS8, generateKeyPair, importPKCS8 } from 'jose';
import { PublicSigningJwk, TokenSigningKeyEntity } from './entities';
import { SecretCipher } from './secret-cipher';

/** RSA modulus of the service's signing keys: RS256 with 2048 bits, the size JOSE libraries expect. */
export const TOKEN_SIGNING_KEY_BITS = 2048;
export const TOKEN_SIGNING_KEY_PURPOSE = 'token.signing-key';

export type NewTokenSigningKey = Omit<TokenSigningKeyEntity, 'retiredAt'>;

/**
 * A fresh RSA key for JwtRS256 access tokens: the private half as PKCS#8, encrypted;
 * the public half as the JWK the JWKS publishes, its `kid` the RFC 7638 thumbprint.
 */
export async function generateTokenSigningKey(cipher: SecretCipher, now: Date): Promise<NewTokenSigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: TOKEN_SIGNING_KEY_BITS, extractable: true });
  const jwk = await exportJWK(publicKey);
  if (jwk.kty !== 'RSA' || !jwk.n || !jwk.e) throw new Error('an RSA key pair was expected');
  const kid = await calculateJwkThumbprint({ kty: 'RSA', n: jwk.n, e: jwk.e }, 'sha256');
  const publicJwk: PublicSigningJwk = { kty: 'RSA', n: jwk.n, e: jwk.e, kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKeyEnc: cipher.encrypt(TOKEN_SIGNING_KEY_PURPOSE, await exportPKCS8(privateKey)), publicJwk, createdAt: now };
}

/** The private key of a stored signing key, for signing RS256. */
export function signingPrivateKey(cipher: SecretCipher, key: Pick<TokenSigningKeyEntity, 'privateKeyEnc'>): Promise<CryptoKey> {
  return importPKCS8(cipher.decryptText(TOKEN_SIGNING_KEY_PURPOSE, key.privateKeyEnc), 'RS256');
}
