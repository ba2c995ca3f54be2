import { Logger } from '@nestjs/common';
import { databaseUnavailableCode } from '@twofold/persistence';
import { DataSource } from 'typeorm';

/** What a client is told to wait before trying again while the database cannot answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export const DATABASE_UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Try again later.';

/** An outage that is the pool's, not the server's: every connection stayed busy past the connect timeout. */
const POOL_EXHAUSTED = 'POOL_ACQUIRE_TIMEOUT';

/**
 * Whether the database answers, as the requests see it. An outage fails every request: each gets its
 * 503 from ApiExceptionFilter, but only the change of state is logged (one line when the database
 * becomes unavailable, one when it is back), so an outage does not flood the log with a stack per
 * request. "Back" is a new connection the pool opened, or a readiness check answered; after a pool
 * that was only exhausted (a burst of calls larger than it serves within the connect timeout, with the
 * server answering all along), the next connection handed out.
 */
export class DatabaseHealth {
  private readonly logger = new Logger('DatabaseHealth');
  private outage: { code: string; failures: number } | null = null;

  /** The pool's `connect` event: the server finished a connection's handshake, so it answers again. */
  watch(dataSource: DataSource): void {
    const pool = (dataSource.driver as unknown as { master?: { on(event: 'connect' | 'acquire', listener: () => void): void } }).master;
    pool?.on('connect', () => this.available());
    pool?.on('acquire', () => {
      if (this.outage?.code === POOL_EXHAUSTED) this.available();
    });
  }

  get isAvailable(): boolean {
    return this.outage === null;
  }

  /** The outage code of `error` (see databaseUnavailableCode), recorded; undefined when it is not one. */
  failed(error: unknown): string | undefined {
    const code = databaseUnavailableCode(error);
    if (code === undefined) return undefined;
    if (this.outage) {
      this.outage.failures++;
    } else {
      this.outage = { code, failures: 1 };
      if (code === POOL_EXHAUSTED)
        this.logger.error(
          { code },
          'no database connection free within the connect timeout (more calls at once than the pool serves, or a database that stopped answering): answering 503 to the calls that get none',
        );
      else this.logger.error({ code }, 'database unavailable: answering 503 until it is back');
    }
    return code;
  }

  available(): void {
    if (!this.outage) return;
    const { code, failures } = this.outage;
    this.outage = null;
    this.logger.log({ code, failures }, 'database available again');
  }
}
