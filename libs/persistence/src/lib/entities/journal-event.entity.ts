import { AccountId } from '@twofold/domain';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('journal_events')
export class JournalEventEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  /** insertion order, for a stable order among events of one millisecond */
  @Column({ type: 'bigint', insert: false, update: false, select: false }) seq!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
  @Column({ name: 'event_date', type: 'timestamptz' }) eventDate!: Date;
  @Column({ type: 'text' }) object!: string;
  @Column({ type: 'text' }) action!: string;
  @Column({ type: 'text' }) subject!: string;
  @Column({ type: 'boolean' }) success!: boolean;
  @Column({ name: 'additional_fields', type: 'jsonb', default: () => "'{}'" }) additionalFields!: Record<string, string>;
}
