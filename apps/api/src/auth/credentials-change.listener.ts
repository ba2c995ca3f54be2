import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CREDENTIALS_CHANGED_CHANNEL, onCredentialsChangeCommittedHere, parseCredentialsChangePayload } from '@twofold/persistence';
import { Client, ClientConfig } from 'pg';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/injection-tokens';
import { AppConfig } from '../config/app-config';
import { VerifiedCredentialsCache } from './verified-credentials.cache';

/** After the listening connection is lost, the next try comes this much later (doubling up to the maximum). */
export const LISTENER_RETRY_MIN_MS = 250;
export const LISTENER_RETRY_MAX_MS = 10_000;
/**
 * How long a new listening connection waits for its own probe. PostgreSQL delivers it in
 * milliseconds; through a transaction pooler it never comes (and the start of the API waits this long).
 */
export const LISTENER_PROBE_TIMEOUT_MS = 2_000;

const PROBE_PREFIX = 'probe:';

/** A probe's payload on CREDENTIALS_CHANGED_CHANNEL: unique per try, ignored by every other listener. */
export function credentialsProbePayload(): string {
  return `${PROBE_PREFIX}${randomUUID()}`;
}

/**
 * One connection of its own, outside the pool, LISTENing on CREDENTIALS_CHANGED_CHANNEL: every
 * announced change of API credentials, by this or any other process (the CLI, another API
 * instance), drops the owner's verified pairs from VerifiedCredentialsCache. While the connection is
 * down the cache is off (every call verifies against the database), and it reconnects by itself.
 *
 * A LISTEN that succeeds does not prove that notifications arrive: through a transaction pooler
 * (PgBouncer in transaction mode) the listening server connection goes back to the pooler's pool and
 * what is sent to it never reaches this client. So the cache is switched on only once this connection
 * has heard a probe announced through the pool, the way every change is announced; until then every
 * call is verified against the database (a late probe still switches the cache on). DATABASE_LISTEN_URL
 * points the listener past the pooler.
 */
@Injectable()
export class CredentialsChangeListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CredentialsChangeListener');
  private client: Client | null = null;
  private stopped = false;
  private retryMs = LISTENER_RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  /** the last try ended unheard: said once, until a probe is heard again */
  private unheardSaid = false;
  /** this process's own changes are forgotten at their commit, before the notification comes back */
  private readonly stopHearingOwnChanges: () => void;

  constructor(
    private readonly dataSource: DataSource,
    private readonly cache: VerifiedCredentialsCache,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.stopHearingOwnChanges = onCredentialsChangeCommittedHere((owner) => this.cache.forget(owner));
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.stopHearingOwnChanges();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.cache.setListening(false);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** DATABASE_LISTEN_URL, else the pool's own connection settings (DATABASE_URL or the embedded server), for one more connection. */
  private clientConfig(): ClientConfig {
    const name = { application_name: 'twofold-credentials-listener' };
    const listenUrl = this.config.databaseListenUrl;
    if (listenUrl) {
      // only LISTEN runs here: no statement timeout to set (a session pooler might refuse it)
      return { connectionString: listenUrl, connectionTimeoutMillis: this.config.databaseTimeouts.connectTimeoutMs, ...name };
    }
    const pool = (this.dataSource.driver as unknown as { master: { options: ClientConfig } }).master;
    return { ...pool.options, ...name };
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client(this.clientConfig());
    const probe = credentialsProbePayload();
    let probeHeard: () => void = () => undefined;
    const heard = new Promise<boolean>((resolve) => (probeHeard = () => resolve(true)));
    client.on('notification', (message) => {
      if (message.channel !== CREDENTIALS_CHANGED_CHANNEL) return;
      if (message.payload?.startsWith(PROBE_PREFIX)) {
        if (message.payload === probe) {
          probeHeard();
          this.heard(client);
        }
        return;
      }
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
    try {
      // announced through the pool, as every change is: heard here only if announcements reach this connection
      await this.dataSource.query('SELECT pg_notify($1, $2)', [CREDENTIALS_CHANGED_CHANNEL, probe]);
    } catch (error) {
      this.logger.warn(`cannot probe the listening connection (${(error as Error).message}); verifying every call against the database`);
      this.lost(client);
      return;
    }
    // the start waits for the probe (milliseconds), so the first calls already use the cache; a late
    // probe (a loaded server) still switches the cache on when it comes
    let timer: NodeJS.Timeout | undefined;
    const unheard = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), LISTENER_PROBE_TIMEOUT_MS);
      timer.unref();
    });
    const inTime = await Promise.race([heard, unheard]);
    clearTimeout(timer);
    if (!inTime && this.client === client && !this.unheardSaid) {
      this.unheardSaid = true;
      this.logger.warn(
        'credential changes are not heard on the listening connection (is a transaction pooler such as PgBouncer between the API and PostgreSQL?); verifying every call against the database. Set DATABASE_LISTEN_URL to a session connection (docs/operations/scaling.md)',
      );
    }
  }

  /** The probe came back on `client`: announcements reach it, the cache may be used. */
  private heard(client: Client): void {
    if (this.stopped || this.client !== client) return;
    this.retryMs = LISTENER_RETRY_MIN_MS;
    if (this.unheardSaid) {
      this.unheardSaid = false;
      this.logger.log('credential changes are heard now; verified credentials are cached again');
    }
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
