import { UserSource } from '../entities';

/** The columns of a `UserRow`, read from `users` under the alias `u` by every hand-written statement. */
export const USER_COLUMNS = 'u.id, u.account_id, u.identity, u.name, u.email, u.is_locked, u.source, u.created_at, u.last_login';

/** A users row as PostgreSQL returns it to hand-written queries. */
export interface UserRow {
  id: string;
  account_id: string;
  identity: string;
  name: string | null;
  email: string | null;
  is_locked: boolean;
  source: UserSource;
  created_at: Date;
  last_login: Date | null;
}
