import { ValidationFailed } from './domain-error';

export interface DayRange {
  /** the day as given, yyyy-mm-dd */
  day: string;
  /** inclusive start, UTC midnight */
  from: Date;
  /** exclusive end, the next UTC midnight */
  to: Date;
}

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Journal `eventDate` and history `createdAt` name one past UTC day. "Today" is the current UTC day by
 * the caller's clock (the API process's, not the database's); today or a future day is refused because
 * that day's data is still being written.
 */
export function parsePastDay(name: string, raw: unknown, now: Date): DayRange {
  if (raw === undefined || raw === null || raw === '') throw new ValidationFailed(`${name} is required.`);
  if (typeof raw !== 'string') throw new ValidationFailed(`${name} must be given once, as yyyy-mm-dd.`);
  const match = DAY_PATTERN.exec(raw);
  if (!match) throw new ValidationFailed(`${name} must be a date in the format yyyy-mm-dd.`);
  const [year, month, dayOfMonth] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const from = new Date(Date.UTC(year, month - 1, dayOfMonth));
  if (from.getUTCFullYear() !== year || from.getUTCMonth() !== month - 1 || from.getUTCDate() !== dayOfMonth) {
    throw new ValidationFailed(`${name} is not a valid date.`);
  }
  const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (from.getTime() >= todayStart) throw new ValidationFailed(`${name} must be a past day, not today or later.`);
  return { day: raw, from, to: new Date(from.getTime() + 24 * 60 * 60 * 1000) };
}

/**
 * How long after its end a day may still receive rows: a row is stamped with the clock of the instance
 * that writes it, before its statement commits, so clock skew between instances and a slow commit can
 * land a row on yesterday just after midnight. Fifteen minutes is far beyond both.
 */
export const DAY_SETTLES_AFTER_MS = 15 * 60 * 1000;

/**
 * A settled day receives no new journal events or access requests: the rows it holds change only by
 * deletion. Its page totals can therefore be counted once and remembered.
 */
export function isSettledDay(day: DayRange, now: Date): boolean {
  return now.getTime() >= day.to.getTime() + DAY_SETTLES_AFTER_MS;
}
