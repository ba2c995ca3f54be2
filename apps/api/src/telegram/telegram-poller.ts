import { Logger } from '@nestjs/common';
import { databaseUnavailableCode } from '@twofold/persistence';
import { Client, ClientConfig } from 'pg';
import { TelegramBotApi } from './telegram-bot-api';

/** The advisory lock whose holder polls `getUpdates`: one instance at a time, across every process of the deployment. */
export const TELEGRAM_POLL_LOCK_ID = 7_276_365_001;
/** How long Telegram holds one `getUpdates` while no update comes. */
export const TELEGRAM_POLL_TIMEOUT_SECONDS = 25;
/** An instance without the lock tries to take it this often (so a dead poller is replaced within it). */
export const TELEGRAM_POLL_LOCK_RETRY_MS = 5_000;
/** After a failed poll the next comes this much later, doubling up to the maximum. */
export const TELEGRAM_POLL_RETRY_MIN_MS = 500;
export const TELEGRAM_POLL_RETRY_MAX_MS = 30_000;

export interface TelegramPollerDeps {
  api: TelegramBotApi;
  /** a session connection (DATABASE_LISTEN_URL or direct): the lock lives as long as it does */
  lockConnection: () => ClientConfig;
  handle: (update: unknown) => Promise<void>;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Long polling (TELEGRAM_UPDATES=polling, for sites without a public URL): exactly one instance at a
 * time asks `getUpdates` — Telegram answers a second poller with 409 — the one holding a PostgreSQL
 * session advisory lock on a connection of its own. The lock ends with that connection: an instance
 * that dies or loses its database lets another take over within TELEGRAM_POLL_LOCK_RETRY_MS. A
 * transaction pooler would hand the session to others, so the connection goes to DATABASE_LISTEN_URL
 * when set.
 *
 * Updates are confirmed to Telegram (the next `offset`) only after they were handled; an update whose
 * handling found the database unavailable is asked for again after a back-off. Handling is
 * idempotent (an approval is decided once, a link spent once), so one seen twice changes nothing.
 */
export class TelegramPoller {
  private readonly logger = new Logger('TelegramPoller');
  private readonly stop = new AbortController();
  private loop: Promise<void> | null = null;
  private lock: Client | null = null;
  /** this instance holds the lock and polls */
  polling = false;

  constructor(private readonly deps: TelegramPollerDeps) {}

  start(): void {
    this.loop ??= this.run();
  }

  async close(): Promise<void> {
    this.stop.abort();
    await this.loop?.catch(() => undefined);
    await this.releaseLock();
  }

  private sleep(ms: number): Promise<void> {
    return (this.deps.sleep ?? abortableSleep)(ms, this.stop.signal);
  }

  private async run(): Promise<void> {
    let offset: number | undefined;
    let retryMs = TELEGRAM_POLL_RETRY_MIN_MS;
    let webhookCleared = false;
    while (!this.stop.signal.aborted) {
      if (!(await this.takeLock())) {
        await this.sleep(TELEGRAM_POLL_LOCK_RETRY_MS);
        continue;
      }
      if (!webhookCleared) {
        // a webhook left registered makes every getUpdates a 409: polling is what this deployment chose
        webhookCleared = (await this.deps.api.deleteWebhook(5_000)).ok;
      }
      const updates = await this.deps.api.getUpdates(offset, TELEGRAM_POLL_TIMEOUT_SECONDS, this.stop.signal);
      if (this.stop.signal.aborted) break;
      if (!updates.ok) {
        if (updates.errorCode === 409) webhookCleared = false;
        this.logger.warn(`getUpdates failed: ${updates.failure}${updates.errorCode ? ` (${updates.errorCode})` : ''}`);
        await this.sleep(retryMs);
        retryMs = Math.min(retryMs * 2, TELEGRAM_POLL_RETRY_MAX_MS);
        continue;
      }
      retryMs = TELEGRAM_POLL_RETRY_MIN_MS;
      for (const update of updates.result) {
        try {
          await this.deps.handle(update);
        } catch (error) {
          if (databaseUnavailableCode(error) !== undefined) {
            // not confirmed: asked for again once the database answers
            this.logger.warn('the database cannot answer: Telegram updates wait');
            await this.sleep(retryMs);
            retryMs = Math.min(retryMs * 2, TELEGRAM_POLL_RETRY_MAX_MS);
            break;
          }
          this.logger.error(`a Telegram update could not be handled and is skipped: ${(error as Error).message}`);
        }
        offset = update.update_id + 1;
      }
    }
  }

  /** True while this instance holds the lock (taking it when free). */
  private async takeLock(): Promise<boolean> {
    if (this.lock) return true;
    const client = new Client(this.deps.lockConnection());
    client.on('error', () => undefined);
    try {
      await client.connect();
      const rows = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [TELEGRAM_POLL_LOCK_ID]);
      if (!rows.rows[0]?.locked) {
        await client.end().catch(() => undefined);
        return false;
      }
    } catch {
      await client.end().catch(() => undefined);
      return false;
    }
    // the lock ends with this connection: when it is lost, another instance may poll, so this one stops
    client.on('end', () => {
      if (this.lock === client) {
        this.lock = null;
        this.polling = false;
      }
    });
    this.lock = client;
    this.polling = true;
    this.logger.log('this instance polls Telegram for updates');
    return true;
  }

  private async releaseLock(): Promise<void> {
    const client = this.lock;
    this.lock = null;
    this.polling = false;
    await client?.end().catch(() => undefined);
  }
}
