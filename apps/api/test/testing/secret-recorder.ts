import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { SecretCipher, SecretPurpose } from '@twofold/persistence';
import { appendRecords, binaryForms, SCAN_DIR_VARIABLE, ScannedSource, ScanRecord, SecretKind } from './secret-scan';

const KIND_OF_PURPOSE: Record<SecretPurpose, SecretKind> = {
  'account.api-secret': 'account-api-secret',
  'resource.api-secret': 'resource-api-secret',
  'authenticator.secret': 'otp-key',
  'authenticator.private-id': 'authenticator-private-id',
  'token.signing-key': 'token-signing-key',
  'self-service.totp-key': 'otp-key',
  // a private signing key like the token's: never in a log, error, journal or mail
  'web-push.vapid-private-key': 'token-signing-key',
  'phone.gateway': 'gateway-settings',
};

/** A JWT (access tokens of the access page and the `ra` family); they appear in 2xx bodies only. */
const JWT = /eyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/g;
/** the token of `$ACCESS_URL/enroll/<token>` */
const ENROLLMENT_TOKEN = /\/enroll\/([\w-]{20,})/g;
/** request fields that carry a one-time code (`passCode`, `code`, `challenge`, in any casing) */
const CODE_FIELD = /^(pass_?code|code|challenge|otp)$/i;

/** A text the scan reads: where it came from in the suite. */
function currentTest(): string | undefined {
  const state = (globalThis as { expect?: { getState(): { testPath?: string; currentTestName?: string } } }).expect?.getState();
  if (!state?.testPath) return undefined;
  const file = state.testPath.replace(/^.*\/apps\//, 'apps/');
  return state.currentTestName ? `${file} › ${state.currentTestName}` : file;
}

/**
 * What one test application records for the whole-suite secrets scan (secret-scan.ts): the secrets it
 * saw (every plaintext its ciphers encrypted or decrypted, codes sent to it, access tokens and
 * enrollment tokens it handed out) and the texts that must hold none of them: every log line, every
 * error body, and at close the journal rows and the outbox mails. Records go to a file of this
 * process in the run directory when the app closes.
 */
export class SecretRecorder {
  private records: ScanRecord[] = [];
  private readonly seen = new Set<string>();
  private readonly file = `${process.pid}-${randomBytes(4).toString('hex')}.jsonl`;

  constructor(private readonly dir: string) {}

  /** The recorder of the run's scan, or none when the run does not scan (a spec run outside the api project). */
  static forRun(): SecretRecorder | undefined {
    const dir = process.env[SCAN_DIR_VARIABLE];
    return dir ? new SecretRecorder(dir) : undefined;
  }

  secret(kind: SecretKind, value: string): void {
    const key = `${kind}\0${value}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.records.push({ t: 'secret', kind, value });
  }

  /** `where` adds to the finding's place, e.g. the request of an error body; it is not scanned. */
  text(source: ScannedSource, text: string, where?: string): void {
    const at = currentTest();
    this.records.push({ t: source, text, at: where ? `${at ?? ''} (${where})` : at });
  }

  /** Writes what was recorded so far to the run directory. */
  flush(): void {
    appendRecords(this.dir, this.file, this.records);
    this.records = [];
  }

  /** Records every plaintext `cipher` encrypts or decrypts: every secret stored at rest passes through it. */
  watchCipher(cipher: SecretCipher): void {
    const encrypt = cipher.encrypt.bind(cipher);
    const decrypt = cipher.decrypt.bind(cipher);
    cipher.encrypt = (purpose, plaintext) => {
      this.plaintext(purpose, typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext);
      return encrypt(purpose, plaintext);
    };
    cipher.decrypt = (purpose, stored) => {
      const plaintext = decrypt(purpose, stored);
      this.plaintext(purpose, plaintext);
      return plaintext;
    };
  }

  private plaintext(purpose: SecretPurpose, plaintext: Buffer): void {
    const kind = KIND_OF_PURPOSE[purpose];
    if (kind === 'otp-key') {
      for (const form of binaryForms(plaintext)) this.secret(kind, form);
    } else if (kind === 'token-signing-key') {
      // a PEM: its base64 lines, any of which printed would show the key is out
      for (const line of plaintext.toString('utf8').split('\n')) if (/^[A-Za-z0-9+/=]{40,}$/.test(line)) this.secret(kind, line);
    } else {
      this.secret(kind, plaintext.toString('utf8'));
    }
  }

  /** The log lines go to the recorder, and to `inner` when the test reads them too. */
  logDestination(inner?: DestinationStream): DestinationStream {
    return {
      write: (chunk: string) => {
        for (const line of chunk.split('\n')) if (line) this.text('log', line);
        inner?.write(chunk);
      },
    };
  }

  /**
   * Every response: an error body (4xx, 5xx, or a JSON envelope with `success: false`) is scanned; a
   * successful one is where secrets are handed out (a creation answer, the resource secret's display,
   * the enrollment page, the access token of a callback form), so its tokens are recorded as secrets.
   * Codes are recorded from the request bodies that send them.
   */
  watchHttp(fastify: FastifyInstance): void {
    fastify.addHook('onSend', (request, reply, payload, done) => {
      this.codesOf(request.body);
      if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
        const text = payload.toString();
        if (reply.statusCode >= 400 || isFailedEnvelope(text)) {
          // the body only: the request's own URL may carry what the client was given (an enrollment link)
          this.text('error-body', text, `${reply.statusCode} ${request.method} ${request.url}`);
        } else {
          this.handedOut(text);
        }
      }
      done(null, payload);
    });
  }

  private handedOut(text: string): void {
    for (const match of text.matchAll(JWT)) this.secret('access-token', match[0]);
    for (const match of text.matchAll(ENROLLMENT_TOKEN)) this.secret('enrollment-token', match[1]);
  }

  private codesOf(body: unknown, depth = 0): void {
    if (!body || typeof body !== 'object' || depth > 3) return;
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      if (typeof value === 'string' && CODE_FIELD.test(name) && /^\d{6,8}$/.test(value)) this.secret('code', value);
      else if (typeof value === 'object') this.codesOf(value, depth + 1);
    }
  }

  /** The journal rows of the app's database, before the database is dropped. */
  async readJournal(query: (sql: string) => Promise<unknown[]>): Promise<void> {
    const rows = (await query('SELECT row_to_json(j)::text AS row FROM journal_events j ORDER BY seq')) as { row: string }[];
    for (const { row } of rows) this.text('journal', row);
  }

  /** The mails in the outbox (quoted-printable soft line breaks joined, so that links read whole). */
  readOutbox(dataDir: string): void {
    const outbox = join(dataDir, 'outbox');
    let names: string[];
    try {
      names = readdirSync(outbox);
    } catch {
      return;
    }
    // the mails only: the SMS and call outboxes are directories beside them
    for (const name of names.filter((n) => n.endsWith('.eml'))) {
      const mail = readFileSync(join(outbox, name), 'utf8').replace(/=\r?\n/g, '');
      for (const match of mail.matchAll(ENROLLMENT_TOKEN)) this.secret('enrollment-token', match[1]);
      this.text('mail', mail);
    }
  }
}

function isFailedEnvelope(text: string): boolean {
  if (!text.startsWith('{') || !text.includes('"success":false')) return false;
  try {
    return (JSON.parse(text) as { success?: unknown }).success === false;
  } catch {
    return false;
  }
}
