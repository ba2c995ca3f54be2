import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ACCESS_REQUEST_TTL_MINUTES, Clock } from '@twofold/domain';
import { AccessRequestsRepository, databaseUnavailableCode } from '@twofold/persistence';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG, CLOCK } from '../../config/injection-tokens';

/** Requests expired per statement: well inside the statement timeout at any number of awaiting requests. */
export const STALE_REQUESTS_PER_STATEMENT = 1_000;
/** Statements per sweep: a backlog larger than this is finished by the next sweeps. */
const STATEMENTS_PER_SWEEP = 50;

/**
 * Writes every request left awaiting past its expiry as Expired and erases the authenticator-app
 * secret its page offered, within a minute of the expiry (`staleRequestSweepMs`), whether anyone reads
 * the request again or not. Reads show such a request Expired at once (effectiveAccessStatus) and
 * write nothing: the history page was the sweep before, one UPDATE on every read, and a pending secret
 * lasted until somebody looked.
 */
@Injectable()
export class StaleAccessRequestsSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('StaleAccessRequestsSweeper');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly requests: AccessRequestsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const every = this.config.staleRequestSweepMs;
    if (!every) return;
    this.timer = setInterval(() => void this.sweep().catch(() => undefined), every);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One sweep (a sweep still running is joined, not doubled); how many requests it expired. */
  sweep(): Promise<number> {
    this.running ??= this.sweepInBatches().finally(() => (this.running = undefined));
    return this.running;
  }

  private async sweepInBatches(): Promise<number> {
    const expiredUpTo = new Date(this.clock.now().getTime() - ACCESS_REQUEST_TTL_MINUTES * 60_000);
    let expired = 0;
    try {
      for (let statement = 0; statement < STATEMENTS_PER_SWEEP; statement += 1) {
        const batch = await this.requests.expireStale(expiredUpTo, STALE_REQUESTS_PER_STATEMENT);
        expired += batch;
        if (batch < STALE_REQUESTS_PER_STATEMENT) break;
      }
    } catch (error) {
      // an outage is reported where requests meet it; the next sweep catches up
      const code = databaseUnavailableCode(error);
      this.logger.warn(`expiring stale access requests failed${code ? ` (${code})` : ''}; the next sweep tries again`);
      throw error;
    }
    return expired;
  }
}
