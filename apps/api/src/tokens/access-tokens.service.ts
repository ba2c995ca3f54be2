import { Inject, Injectable } from '@nestjs/common';
import { accessTokenClaims } from '@twofold/domain';
import { ResourceEntity, SecretCipher } from '@twofold/persistence';
import { CryptoKey, decodeProtectedHeader, errors, JWTPayload, jwtVerify, SignJWT } from 'jose';
import { APP_CONFIG } from '../config/injection-tokens';
import { AppConfig } from '../config/app-config';
import { TokenSigningKeysService } from './token-signing-keys.service';

/** What an access token says about its holder; the service adds iss, aud, iat and exp. */
export interface AccessTokenContent {
  /** `sub`: the user's identity */
  identity: string;
  /** `jti`: the access request's id, or a fresh UUID for a refreshed token */
  jti: string;
  /** the request's own claims, JSON types kept; reserved names are dropped */
  claims: Record<string, unknown>;
  /** `iat`; `exp` is one hour later */
  now: Date;
  /** `amr`: how the user was authenticated (`otp`, `bypass`); a refreshed token keeps its own (none if it had none) */
  amr?: readonly string[];
}

/** A token longer than this is not one of ours (claims are at most 8 KiB of JSON): refused unparsed. */
export const ACCESS_TOKEN_MAX_CHARS = 32 * 1024;

export const TOKEN_REFUSALS = {
  malformed: 'The access token is malformed.',
  unsupported: 'The access token is not signed in a supported way.',
  signature: 'The access token signature is invalid.',
  expired: 'The access token has expired.',
  notOurs: 'The access token was not issued to this resource.',
  otherFormat: "The access token is not in the resource's token format.",
  notIssued: 'The access token was not issued by this service.',
  invalid: 'The access token is invalid.',
} as const;

export type TokenCheck = { valid: true; payload: JWTPayload & { sub: string } } | { valid: false; reason: string };

/**
 * The one signer of access tokens and its inverse for /token/refresh: JwtHS256
 * keyed by the UTF-8 bytes of the resource's API secret, JwtRS256 with the service's active RSA key
 * (its `kid` in the header), as the resource's tokenFormat says.
 */
@Injectable()
export class AccessTokensService {
  constructor(
    private readonly keys: TokenSigningKeysService,
    private readonly cipher: SecretCipher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async sign(resource: ResourceEntity, content: AccessTokenContent): Promise<string> {
    const payload = accessTokenClaims(content.claims, {
      iss: this.config.tokenIssuer,
      aud: resource.apiKey,
      sub: content.identity,
      jti: content.jti,
      iat: Math.floor(content.now.getTime() / 1000),
      amr: content.amr,
    });
    if (resource.tokenFormat === 'JwtRS256') {
      const key = await this.keys.activeKey();
      return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: key.kid }).sign(key.privateKey);
    }
    return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(this.resourceSecret(resource));
  }

  /**
   * A token signed for this resource, valid at `now`, in the resource's current format only: HS256
   * under the resource's secret for JwtHS256, RS256 under one of our published keys for JwtRS256 (a
   * token of the other format is refused, never converted: an HS256 token can be made by whoever
   * holds the resource's secret, and must not come back signed by the service's key). `iss` our
   * issuer, `aud` the resource's key. Only these two algorithms are ever accepted (never `none`).
   * The signature proves who signed, not that the service granted anything: callers that trust a
   * token as a grant check its `jti` against the grants recorded.
   */
  async verify(resource: ResourceEntity, token: string, now: Date): Promise<TokenCheck> {
    if (token.length === 0 || token.length > ACCESS_TOKEN_MAX_CHARS) return refused('malformed');
    let alg: unknown;
    let kid: unknown;
    try {
      ({ alg, kid } = decodeProtectedHeader(token));
    } catch {
      return refused('malformed');
    }
    let algorithm: 'HS256' | 'RS256';
    let key: Uint8Array | CryptoKey | null;
    if ((alg === 'HS256' || alg === 'RS256') && alg !== algorithmOf(resource)) return refused('otherFormat');
    if (alg === 'HS256') {
      algorithm = alg;
      key = this.resourceSecret(resource);
    } else if (alg === 'RS256' && typeof kid === 'string') {
      algorithm = alg;
      key = await this.keys.verificationKey(kid);
      // a kid we never published, or one retired so long ago that its tokens have all expired
      if (!key) return refused('signature');
    } else {
      return refused('unsupported');
    }
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: [algorithm],
        issuer: this.config.tokenIssuer,
        audience: resource.apiKey,
        currentDate: now,
        requiredClaims: ['sub', 'iat', 'exp'],
      });
      if (typeof payload.sub !== 'string' || payload.sub === '') return refused('invalid');
      return { valid: true, payload: payload as JWTPayload & { sub: string } };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return refused('expired');
      if (error instanceof errors.JWSSignatureVerificationFailed) return refused('signature');
      if (error instanceof errors.JWTClaimValidationFailed && (error.claim === 'iss' || error.claim === 'aud')) return refused('notOurs');
      if (error instanceof errors.JOSEError)
        return refused(error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid ? 'malformed' : 'invalid');
      throw error;
    }
  }

  private resourceSecret(resource: ResourceEntity): Uint8Array {
    return new TextEncoder().encode(this.cipher.decryptText('resource.api-secret', resource.apiSecretEnc));
  }
}

function algorithmOf(resource: ResourceEntity): 'HS256' | 'RS256' {
  return resource.tokenFormat === 'JwtRS256' ? 'RS256' : 'HS256';
}

function refused(reason: keyof typeof TOKEN_REFUSALS): TokenCheck {
  return { valid: false, reason: TOKEN_REFUSALS[reason] };
}
