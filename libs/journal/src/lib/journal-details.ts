import { JournalFields } from './journal-events';
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<Record<string, string>>();

/**
 * additionalFields of the event being written for the current request. A service adds what it learns
 * (e.g. the user's identity) and the interceptor writes it with the event, success or failure.
 */
export const journalDetails = {
  run<T>(details: Record<string, string>, fn: () => T): T {
    return storage.run(details, fn);
  },
  add(fields: JournalFields<string | undefined | null>): void {
    const details = storage.getStore();
    if (!details) return;
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined && value !== null) details[key] = value;
    }
  },
};
