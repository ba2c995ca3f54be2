import { AccountId } from '@twofold/domain';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('phones')
export class PhoneEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  /** E.164 */
  @Column({ type: 'text' }) number!: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
