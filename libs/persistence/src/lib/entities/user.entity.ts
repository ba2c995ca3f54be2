import { AccountId } from '@twofold/domain';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type UserSource = 'Api' | 'Directory';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
  @Column({ type: 'text' }) identity!: string;
  /** what identities are compared by (libs/domain identity-key.ts), unique per account with the tag */
  @Column({ name: 'identity_key', type: 'text' }) identityKey!: string;
  /** '' for every user but the younger ones of a group whose identities came to share a key by migration: their id */
  @Column({ name: 'collision_tag', type: 'text', default: '' }) collisionTag!: string;
  @Column({ type: 'text', nullable: true }) name!: string | null;
  @Column({ type: 'text', nullable: true }) email!: string | null;
  @Column({ name: 'is_locked', type: 'boolean', default: false }) isLocked!: boolean;
  @Column({ type: 'text', default: 'Api' }) source!: UserSource;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'last_login', type: 'timestamptz', nullable: true }) lastLogin!: Date | null;
}
