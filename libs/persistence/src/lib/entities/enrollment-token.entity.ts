import { AccountId } from '@twofold/domain';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('enrollment_tokens')
export class EnrollmentTokenEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
  /** SHA-256 of the token in the link */
  @Column({ name: 'token_hash', type: 'bytea' }) tokenHash!: Buffer;
  @Column({ name: 'user_id', type: 'uuid', nullable: true }) userId!: string | null;
  @Column({ name: 'administrator_id', type: 'uuid', nullable: true }) administratorId!: string | null;
  @Column({ type: 'text', nullable: true }) email!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt!: Date;
  @Column({ name: 'used_at', type: 'timestamptz', nullable: true }) usedAt!: Date | null;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt!: Date | null;
  /** AES-256-GCM; the secret shown on the page until a valid code confirms it */
  @Column({ name: 'pending_secret_enc', type: 'bytea', nullable: true }) pendingSecretEnc!: Buffer | null;
  @Column({ name: 'failed_attempts', type: 'int', default: 0 }) failedAttempts!: number;
}
