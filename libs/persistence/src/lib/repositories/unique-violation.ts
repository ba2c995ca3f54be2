import { QueryFailedError } from 'typeorm';

/** PostgreSQL's unique_violation; `constraint` names the index, e.g. users_account_identity. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === '23505' && (constraint === undefined || driverError.constraint === constraint);
}
