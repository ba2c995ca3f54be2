import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, HttpException, HttpStatus, Injectable, NotFoundException } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { TelegramRuntime } from './telegram-runtime';

/** The header in which Telegram sends the webhook's secret token, as `setWebhook` registered it. */
export const TELEGRAM_SECRET_HEADER = 'x-telegram-bot-api-secret-token';

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * `POST /telegram/updates` is Telegram's alone: without a bot in webhook mode the path does not exist
 * (404), and a call without `X-Telegram-Bot-Api-Secret-Token` equal to TELEGRAM_WEBHOOK_SECRET is 401
 * before its body is read, so nothing is decided or bound. Compared in constant time (over digests,
 * so a different length tells nothing either).
 */
@Injectable()
export class TelegramWebhookGuard implements CanActivate {
  constructor(private readonly runtime: TelegramRuntime) {}

  canActivate(context: ExecutionContext): boolean {
    const settings = this.runtime.settings;
    if (!this.runtime.enabled || settings?.updates !== 'webhook' || !settings.webhookSecret) throw new NotFoundException('Not found.');
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers[TELEGRAM_SECRET_HEADER];
    const given = typeof header === 'string' ? header : '';
    if (!timingSafeEqual(digest(given), digest(settings.webhookSecret))) {
      throw new HttpException('Authentication required.', HttpStatus.UNAUTHORIZED);
    }
    return true;
  }
}
