import { QueryFailedError } from 'typeorm';

/** PostgreSQL's `code` on a failed statement, for `constraint` when one is named. */
function violates(error: unknown, code: string, constraint: string | undefined): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === code && (constraint === undefined || driverError.constraint === constraint);
}

/** PostgreSQL's unique_violation; `constraint` names the index, e.g. users_account_identity. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return violates(error, '23505', constraint);
}

/** PostgreSQL's foreign_key_violation; `constraint` names the foreign key, e.g. access_requests_user_id_fkey. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  return violates(error, '23503', constraint);
}
