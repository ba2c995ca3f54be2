import { AccountId } from '@twofold/domain';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('custom_fields')
export class CustomFieldEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  /** unique per user case-insensitively */
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) value!: string;
}
