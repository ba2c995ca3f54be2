import { Db } from '../transaction-context';
import { addToFixedWindows, FixedWindowTable } from './fixed-window-counts';

export interface AccessRequestRate {
  created: number;
  windowStartedAt: Date;
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
   * `now`. Returns the count in the current window, these included.
   */
  async count(resourceId: string, now: Date, windowMs: number, requests = 1): Promise<AccessRequestRate> {
    const [rate] = await addToFixedWindows(this.db, ACCESS_REQUEST_RATES, [resourceId], now, windowMs, requests);
    return { created: rate.count, windowStartedAt: rate.windowStartedAt };
  }
}
