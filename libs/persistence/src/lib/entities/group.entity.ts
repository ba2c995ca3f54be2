import { AccountId } from '@twofold/domain';
import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

@Entity('groups')
export class GroupEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
  @Column({ type: 'text' }) name!: string;
  /** the AllUsers group: cannot be renamed, deleted, added to or removed from */
  @Column({ type: 'boolean', default: false }) system!: boolean;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}

@Entity('user_groups')
export class UserGroupEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' }) userId!: string;
  @PrimaryColumn({ name: 'group_id', type: 'uuid' }) groupId!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
}
