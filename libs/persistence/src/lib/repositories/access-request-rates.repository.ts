import { Db } from '../transaction-context';

export interface AccessRequestRate {
  created: number;
  windowStartedAt: Date;
}

/** Access requests a resource created in its current window, counted in the database for every instance. */
export class AccessRequestRatesRepository {
  constructor(private readonly db: Db) {}

  /**
   * `requests` more requests of the resource, in one statement: a window that ended starts again at
   * `now`. Returns the count in the current window, these included.
   */
  async count(resourceId: string, now: Date, windowMs: number, requests = 1): Promise<AccessRequestRate> {
    const rows: { created: number; window_started_at: Date }[] = await this.db.manager().query(
      `INSERT INTO access_request_rates AS r (resource_id, window_started_at, created) VALUES ($1, $2, $4)
       ON CONFLICT (resource_id) DO UPDATE SET
         created = CASE WHEN r.window_started_at <= $2::timestamptz - make_interval(secs => $3) THEN $4 ELSE r.created + $4 END,
         window_started_at = CASE WHEN r.window_started_at <= $2::timestamptz - make_interval(secs => $3) THEN $2 ELSE r.window_started_at END
       RETURNING created, window_started_at`,
      [resourceId, now, windowMs / 1000, requests],
    );
    return { created: rows[0].created, windowStartedAt: rows[0].window_started_at };
  }
}
