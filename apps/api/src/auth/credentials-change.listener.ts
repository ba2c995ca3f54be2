import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CREDENTIALS_CHANGED_CHANNEL, parseCredentialsChangePayload } from '@twofold/persistence';
import { Client, ClientConfig } from 'pg';
import { DataSource } from 'typeorm';
import { VerifiedCredentialsCache } from './verified-credentials.cache';

/** After the listening connection is lost, the next try comes this much later (doubling up to the maximum). */
export const LISTENER_RETRY_MIN_MS = 250;
export const LISTENER_RETRY_MAX_MS = 10_000;

/**
 * One connection of its own, outside the pool, LISTENing on CREDENTIALS_CHANGED_CHANNEL: every
 * announced change of API credentials, by this or any other process (the CLI, another API
 * instance), drops the owner's verified pairs from VerifiedCredentialsCache. While the connection is
 * down the cache is off (every call verifies against the database), and it reconnects by itself.
 */
@Injectable()
export class CredentialsChangeListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CredentialsChangeListener');
  private client: Client | null = null;
  private stopped = false;
  private retryMs = LISTENER_RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly cache: VerifiedCredentialsCache,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.cache.setListening(false);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** The pool's own connection settings (DATABASE_URL or the embedded server), for one more connection. */
  private clientConfig(): ClientConfig {
    const pool = (this.dataSource.driver as unknown as { master: { options: ClientConfig } }).master;
    return { ...pool.options, application_name: 'twofold-credentials-listener' };
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client(this.clientConfig());
    client.on('notification', (message) => {
      if (message.channel !== CREDENTIALS_CHANGED_CHANNEL) return;
      const owner = parseCredentialsChangePayload(message.payload);
      if (owner) this.cache.forget(owner);
      else this.cache.forgetAll();
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CREDENTIALS_CHANGED_CHANNEL}`);
    } catch (error) {
      this.logger.warn(`cannot listen for credential changes (${(error as Error).message}); verifying every call against the database`);
      this.lost(client);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = LISTENER_RETRY_MIN_MS;
    this.cache.setListening(true);
  }

  /** Changes may be missed from now on: nothing is trusted from memory until listening again. */
  private lost(client: Client): void {
    if (this.client !== null && this.client !== client) return;
    this.client = null;
    this.cache.setListening(false);
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    if (this.stopped || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, LISTENER_RETRY_MAX_MS);
  }
}
