import { Db } from '../transaction-context';
import { addToFixedWindows, FixedWindowTable } from './fixed-window-counts';

export interface AuthFailureCount {
  client: string;
  failures: number;
  windowStartedAt: Date;
}

const AUTH_FAILURES: FixedWindowTable = { table: 'auth_failures', keyColumn: 'client', keyType: 'text', countColumn: 'failures' };

/** Failed Basic-auth attempts, counted in the database so that every instance sees the same count. */
export class AuthFailuresRepository {
  constructor(private readonly db: Db) {}

  /**
   * One more failure for each client, in one statement: a client whose window ended starts a new one
   * at `now`. Returns each client's count in its current window.
   */
  async record(clients: readonly string[], now: Date, windowMs: number): Promise<AuthFailureCount[]> {
    const counts = await addToFixedWindows(this.db, AUTH_FAILURES, clients, now, windowMs, 1);
    return counts.map(({ key, count, windowStartedAt }) => ({ client: key, failures: count, windowStartedAt }));
  }

  /** Windows that ended before `cutoff` count for nothing: their rows go. */
  async deleteEndedBefore(cutoff: Date): Promise<void> {
    await this.db.manager().query(`DELETE FROM auth_failures WHERE window_started_at < $1`, [cutoff]);
  }
}
