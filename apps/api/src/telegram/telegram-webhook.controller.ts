import { Controller, HttpCode, HttpStatus, Post, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { ValidationFailed } from '@twofold/domain';
import { ParsedBody } from '../http/parsed-input';
import { ApiFeature, ApiRoute, ApiTelegramSecret } from '../openapi/api-route';
import { TelegramUpdates } from './telegram-updates';
import { TelegramWebhookGuard } from './telegram-webhook.guard';
import { TELEGRAM_DOCS } from './telegram.openapi';

/** An update as Telegram sends it: an object with its integer `update_id`; the rest is read by TelegramUpdates. */
export function parseTelegramUpdate(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Number.isInteger((body as { update_id?: unknown }).update_id)) {
    throw new ValidationFailed('update_id must be an integer.');
  }
  return body as Record<string, unknown>;
}

/** Updates by webhook (TELEGRAM_UPDATES=webhook); the long poll (telegram-poller.ts) hands them to the same handler. */
@Controller({ path: 'telegram', version: VERSION_NEUTRAL })
@UseGuards(TelegramWebhookGuard)
@ApiFeature('Telegram')
@ApiTelegramSecret()
export class TelegramWebhookController {
  constructor(private readonly updates: TelegramUpdates) {}

  @ApiRoute(TELEGRAM_DOCS.updates)
  @Post('updates')
  @HttpCode(HttpStatus.OK)
  async receive(@ParsedBody(parseTelegramUpdate) update: Record<string, unknown>): Promise<Record<string, never>> {
    await this.updates.handle(update);
    return {};
  }
}
