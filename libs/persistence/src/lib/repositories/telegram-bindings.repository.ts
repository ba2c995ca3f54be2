import { AccountId } from '@twofold/domain';
import { IsNull } from 'typeorm';
import { Db } from '../transaction-context';
import { TelegramBindingEntity, TelegramBindingLinkEntity } from '../entities';

/** A bound chat, with what its authenticator says about it now. */
export interface TelegramChat {
  authenticatorId: string;
  userId: string;
  chatId: string;
  languageCode: string | null;
  /** an administrator disabled the authenticator: no approval is asked through it */
  disabled: boolean;
}

/** Telegram chats bound to users, and the single-use `/start` links that bind them. */
export class TelegramBindingsRepository {
  constructor(private readonly db: Db) {}

  private links() {
    return this.db.manager().getRepository(TelegramBindingLinkEntity);
  }

  private bindings() {
    return this.db.manager().getRepository(TelegramBindingEntity);
  }

  insertLink(
    accountId: AccountId,
    values: Pick<TelegramBindingLinkEntity, 'userId' | 'payloadHash' | 'createdAt' | 'expiresAt'>,
  ): Promise<TelegramBindingLinkEntity> {
    return this.links().save(this.links().create({ ...values, accountId, usedAt: null, authenticatorId: null }));
  }

  findLink(accountId: AccountId, id: string): Promise<TelegramBindingLinkEntity | null> {
    return this.links().findOneBy({ accountId, id });
  }

  /** The bot's lookup: the payload is all a `/start` message brings, so this one is not scoped by account. */
  findLinkByPayloadHash(payloadHash: Buffer): Promise<TelegramBindingLinkEntity | null> {
    return this.links().findOneBy({ payloadHash });
  }

  /** Spends the link unless it was spent or has expired: true for exactly one of parallel callers. */
  async useLink(accountId: AccountId, id: string, at: Date): Promise<boolean> {
    const result = await this.links()
      .createQueryBuilder()
      .update()
      .set({ usedAt: at })
      .where('account_id = :accountId AND id = :id AND used_at IS NULL AND expires_at > :at', { accountId, id, at })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  async setLinkAuthenticator(accountId: AccountId, id: string, authenticatorId: string): Promise<void> {
    await this.links().update({ accountId, id, authenticatorId: IsNull() }, { authenticatorId });
  }

  async insertBinding(
    accountId: AccountId,
    values: Pick<TelegramBindingEntity, 'authenticatorId' | 'chatId' | 'languageCode' | 'createdAt'>,
  ): Promise<void> {
    await this.bindings().insert({ ...values, accountId });
  }

  /** The chat of a Telegram authenticator, or null (not one, or deleted). */
  async chatOf(accountId: AccountId, authenticatorId: string): Promise<TelegramChat | null> {
    const rows: TelegramChat[] = await this.db.manager().query(
      `SELECT b.authenticator_id AS "authenticatorId", a.user_id AS "userId", b.chat_id::text AS "chatId",
              b.language_code AS "languageCode", a.disabled
         FROM telegram_bindings b JOIN authenticators a ON a.id = b.authenticator_id AND a.account_id = b.account_id
        WHERE b.account_id = $1 AND b.authenticator_id = $2 AND a.kind = 'Telegram'`,
      [accountId, authenticatorId],
    );
    return rows[0] ?? null;
  }

  /** The user's Telegram authenticators bound to this chat (a second `/start` of the same chat binds nothing new). */
  async chatsOfUser(accountId: AccountId, userId: string): Promise<TelegramChat[]> {
    return this.db.manager().query(
      `SELECT b.authenticator_id AS "authenticatorId", a.user_id AS "userId", b.chat_id::text AS "chatId",
              b.language_code AS "languageCode", a.disabled
         FROM telegram_bindings b JOIN authenticators a ON a.id = b.authenticator_id AND a.account_id = b.account_id
        WHERE b.account_id = $1 AND a.user_id = $2 AND a.kind = 'Telegram'
        ORDER BY b.created_at, b.authenticator_id`,
      [accountId, userId],
    );
  }
}
