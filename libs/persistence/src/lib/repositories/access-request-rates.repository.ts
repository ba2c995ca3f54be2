import { Db } from '../transaction-context';
import { FixedWindowTable, fixedWindowUpsert } from './fixed-window-counts';

export interface AccessRequestRate {
  created: number;
  windowStartedAt: Date;
  /** the licences of the resource's account, read in the same statement (the limit scales with them) */
  licenses: number;
}

const ACCESS_REQUEST_RATES: FixedWindowTable = {
  table: 'access_request_rates',
  keyColumn: 'resource_id',
  keyType: 'uuid',
  countColumn: 'created',
};

/** Access requests a resource created in its current window, counted in the database for every instance. */
export class AccessRequestRatesRepository {
  constructor(private readonly db: Db) {}

  /**
   * `requests` more requests of the resource, in one statement: a window that ended starts again at
   * `now`. Returns the count in the current window, these included, and the account's licences.
   */
  async count(resourceId: string, now: Date, windowMs: number, requests = 1): Promise<AccessRequestRate> {
    const [rate]: { count: number; window_started_at: Date; licenses: number | null }[] = await this.db.manager().query(
      `WITH counted AS (${fixedWindowUpsert(ACCESS_REQUEST_RATES)})
       SELECT counted.count, counted.window_started_at, a.licenses
         FROM counted LEFT JOIN resources r ON r.id = counted.key::uuid LEFT JOIN accounts a ON a.id = r.account_id`,
      [[resourceId], now, windowMs / 1000, requests],
    );
    return { created: rate.count, windowStartedAt: rate.window_started_at, licenses: rate.licenses ?? 0 };
  }
}
