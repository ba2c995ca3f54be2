import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('resources')
export class ResourceEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ name: 'api_key', type: 'text' }) apiKey!: string;
  /** AES-256-GCM; shown only at creation and through the journaled display endpoint */
  @Column({ name: 'api_secret_enc', type: 'bytea' }) apiSecretEnc!: Buffer;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
