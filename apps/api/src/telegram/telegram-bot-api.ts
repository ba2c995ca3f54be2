import { Api, GrammyError, HttpError } from 'grammy';
import type { Message, Update, User, WebhookInfo } from 'grammy/types';

/**
 * Why a Bot API call failed for good: the server refused it (a 4xx other than 429: a chat that blocked
 * the bot, a wrong token, a message that no longer exists); it could not be reached, or answered
 * something that is not the Bot API's JSON; it did not answer within the attempt's bound; it kept
 * throttling (429) longer than the call's bound allows.
 */
export type BotApiFailure = 'refused' | 'unreachable' | 'timeout' | 'throttled';

export type BotApiResult<T> =
  | { ok: true; result: T }
  /** `errorCode`, `description`, `retryAfterSeconds`: what the server said, when it said it in the Bot API's shape */
  | { ok: false; failure: BotApiFailure; errorCode?: number; description?: string; retryAfterSeconds?: number };

export interface TelegramBotApiOptions {
  token: string;
  /** the Bot API server, without a trailing slash */
  apiUrl: string;
  /** one HTTP call's bound (getUpdates adds its long-poll time to it) */
  attemptTimeoutMs?: number;
  /** attempts of one call at most, the first included */
  maxAttempts?: number;
  /** injected so that tests count the waits instead of waiting */
  sleep?: (ms: number) => Promise<void>;
  /** a monotonic clock in ms, for the calls' bounds */
  now?: () => number;
}

export const BOT_API_ATTEMPT_TIMEOUT_MS = 5_000;
export const BOT_API_MAX_ATTEMPTS = 4;
/** The first wait before retrying a 5xx, a timeout or an unreachable server; it doubles, up to BOT_API_RETRY_MAX_MS. */
export const BOT_API_RETRY_INITIAL_MS = 250;
export const BOT_API_RETRY_MAX_MS = 2_000;

const defaultSleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
  });

/** grammY types its signals with the `abort-controller` shim's class; Node's own AbortSignal is what it gets and handles. */
type GrammySignal = Parameters<Api['raw']['getMe']>[0];
const forGrammy = (signal: AbortSignal) => signal as unknown as GrammySignal;

/** An inline keyboard, as the Bot API takes it: rows of buttons with their callback data. */
export type InlineKeyboard = { text: string; callback_data: string }[][];

/**
 * The Telegram Bot API through grammY's client, with the retry rules of an approval: a 429 is
 * retried after its `retry_after` when that fits in the call's bound, a 5xx, a timeout or an
 * unreachable server after a short back-off, at most `maxAttempts` times; anything else is final.
 * Each call has a bound (`budgetMs`) it never outlives, so a Bot API that is down, slow or answering
 * garbage costs a delivery seconds, never the whole wait.
 *
 * The token is part of every request's URL: grammY's errors leave it out (`sensitiveLogs` off), and
 * nothing here logs or returns an error object of the HTTP client (whose message would hold the URL).
 */
export class TelegramBotApi {
  private readonly api: Api;
  private readonly attemptTimeoutMs: number;
  private readonly maxAttempts: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private me: User | null = null;

  constructor(options: TelegramBotApiOptions) {
    this.api = new Api(options.token, { apiRoot: options.apiUrl, sensitiveLogs: false });
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? BOT_API_ATTEMPT_TIMEOUT_MS;
    this.maxAttempts = options.maxAttempts ?? BOT_API_MAX_ATTEMPTS;
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? (() => performance.now());
  }

  sendMessage(chatId: string, text: string, keyboard: InlineKeyboard | null, budgetMs: number): Promise<BotApiResult<Message.TextMessage>> {
    return this.call(
      (signal) =>
        this.api.raw.sendMessage(
          {
            chat_id: chatId,
            text,
            link_preview_options: { is_disabled: true },
            ...(keyboard ? { reply_markup: { inline_keyboard: keyboard } } : {}),
          },
          signal,
        ),
      budgetMs,
      (result) => typeof result?.message_id === 'number',
    );
  }

  /** Replaces a message's text; without `keyboard` its buttons are removed. */
  editMessageText(chatId: string, messageId: number, text: string, budgetMs: number): Promise<BotApiResult<unknown>> {
    return this.call(
      (signal) =>
        this.api.raw.editMessageText(
          {
            chat_id: chatId,
            message_id: messageId,
            text,
            link_preview_options: { is_disabled: true },
            reply_markup: { inline_keyboard: [] },
          },
          signal,
        ),
      budgetMs,
    );
  }

  answerCallbackQuery(callbackQueryId: string, text: string, budgetMs: number): Promise<BotApiResult<unknown>> {
    return this.call((signal) => this.api.raw.answerCallbackQuery({ callback_query_id: callbackQueryId, text }, signal), budgetMs);
  }

