import { Injectable } from '@nestjs/common';
import { AccountId } from '@twofold/domain';
import { TelegramBindingsRepository } from '@twofold/persistence';
import { toString as qrSvg } from 'qrcode';
import { TelegramBindingService } from './telegram-binding.service';
import { TelegramRuntime } from './telegram-runtime';

/** What a page shows to bind a Telegram chat: the bot's deep link and its QR code, and the link to wait for. */
export interface TelegramOffer {
  linkId: string;
  /** `https://t.me/<bot>?start=<payload>` */
  url: string;
  qrSvg: string;
}

/**
 * Telegram offered on the pages that enroll a second factor (the enrollment page, the access page's
 * first visit) when a bot is configured: a single-use deep link expiring with the page, and whether
 * that link has bound a chat yet, which the page asks without a reload.
 */
@Injectable()
export class TelegramEnrollment {
  constructor(
    private readonly runtime: TelegramRuntime,
    private readonly binding: TelegramBindingService,
    private readonly links: TelegramBindingsRepository,
  ) {}

  /** A new link for the user, or null when no bot is configured (or it cannot tell its name now). */
  async offer(accountId: AccountId, userId: string, expiresAt: Date): Promise<TelegramOffer | null> {
    if (!this.runtime.enabled) return null;
    const link = await this.binding.createLink(accountId, userId, expiresAt).catch(() => null);
    if (!link?.url) return null;
    return { linkId: link.id, url: link.url, qrSvg: await qrSvg(link.url, { type: 'svg', margin: 0, errorCorrectionLevel: 'M' }) };
  }

  /** Whether the user's link `linkId` has bound a chat; false for a link of anyone else. */
  async bound(accountId: AccountId, userId: string | null, linkId: string): Promise<boolean> {
    if (!userId || !/^[0-9a-f-]{36}$/i.test(linkId)) return false;
    const link = await this.links.findLink(accountId, linkId);
    return link !== null && link.userId === userId && link.usedAt !== null && link.authenticatorId !== null;
  }
}
