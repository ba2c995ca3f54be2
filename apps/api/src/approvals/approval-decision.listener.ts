import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { APPROVAL_DECIDED_CHANNEL } from '@twofold/persistence';
import { Client, ClientConfig } from 'pg';
import { DataSource } from 'typeorm';

/** After the listening connection is lost, the next try comes this much later (doubling up to the maximum). */
export const APPROVAL_LISTENER_RETRY_MIN_MS = 250;
export const APPROVAL_LISTENER_RETRY_MAX_MS = 10_000;
/** How long a new listening connection waits for its own probe before saying that notifications do not pass. */
export const APPROVAL_LISTENER_PROBE_TIMEOUT_MS = 2_000;

const PROBE_PREFIX = 'probe:';

/**
 * One connection of its own, outside the pool, LISTENing on APPROVAL_DECIDED_CHANNEL: every approval
 * decided or settled on any instance is heard here within milliseconds of its commit, and the waits
 * of this instance for it end at once. It reconnects by itself when the connection is lost.
 *
 * Through a transaction pooler (PgBouncer in transaction mode) LISTEN succeeds but nothing announced
 * reaches this client; a probe, announced through the pool like every decision, tells whether they
 * do. Waits never depend on it: the waiter reads the decisions of its waits once a second anyway
 * (ApprovalWaiter), so a lost notification costs at most a second. DATABASE_LISTEN_URL points this
 * connection past the pooler.
 */
export class ApprovalDecisionListener {
  private readonly logger = new Logger('ApprovalDecisionListener');
  private client: Client | null = null;
  private stopped = true;
  private retryMs = APPROVAL_LISTENER_RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private unheardSaid = false;
  /** a probe came back on the current connection: notifications reach this instance */
  heard = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clientConfig: () => ClientConfig,
    private readonly onDecided: (approvalId: string) => void,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.heard = false;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client(this.clientConfig());
    const probe = `${PROBE_PREFIX}${randomUUID()}`;
    let probeHeard: () => void = () => undefined;
    const heard = new Promise<boolean>((resolve) => (probeHeard = () => resolve(true)));
    client.on('notification', (message) => {
      if (message.channel !== APPROVAL_DECIDED_CHANNEL || !message.payload) return;
      if (message.payload.startsWith(PROBE_PREFIX)) {
        if (message.payload === probe && this.client === client) {
          probeHeard();
          this.retryMs = APPROVAL_LISTENER_RETRY_MIN_MS;
          this.heard = true;
          if (this.unheardSaid) this.logger.log('approval decisions are heard on the listening connection again');
          this.unheardSaid = false;
        }
        return;
      }
      this.onDecided(message.payload);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${APPROVAL_DECIDED_CHANNEL}`);
    } catch (error) {
      this.logger.warn(`cannot listen for approval decisions (${(error as Error).message}); reading them once a second`);
      this.lost(client);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    try {
      await this.dataSource.query('SELECT pg_notify($1, $2)', [APPROVAL_DECIDED_CHANNEL, probe]);
    } catch (error) {
      this.logger.warn(`cannot probe the listening connection (${(error as Error).message}); reading approval decisions once a second`);
      this.lost(client);
      return;
    }
    // the start does not wait for the probe: waits are read once a second until it is heard
    void this.sayIfUnheard(client, heard);
  }

  private async sayIfUnheard(client: Client, heard: Promise<boolean>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const unheard = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), APPROVAL_LISTENER_PROBE_TIMEOUT_MS);
      timer.unref();
    });
    const inTime = await Promise.race([heard, unheard]);
    clearTimeout(timer);
    if (!inTime && this.client === client && !this.heard && !this.unheardSaid) {
      this.unheardSaid = true;
      this.logger.warn(
        'approval decisions are not heard on the listening connection (is a transaction pooler such as PgBouncer between the API and PostgreSQL?); waits read them once a second instead. Set DATABASE_LISTEN_URL to a session connection (docs/operations/scaling.md)',
      );
    }
  }

  private lost(client: Client): void {
    if (this.client !== null && this.client !== client) return;
    this.client = null;
    this.heard = false;
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    if (this.stopped || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, APPROVAL_LISTENER_RETRY_MAX_MS);
  }
}
