import { AccountId } from '@twofold/domain';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type AccessRequestStatus = 'AwaitingAuthentication' | 'Granted' | 'Denied' | 'Expired';
/** page: POST /access/requests and its access page; ra, md: the browserless `ra` family; la: the LDAP adapter's approvals */
export type AccessRequestChannel = 'page' | 'ra' | 'md' | 'la';
/**
 * What the request's token is for: signing in, or a self-service portal's password reset or account
 * unlock, whose token alone lets the portal act on the directory (never enrolled, never bypassed).
 */
export type AccessRequestPurpose = 'signIn' | 'resetPassword' | 'unlockUser';

@Entity('access_requests')
export class AccessRequestEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
  @Column({ name: 'resource_id', type: 'uuid' }) resourceId!: string;
  @Column({ name: 'user_id', type: 'uuid', nullable: true }) userId!: string | null;
  @Column({ type: 'text' }) identity!: string;
  @Column({ type: 'text', nullable: true }) email!: string | null;
  @Column({ type: 'text', nullable: true }) phone!: string | null;
  @Column({ type: 'text' }) language!: string;
  @Column({ type: 'jsonb', nullable: true }) claims!: Record<string, unknown> | null;
  @Column({ name: 'callback_action', type: 'text', nullable: true }) callbackAction!: string | null;
  @Column({ name: 'callback_target', type: 'text', nullable: true }) callbackTarget!: string | null;
  @Column({ type: 'text', default: 'page' }) channel!: AccessRequestChannel;
  @Column({ type: 'text' }) status!: AccessRequestStatus;
  /** groupPolicyPreset.signUpGroups: groups a user registered by this request joins (those that exist) */
  @Column({ name: 'sign_up_groups', type: 'text', array: true, nullable: true }) signUpGroups!: string[] | null;
  @Column({ name: 'failed_attempts', type: 'int', default: 0 }) failedAttempts!: number;
  /** the authenticator-app secret offered on the page, AES-256-GCM; never selected unless asked for */
  @Column({ name: 'pending_secret_enc', type: 'bytea', nullable: true, select: false }) pendingSecretEnc!: Buffer | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'granted_at', type: 'timestamptz', nullable: true }) grantedAt!: Date | null;
  @Column({ type: 'text', nullable: true }) authenticator!: string | null;
  @Column({ name: 'country_code', type: 'text', nullable: true }) countryCode!: string | null;
  @Column({ type: 'text', nullable: true }) region!: string | null;
  @Column({ type: 'text', nullable: true }) city!: string | null;
  @Column({ name: 'remote_host', type: 'text', nullable: true }) remoteHost!: string | null;
  @Column({ type: 'text', nullable: true }) ip!: string | null;
  @Column({ name: 'two_fa_device_ip', type: 'text', nullable: true }) twoFADeviceIp!: string | null;
  /** granted without a code: the user's address is on a Bypass IP list */
  @Column({ type: 'boolean', default: false }) bypassed!: boolean;
  @Column({ type: 'text', default: 'signIn' }) purpose!: AccessRequestPurpose;
}
