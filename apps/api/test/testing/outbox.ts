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