  /** Long polling: the server holds the call up to `timeoutSeconds` while no update comes; one attempt, the caller loops. */
  getUpdates(offset: number | undefined, timeoutSeconds: number, signal?: AbortSignal): Promise<BotApiResult<Update[]>> {
    return this.attempt(
      (attemptSignal) =>
        this.api.raw.getUpdates({ offset, timeout: timeoutSeconds, allowed_updates: ['message', 'callback_query'] }, attemptSignal),
      this.attemptTimeoutMs + timeoutSeconds * 1000,
      (result) => Array.isArray(result),
      signal,
    );
  }

  getMe(budgetMs: number): Promise<BotApiResult<User>> {
    return this.call(
      (signal) => this.api.raw.getMe(signal),
      budgetMs,
      (result) => typeof result?.username === 'string',
    );
  }

  /** The bot's user name (for `t.me` links), asked once and remembered. */
  async username(budgetMs = 5_000): Promise<string | null> {
    if (this.me) return this.me.username ?? null;
    const me = await this.getMe(budgetMs);
    if (!me.ok) return null;
    this.me = me.result;
    return me.result.username ?? null;
  }

  setWebhook(url: string, secretToken: string, budgetMs: number): Promise<BotApiResult<unknown>> {
    return this.call(
      (signal) => this.api.raw.setWebhook({ url, secret_token: secretToken, allowed_updates: ['message', 'callback_query'] }, signal),
      budgetMs,
    );
  }

  deleteWebhook(budgetMs: number): Promise<BotApiResult<unknown>> {
    return this.call((signal) => this.api.raw.deleteWebhook({ drop_pending_updates: false }, signal), budgetMs);
  }

  getWebhookInfo(budgetMs: number): Promise<BotApiResult<WebhookInfo>> {
    return this.call(
      (signal) => this.api.raw.getWebhookInfo(signal),
      budgetMs,
      (result) => typeof result?.url === 'string',
    );
  }

  /** One method with the retry rules, within `budgetMs`. */
  private async call<T>(
    run: (signal: GrammySignal) => Promise<T>,
    budgetMs: number,
    valid: (result: T) => boolean = () => true,
  ): Promise<BotApiResult<T>> {
    const deadline = this.now() + budgetMs;
    let backoffMs = BOT_API_RETRY_INITIAL_MS;
    let last: BotApiResult<T> = { ok: false, failure: 'timeout' };
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      const left = deadline - this.now();
      if (left <= 0) break;
      last = await this.attempt(run, Math.min(this.attemptTimeoutMs, left), valid);
      if (last.ok || last.failure === 'refused' || attempt === this.maxAttempts) return last;
      const waitMs = last.failure === 'throttled' ? this.retryAfterMs(last) : backoffMs;
      backoffMs = Math.min(backoffMs * 2, BOT_API_RETRY_MAX_MS);
      // a wait that would end past the bound is not waited: the failure is final now
      if (this.now() + waitMs >= deadline) return last;
      await this.sleep(waitMs);
    }
    return last;
  }

  private retryAfterMs(failure: { retryAfterSeconds?: number }): number {
    return Math.max(1, failure.retryAfterSeconds ?? 1) * 1000;
  }

  /** One HTTP call, bounded by `timeoutMs` (and `outer`, when it aborts first), classified. */
  private async attempt<T>(
    run: (signal: GrammySignal) => Promise<T>,
    timeoutMs: number,
    valid: (result: T) => boolean = () => true,
    outer?: AbortSignal,
  ): Promise<BotApiResult<T>> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    timer.unref();
    const abort = () => controller.abort();
    outer?.addEventListener('abort', abort, { once: true });
    try {
      const result = await run(forGrammy(controller.signal));
      return valid(result) ? { ok: true, result } : { ok: false, failure: 'unreachable' };
    } catch (error) {
      if (error instanceof GrammyError) {
        const code = Number(error.error_code);
        if (code === 429) {
          const retryAfter = Number(error.parameters?.retry_after);
          return {
            ok: false,
            failure: 'throttled',
            errorCode: 429,
            description: error.description,
            ...(Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : {}),
          };
        }
        if (Number.isInteger(code) && code >= 400 && code < 500)
          return { ok: false, failure: 'refused', errorCode: code, description: error.description };
        // a 5xx, or an `ok: false` without an error code: the server is not itself
        return { ok: false, failure: 'unreachable', ...(Number.isInteger(code) ? { errorCode: code } : {}) };
      }
      if (error instanceof HttpError || error instanceof Error) return { ok: false, failure: timedOut ? 'timeout' : 'unreachable' };
      return { ok: false, failure: 'unreachable' };
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', abort);
    }
  }
}
