import { AccountId } from '@twofold/domain';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type AuthenticatorKind = 'Totp' | 'TotpToken' | 'HotpToken' | 'Telegram' | 'MobileApp' | 'Sms';

@Entity('authenticators')
export class AuthenticatorEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  @Column({ type: 'text' }) kind!: AuthenticatorKind;
  @Column({ type: 'text' }) name!: string;
  /** OTP key, AES-256-GCM; never returned */
  @Column({ name: 'secret_enc', type: 'bytea', nullable: true }) secretEnc!: Buffer | null;
  @Column({ name: 'private_id_enc', type: 'bytea', nullable: true }) privateIdEnc!: Buffer | null;
  @Column({ type: 'text', nullable: true }) algorithm!: string | null;
  @Column({ type: 'int', nullable: true }) digits!: number | null;
  /** HOTP: the next counter expected */
  @Column({ name: 'hotp_counter', type: 'bigint', nullable: true }) hotpCounter!: string | null;
  /** TOTP: the last time step accepted; replay protection refuses any step at or below it */
  @Column({ name: 'last_time_step', type: 'bigint', nullable: true }) lastTimeStep!: string | null;
  /** TOTP: the token's clock drift in time steps, found by a resync; codes are looked for around now plus this */
  @Column({ name: 'totp_drift_steps', type: 'int', default: 0 }) totpDriftSteps!: number;
  /** disabled by an administrator: still listed, but no code of it is accepted */
  @Column({ type: 'boolean', default: false }) disabled!: boolean;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
