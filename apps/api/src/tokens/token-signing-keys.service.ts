import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Clock, isSigningKeyPublished, signingKeyAt, TOKEN_SIGNING_KEY_RETENTION_SECONDS } from '@twofold/domain';
import {
  generateTokenSigningKey,
  PublicSigningJwk,
  SecretCipher,
  signingPrivateKey,
  TokenSigningKeyEntity,
  TokenSigningKeysRepository,
} from '@twofold/persistence';
import { CryptoKey, importJWK } from 'jose';
import { CLOCK } from '../config/injection-tokens';

/**
 * How long the keys read from the database are used before they are read again, by the injected
 * clock. A key rotated by the CLI is signed with and published by every instance within this time
 * (within 10 s, with the JWKS' own HTTP caching of JWKS_MAX_AGE_SECONDS on top).
 */
export const SIGNING_KEY_CACHE_TTL_MS = 5_000;
/**
 * A token of a kid this instance does not know yet (another instance signed with a key rotated a
 * moment ago) reads the keys again, at most this often: unknown kids cannot make every request a query.
 */
export const SIGNING_KEY_UNKNOWN_KID_RELOAD_MS = 1_000;

export interface ActiveSigningKey {
  kid: string;
  privateKey: CryptoKey;
}

interface PublishedKey {
  jwk: PublicSigningJwk;
  retiredAt: Date | null;
  publicKey: CryptoKey;
}

interface KeyCache {
  loadedAt: number;
  /** every key published, with its private half once it was needed to sign */
  rows: TokenSigningKeyEntity[];
  published: PublishedKey[];
}

/**
 * The service's RSA keys for JwtRS256 access tokens, cached in memory and read again
 * from the database when the cache is older than SIGNING_KEY_CACHE_TTL_MS. The first start of the API
 * on a database without an active key generates one.
 */
@Injectable()
export class TokenSigningKeysService implements OnModuleInit {
  private cache: KeyCache | null = null;
  private loading: Promise<KeyCache> | null = null;

  constructor(
    private readonly keys: TokenSigningKeysRepository,
    private readonly cipher: SecretCipher,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.current(true);
  }

  private readonly privateKeys = new Map<string, CryptoKey>();

  /**
   * The key new RS256 tokens are signed with, chosen at each use: a key published ahead of a rotation
   * takes over at its predecessor's retirement, on time, whatever the age of the cache.
   */
  async activeKey(): Promise<ActiveSigningKey> {
    const cache = await this.current();
    const row = signingKeyAt(cache.rows, this.clock.now());
    if (!row) throw new Error('no token signing key signs now');
    let privateKey = this.privateKeys.get(row.kid);
    if (!privateKey) {
      privateKey = await signingPrivateKey(this.cipher, row);
      this.privateKeys.set(row.kid, privateKey);
    }
    return { kid: row.kid, privateKey };
  }

  /** The public JWKs of GET /.well-known/jwks.json: the active key, then retired keys whose tokens may still be valid. */
  async publishedJwks(): Promise<PublicSigningJwk[]> {
    return (await this.publishedNow()).map((key) => ({ ...key.jwk }));
  }

  /** The public key of a published kid, to verify a token we signed; null for any other kid. */
  async verificationKey(kid: string): Promise<CryptoKey | null> {
    let found = (await this.publishedNow()).find((key) => key.jwk.kid === kid);
    const cache = this.cache;
    if (!found && cache && this.clock.now().getTime() - cache.loadedAt >= SIGNING_KEY_UNKNOWN_KID_RELOAD_MS) {
      await this.current(true);
      found = (await this.publishedNow()).find((key) => key.jwk.kid === kid);
    }
    return found?.publicKey ?? null;
  }

  private async publishedNow(): Promise<PublishedKey[]> {
    const cache = await this.current();
    const now = this.clock.now();
    // retention is checked at each use, not only at each read: a key leaves the JWKS on time
    return cache.published.filter((key) => isSigningKeyPublished(key.retiredAt, now));
  }

  private async current(force = false): Promise<KeyCache> {
    const now = this.clock.now().getTime();
    const cache = this.cache;
    // a clock set back (tests) reads again too
    if (!force && cache && now - cache.loadedAt < SIGNING_KEY_CACHE_TTL_MS && now >= cache.loadedAt) return cache;
    if (!this.loading) {
      this.loading = this.load().finally(() => {
        this.loading = null;
      });
    }
    return this.loading;
  }

  private async load(): Promise<KeyCache> {
    const now = this.clock.now();
    let rows = await this.keys.listPublishable(new Date(now.getTime() - TOKEN_SIGNING_KEY_RETENTION_SECONDS * 1000));
    if (!rows.some((row) => row.retiredAt === null)) {
      // the first start on this database; another instance starting now may win the insert
      await this.keys.insertIfNoneActive(await generateTokenSigningKey(this.cipher, now));
      rows = await this.keys.listPublishable(new Date(now.getTime() - TOKEN_SIGNING_KEY_RETENTION_SECONDS * 1000));
    }
    if (!rows.some((row) => row.retiredAt === null)) throw new Error('no active token signing key after inserting one');
    const previous = this.cache;
    const published = await Promise.all(rows.map((row) => this.publishedKey(row, previous)));
    for (const kid of this.privateKeys.keys()) if (!rows.some((row) => row.kid === kid)) this.privateKeys.delete(kid);
    const cache = { loadedAt: now.getTime(), rows, published };
    this.cache = cache;
    return cache;
  }

  private async publishedKey(row: TokenSigningKeyEntity, previous: KeyCache | null): Promise<PublishedKey> {
    const known = previous?.published.find((key) => key.jwk.kid === row.kid);
    const publicKey = known?.publicKey ?? ((await importJWK({ ...row.publicJwk }, 'RS256')) as CryptoKey);
    return { jwk: row.publicJwk, retiredAt: row.retiredAt, publicKey };
  }
}
