import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A public RSA key as published in the JWKS (RFC 7517): `kty`, `n`, `e`, `kid`, `alg`, `use`. */
export interface PublicSigningJwk {
  kty: 'RSA';
  n: string;
  e: string;
  kid: string;
  alg: 'RS256';
  use: 'sig';
}

/**
 * The service's RSA keys signing JwtRS256 access tokens. Not an account's row: one
 * key signs for every account, so these rows have no account id. At most one key is active
 * (`retired_at IS NULL`, a partial unique index); a retired key stays published until the tokens it
 * signed have expired.
 */
@Entity('token_signing_keys')
export class TokenSigningKeyEntity {
  /** RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key */
  @PrimaryColumn({ type: 'text' }) kid!: string;
  /** the PKCS#8 private key, AES-256-GCM under SECRET_ENCRYPTION_KEY (purpose `token.signing-key`) */
  @Column({ name: 'private_key_enc', type: 'bytea' }) privateKeyEnc!: Buffer;
  @Column({ name: 'public_jwk', type: 'jsonb' }) publicJwk!: PublicSigningJwk;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'retired_at', type: 'timestamptz', nullable: true }) retiredAt!: Date | null;
}
