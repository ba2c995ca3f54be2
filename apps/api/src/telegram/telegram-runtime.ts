import { KeyObject } from 'node:crypto';
import { TelegramSettings } from '../config/app-config';
import { TelegramBotApi, TelegramBotApiOptions } from './telegram-bot-api';
import { callbackDataKey } from './telegram-callback-data';

/**
 * The bot of this process, or none (TELEGRAM_BOT_TOKEN unset): every Telegram piece asks this one
 * object whether there is a bot, and talks to the Bot API through its client.
 */
export class TelegramRuntime {
  readonly api: TelegramBotApi | null;
  /** the HMAC key of the buttons' callback data */
  readonly callbackKey: KeyObject;

  constructor(
    readonly settings: TelegramSettings | undefined,
    encryptionKey: Buffer,
    clientOptions: Partial<TelegramBotApiOptions> = {},
  ) {
    this.api = settings ? new TelegramBotApi({ token: settings.botToken, apiUrl: settings.apiUrl, ...clientOptions }) : null;
    this.callbackKey = callbackDataKey(encryptionKey);
  }

  get enabled(): boolean {
    return this.api !== null;
  }
}
