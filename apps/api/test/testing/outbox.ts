import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestApp } from './test-app';

/**
 * The mails the app wrote to its outbox (no SMTP_URL in tests), oldest first, with quoted-printable
 * soft line breaks joined so that links read whole.
 */
export function outboxMails(t: TestApp): string[] {
  const outbox = join(t.app.get('twofold:app-config').dataDir, 'outbox');
  try {
    return readdirSync(outbox)
      .sort()
      .map((name) => readFileSync(join(outbox, name), 'utf8').replace(/=\r?\n/g, ''));
  } catch {
    return [];
  }
}

/** The SMS or calls the app wrote to its outbox (no gateway configured), oldest first. */
export function outboxPhoneMessages(t: TestApp, box: 'sms' | 'calls'): { to: string; text: string }[] {
  const dir = join(t.app.get('twofold:app-config').dataDir, 'outbox', box);
  let names: string[] = [];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
}
