import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AccountId,
  Clock,
  effectiveDisplayName,
  isTelegramStartPayload,
  TELEGRAM_BINDING_TTL_MINUTES,
  TELEGRAM_START_PAYLOAD_BYTES,
} from '@twofold/domain';
import { authenticatorBoundEntry, JournalWriter } from '@twofold/journal';
import { AccountsRepository, AuthenticatorsRepository, Db, TelegramBindingsRepository, UsersRepository } from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';
import { TelegramRuntime } from './telegram-runtime';

/** A binding link for a page to show (as a link and a QR code). */
export interface TelegramBindingLink {
  /** the link's record, for the page to ask whether it was used */
  id: string;
  /** `https://t.me/<bot>?start=<payload>`; null while the bot's name is unknown (the Bot API unreachable) */
  url: string | null;
  expiresAt: Date;
}

/** The name of a new Telegram authenticator: the chat's user name when Telegram tells it. */
export const TELEGRAM_AUTHENTICATOR_NAME = 'Telegram';

export type BindOutcome = { kind: 'bound'; accountName: string } | { kind: 'alreadyBound' } | { kind: 'invalid' };

/** The chat a `/start` came from, as Telegram describes it. */
export interface StartingChat {
  chatId: string;
  languageCode: string | null;
  username: string | null;
}

function payloadHash(payload: string): Buffer {
  return createHash('sha256').update(payload, 'utf8').digest();
}

/**
 * Binding a Telegram chat to a user: a page asks for a link (`createLink`) and shows it; the user
 * opens it, Telegram sends the bot `/start <payload>` from the user's chat, and `bind` makes that chat
 * a `Telegram` authenticator of the user. The payload is 43 random characters, stored only as its
 * hash, single use and expiring; an unknown, spent or expired one binds nothing.
 */
@Injectable()
export class TelegramBindingService {
  constructor(
    private readonly db: Db,
    private readonly runtime: TelegramRuntime,
    private readonly bindings: TelegramBindingsRepository,
    private readonly authenticators: AuthenticatorsRepository,
    private readonly users: UsersRepository,
    private readonly accounts: AccountsRepository,
    private readonly journal: JournalWriter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A new link for the user; `expiresAt`: with the page that shows it (default TELEGRAM_BINDING_TTL_MINUTES). */
  async createLink(accountId: AccountId, userId: string, expiresAt?: Date): Promise<TelegramBindingLink> {
    const now = this.clock.now();
    const payload = randomBytes(TELEGRAM_START_PAYLOAD_BYTES).toString('base64url');
    const link = await this.bindings.insertLink(accountId, {
      userId,
      payloadHash: payloadHash(payload),
      createdAt: now,
      expiresAt: expiresAt ?? new Date(now.getTime() + TELEGRAM_BINDING_TTL_MINUTES * 60_000),
    });
    const bot = await this.runtime.api?.username();
    return { id: link.id, url: bot ? `https://t.me/${bot}?start=${payload}` : null, expiresAt: link.expiresAt };
  }

  /** Whether a link has bound a chat yet, and which authenticator it made: what the page waits for. */
  async linkState(accountId: AccountId, linkId: string): Promise<{ bound: boolean; authenticatorId: string | null } | null> {
    const link = await this.bindings.findLink(accountId, linkId);
    if (!link) return null;
    return { bound: link.usedAt !== null && link.authenticatorId !== null, authenticatorId: link.authenticatorId };
  }

  /**
   * `/start <payload>` from a private chat. In one transaction, under the user's row lock: the link is
   * spent (once, before its expiry), and the chat becomes a `Telegram` authenticator of the user,
   * journaled `Authenticator Bind` (the user is the subject; no chat id, no token). A chat already
   * bound to the user spends the link and binds nothing new.
   */
  async bind(payload: string, chat: StartingChat): Promise<BindOutcome> {
    if (!isTelegramStartPayload(payload)) return { kind: 'invalid' };
    const link = await this.bindings.findLinkByPayloadHash(payloadHash(payload));
    if (!link) return { kind: 'invalid' };
    const now = this.clock.now();
    return this.db.transaction(async (): Promise<BindOutcome> => {
      const user = await this.users.findByIdForUpdate(link.accountId, link.userId);
      if (!user || !(await this.bindings.useLink(link.accountId, link.id, now))) return { kind: 'invalid' };
      const existing = (await this.bindings.chatsOfUser(link.accountId, user.id)).find((bound) => bound.chatId === chat.chatId);
      if (existing) {
        await this.bindings.setLinkAuthenticator(link.accountId, link.id, existing.authenticatorId);
        return { kind: 'alreadyBound' };
      }
      const authenticator = await this.authenticators.insert(link.accountId, {
        userId: user.id,
        kind: 'Telegram',
        name: chat.username ? `${TELEGRAM_AUTHENTICATOR_NAME} @${chat.username}` : TELEGRAM_AUTHENTICATOR_NAME,
        secretEnc: null,
        privateIdEnc: null,
        algorithm: null,
        digits: null,
        hotpCounter: null,
        lastTimeStep: null,
        createdAt: now,
      });
      await this.bindings.insertBinding(link.accountId, {
        authenticatorId: authenticator.id,
        chatId: chat.chatId,
        languageCode: chat.languageCode,
        createdAt: now,
      });
      await this.bindings.setLinkAuthenticator(link.accountId, link.id, authenticator.id);
      await this.journal.record(link.accountId, authenticatorBoundEntry(user, authenticator, 'Telegram'));
      const account = await this.accounts.findById(link.accountId);
      return { kind: 'bound', accountName: account ? effectiveDisplayName(account) : '' };
    });
  }
}
