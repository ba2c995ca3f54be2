import { AccountId } from '@twofold/domain';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('administrators')
export class AdministratorEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
  /** the e-mail given at registration */
  @Column({ type: 'text' }) identity!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) role!: string;
  @Column({ type: 'text' }) status!: string;
  @Column({ name: 'registration_date', type: 'timestamptz' }) registrationDate!: Date;
  @Column({ name: 'last_login_date', type: 'timestamptz', nullable: true }) lastLoginDate!: Date | null;
  /** when the administrator first became Active; null while they never were (unlock then returns to Pending) */
  @Column({ name: 'activated_at', type: 'timestamptz', nullable: true }) activatedAt!: Date | null;
  /** the language of the invitation mail, which a re-sent invitation keeps; null: invited before it was kept (the default) */
  @Column({ name: 'mail_language', type: 'text', nullable: true }) mailLanguage!: 'ru' | 'en' | null;
  /** the administrator's own authenticator-app secret (AES-256-GCM), set through the invitation link */
  @Column({ name: 'second_factor_secret_enc', type: 'bytea', nullable: true, select: false }) secondFactorSecretEnc!: Buffer | null;
}
