import { Api, GrammyError } from 'grammy';
import { CliRefusal } from './cli-errors';

/** One Bot API call of the operator's: a few seconds at most, never retried (the operator runs it again). */
export const CLI_TELEGRAM_TIMEOUT_MS = 10_000;
export const DEFAULT_TELEGRAM_API_URL = 'https://api.telegram.org';

/** The bot's settings as the API reads them (TELEGRAM_*, PUBLIC_URL); the token is never printed. */
export interface CliTelegramSettings {
  token: string;
  apiUrl: string;
  webhookSecret: string | undefined;
  /** where Telegram must POST the updates: `$PUBLIC_URL/telegram/updates` */
  webhookUrl: string;
  updates: 'webhook' | 'polling';
}

export function telegramSettings(env: NodeJS.ProcessEnv): CliTelegramSettings {
  const token = env['TELEGRAM_BOT_TOKEN']?.trim();
  if (!token) throw new CliRefusal('TELEGRAM_NOT_CONFIGURED', 'TELEGRAM_BOT_TOKEN is not set: there is no bot to manage');
  const port = env['PORT'] || '3000';
  const publicUrl = (env['PUBLIC_URL'] || `http://localhost:${port}`).replace(/\/+$/, '');
  const webhookSecret = env['TELEGRAM_WEBHOOK_SECRET'] || undefined;
  const mode = env['TELEGRAM_UPDATES']?.trim();
  return {
    token,
    apiUrl: (env['TELEGRAM_API_URL'] || DEFAULT_TELEGRAM_API_URL).replace(/\/+$/, ''),
    webhookSecret,
    webhookUrl: `${publicUrl}/telegram/updates`,
    updates: mode === 'webhook' || mode === 'polling' ? mode : webhookSecret ? 'webhook' : 'polling',
  };
}

/**
 * The Bot API through grammY, as the API uses it. A failure becomes a refusal with Telegram's own
 * words (`401: Unauthorized`) or "cannot reach", never the request's URL, which holds the token.
 */
async function call<T>(apiUrl: string, what: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CLI_TELEGRAM_TIMEOUT_MS);
  try {
    return await run(controller.signal);
  } catch (error) {
    if (error instanceof GrammyError)
      throw new CliRefusal('TELEGRAM_REFUSED', `${what}: the Bot API refused (${error.error_code}: ${error.description})`);
    // the API's root as configured, never the failed call's URL (which holds the token)
    throw new CliRefusal('TELEGRAM_UNREACHABLE', `${what}: cannot reach the Bot API at ${apiUrl}`);
  } finally {
    clearTimeout(timer);
  }
}

type GrammySignal = Parameters<Api['raw']['getMe']>[0];
const forGrammy = (signal: AbortSignal) => signal as unknown as GrammySignal;

export class CliTelegram {
  private readonly api: Api;

  constructor(private readonly settings: CliTelegramSettings) {
    this.api = new Api(settings.token, { apiRoot: settings.apiUrl, sensitiveLogs: false });
  }

  /** `telegram status`: the bot, how it gets updates, and what Telegram says of the webhook. */
  async status(): Promise<Record<string, unknown>> {
    const me = await call(this.settings.apiUrl, 'getMe', (signal) => this.api.raw.getMe(forGrammy(signal)));
    const info = await call(this.settings.apiUrl, 'getWebhookInfo', (signal) => this.api.raw.getWebhookInfo(forGrammy(signal)));
    return {
      bot: { id: me.id, username: me.username ?? null, name: me.first_name },
      apiUrl: this.settings.apiUrl,
      updates: this.settings.updates,
      expectedWebhookUrl: this.settings.updates === 'webhook' ? this.settings.webhookUrl : null,
      webhook: {
        url: info.url || null,
        registered: info.url === this.settings.webhookUrl,
        pendingUpdateCount: info.pending_update_count,
        lastErrorDate: info.last_error_date ? new Date(info.last_error_date * 1000).toISOString() : null,
        lastErrorMessage: info.last_error_message ?? null,
      },
    };
  }

  /** `telegram set-webhook`: Telegram POSTs updates to `url` with TELEGRAM_WEBHOOK_SECRET in its header. */
  async setWebhook(url: string | undefined): Promise<Record<string, unknown>> {
    const secret = this.settings.webhookSecret;
    if (!secret)
      throw new CliRefusal('TELEGRAM_NO_WEBHOOK_SECRET', 'TELEGRAM_WEBHOOK_SECRET is not set: the API would refuse every update');
    const target = url ?? this.settings.webhookUrl;
    let parsed: URL;
    try {
      parsed = new URL(target);
    } catch {
      throw new CliRefusal('VALIDATION', `--url must be an absolute URL, got "${target}"`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new CliRefusal('VALIDATION', '--url must be an http(s) URL');
    await call(this.settings.apiUrl, 'setWebhook', (signal) =>
      this.api.raw.setWebhook({ url: target, secret_token: secret, allowed_updates: ['message', 'callback_query'] }, forGrammy(signal)),
    );
    return { webhook: { url: target } };
  }

  /** `telegram delete-webhook`: back to long polling (pending updates are kept). */
  async deleteWebhook(): Promise<Record<string, unknown>> {
    await call(this.settings.apiUrl, 'deleteWebhook', (signal) =>
      this.api.raw.deleteWebhook({ drop_pending_updates: false }, forGrammy(signal)),
    );
    return { webhook: null };
  }
}
