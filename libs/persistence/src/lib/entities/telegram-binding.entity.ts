import { AccountId } from '@twofold/domain';
import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** The Telegram chat of a `Telegram` authenticator. */
@Entity('telegram_bindings')
export class TelegramBindingEntity {
  @PrimaryColumn({ name: 'authenticator_id', type: 'uuid' }) authenticatorId!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
  /** Telegram's chat ids fit 52 bits: read back as a string (bigint), compared as one */
  @Column({ name: 'chat_id', type: 'bigint' }) chatId!: string;
  /** Telegram's `language_code` of the user at binding: the language of the chat's messages */
  @Column({ name: 'language_code', type: 'text', nullable: true }) languageCode!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}

/** A single-use, expiring `/start` payload that binds the chat it comes from to a user. */
@Entity('telegram_binding_links')
export class TelegramBindingLinkEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  /** SHA-256 of the payload */
  @Column({ name: 'payload_hash', type: 'bytea' }) payloadHash!: Buffer;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt!: Date;
  @Column({ name: 'used_at', type: 'timestamptz', nullable: true }) usedAt!: Date | null;
  /** the authenticator the link made */
  @Column({ name: 'authenticator_id', type: 'uuid', nullable: true }) authenticatorId!: string | null;
}
