import { AccountId } from '@twofold/domain';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** How the access token of a resource is signed. */
export type TokenFormat = 'JwtHS256' | 'JwtRS256';

@Entity('resources')
export class ResourceEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
  @Column({ type: 'text' }) name!: string;
  @Column({ name: 'api_key', type: 'text' }) apiKey!: string;
  /** AES-256-GCM; shown only at creation and through the journaled display endpoint */
  @Column({ name: 'api_secret_enc', type: 'bytea' }) apiSecretEnc!: Buffer;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  /** JwtHS256: keyed by the resource secret; JwtRS256: the service's RSA key, published as JWKS */
  @Column({ name: 'token_format', type: 'text', default: 'JwtHS256' }) tokenFormat!: TokenFormat;
  /** origins (`scheme://host[:port]`) that may frame this resource's pages and receive its postMessage token */
  @Column({ name: 'frame_origins', type: 'text', array: true, default: () => "'{}'" }) frameOrigins!: string[];
}
