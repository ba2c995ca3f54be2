import { Db } from '../transaction-context';

export interface AuthFailureCount {
  client: string;
  failures: number;
  windowStartedAt: Date;
}

/** Failed Basic-auth attempts, counted in the database so that every instance sees the same count. */
export class AuthFailuresRepository {
  constructor(private readonly db: Db) {}

  /**
   * One more failure for each client, in one statement: a client whose window ended starts a new one
   * at `now`. Returns each client's count in its current window.
   */
  async record(clients: readonly string[], now: Date, windowMs: number): Promise<AuthFailureCount[]> {
    const rows: { client: string; failures: number; window_started_at: Date }[] = await this.db.manager().query(
      `INSERT INTO auth_failures AS f (client, window_started_at, failures)
       SELECT client, $2, 1 FROM unnest($1::text[]) AS client
       ON CONFLICT (client) DO UPDATE SET
         failures = CASE WHEN f.window_started_at <= $2::timestamptz - make_interval(secs => $3) THEN 1 ELSE f.failures + 1 END,
         window_started_at = CASE WHEN f.window_started_at <= $2::timestamptz - make_interval(secs => $3) THEN $2 ELSE f.window_started_at END
       RETURNING client, failures, window_started_at`,
      [clients, now, windowMs / 1000],
    );
    return rows.map((row) => ({ client: row.client, failures: row.failures, windowStartedAt: row.window_started_at }));
  }

  /** Windows that ended before `cutoff` count for nothing: their rows go. */
  async deleteEndedBefore(cutoff: Date): Promise<void> {
    await this.db.manager().query(`DELETE FROM auth_failures WHERE window_started_at < $1`, [cutoff]);
  }
}
