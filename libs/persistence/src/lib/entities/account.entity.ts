import { AccountId, IdentityFormat } from '@twofold/domain';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('accounts')
export class AccountEntity {
  @PrimaryGeneratedColumn('uuid') id!: AccountId;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'int' }) licenses!: number;
  @Column({ name: 'api_enabled', type: 'boolean', default: false }) apiEnabled!: boolean;
  @Column({ name: 'api_key', type: 'text', nullable: true }) apiKey!: string | null;
  /** AES-256-GCM, see SecretCipher; never returned after creation or rotation */
  @Column({ name: 'api_secret_enc', type: 'bytea', nullable: true }) apiSecretEnc!: Buffer | null;
  /** the customer's name on pages, mails and authenticator apps; null: the account's name (see effectiveDisplayName) */
  @Column({ name: 'display_name', type: 'text', nullable: true }) displayName!: string | null;
  /** how identities received for this account are written: AsIs or Login */
  @Column({ name: 'identity_format', type: 'text', default: 'AsIs' }) identityFormat!: IdentityFormat;
  @Column({ name: 'directory_sync', type: 'boolean', default: false }) directorySync!: boolean;
  /** kept by the triggers users_count_inserted/deleted; never written by the application */
  @Column({ name: 'user_count', type: 'int', insert: false, update: false, default: 0 }) userCount!: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
