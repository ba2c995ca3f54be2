import { appendFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The whole-suite secrets scan (docs/decisions/secrets-scan.md). The test harness records in
 * each jest worker every secret it saw used and every text where no secret may appear; the api
 * project's globalTeardown reads all of them and fails the run on any secret found in such a text.
 *
 * No imports of the workspace here: jest's globalTeardown loads this file without the path aliases.
 */

/** Where a secret must never appear. */
export type ScannedSource = 'log' | 'error-body' | 'journal' | 'mail';

export type SecretKind =
  | 'otp-key'
  | 'account-api-secret'
  | 'resource-api-secret'
  | 'authenticator-private-id'
  | 'token-signing-key'
  | 'code'
  | 'access-token'
  | 'enrollment-token'
  /** an account's SMS or call gateway as stored (its passwords and tokens) */
  | 'gateway-settings';

/**
 * Sources where a kind legitimately appears: an enrollment link is what an invitation or enrollment
 * mail is for. Everything else is forbidden in all four sources.
 */
const ALLOWED: Partial<Record<SecretKind, readonly ScannedSource[]>> = { 'enrollment-token': ['mail'] };

export type ScanRecord =
  | { t: 'secret'; kind: SecretKind; value: string }
  | { t: ScannedSource; text: string; /** the spec file and test that produced it */ at?: string };

/** The run directory: set by the api project's globalSetup, absent when the scan is not running. */
export const SCAN_DIR_VARIABLE = 'TWOFOLD_SECRET_SCAN_DIR';

/** Appends records to this worker's own file in `dir` (one file per writer: no interleaving between workers). */
export function appendRecords(dir: string, file: string, records: readonly ScanRecord[]): void {
  if (records.length === 0) return;
  appendFileSync(join(dir, file), records.map((r) => JSON.stringify(r)).join('\n') + '\n', { mode: 0o600 });
}

export function readRecords(dir: string): ScanRecord[] {
  const records: ScanRecord[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) if (line) records.push(JSON.parse(line) as ScanRecord);
  }
  return records;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** The ways a binary secret is written down: hex (either case), Base32 as authenticator apps show it, base64(url). */
export function binaryForms(secret: Buffer): string[] {
  return [
    secret.toString('hex'),
    secret.toString('hex').toUpperCase(),
    base32(secret),
    secret.toString('base64'),
    secret.toString('base64url'),
  ];
}

/** A code is compared as a whole number in the text (not inside a longer number, a decimal or an id). */
const CODE = /^\d{6,8}$/;
const CODES_IN_TEXT = /(?<![\w.])\d{6,8}(?![\w]|\.\d)/g;
/** Other secrets are found as substrings, by their first PREFIX characters, then compared whole. */
const PREFIX = 10;
const MIN_SECRET_LENGTH = 12;

export interface Finding {
  source: ScannedSource;
  kind: SecretKind;
  /** the first 4 characters of the secret: enough to find it in the test, too little to use it */
  secretStart: string;
  at?: string;
  /** the text around the secret, the secret itself masked */
  excerpt: string;
}

export interface ScanResult {
  counts: Record<ScannedSource, number> & { secrets: number };
  findings: Finding[];
}

class SecretIndex {
  private readonly codes = new Map<string, SecretKind>();
  private readonly byPrefix = new Map<string, { value: string; kind: SecretKind }[]>();
  size = 0;

  add(kind: SecretKind, value: string): void {
    if (CODE.test(value)) {
      if (!this.codes.has(value)) this.size++;
      this.codes.set(value, kind);
      return;
    }
    if (value.length < MIN_SECRET_LENGTH) return;
    const prefix = value.slice(0, PREFIX);
    const list = this.byPrefix.get(prefix) ?? [];
    if (list.some((s) => s.value === value)) return;
    list.push({ value, kind });
    this.byPrefix.set(prefix, list);
    this.size++;
  }

  *find(text: string): Generator<{ kind: SecretKind; value: string; index: number }> {
    for (const match of text.matchAll(CODES_IN_TEXT)) {
      const kind = this.codes.get(match[0]);
      if (kind) yield { kind, value: match[0], index: match.index as number };
    }
    for (let i = 0; i + PREFIX <= text.length; i++) {
      const candidates = this.byPrefix.get(text.slice(i, i + PREFIX));
      if (!candidates) continue;
      // one finding per place: the longest secret there (base64url is base64 without its padding)
      let longest: { value: string; kind: SecretKind } | undefined;
      for (const candidate of candidates) {
        if (text.startsWith(candidate.value, i) && candidate.value.length > (longest?.value.length ?? 0)) longest = candidate;
      }
      if (longest) yield { ...longest, index: i };
    }
  }
}

/** Compares every recorded secret with every recorded text of the four sources. */
export function scanRecords(records: readonly ScanRecord[]): ScanResult {
  const index = new SecretIndex();
  for (const record of records) if (record.t === 'secret') index.add(record.kind, record.value);
  const counts = { log: 0, 'error-body': 0, journal: 0, mail: 0, secrets: index.size };
  const findings: Finding[] = [];
  for (const record of records) {
    if (record.t === 'secret') continue;
    counts[record.t]++;
    const sentUrls = record.t === 'log' ? urlFieldSpans(record.text) : [];
    for (const hit of index.find(record.text)) {
      if (ALLOWED[hit.kind]?.includes(record.t)) continue;
      if (hit.kind === 'code' && sentUrls.some(([from, to]) => hit.index >= from && hit.index < to)) continue;
      const from = Math.max(0, hit.index - 60);
      const excerpt =
        record.text.slice(from, hit.index) +
        `<${hit.kind}>` +
        record.text.slice(hit.index + hit.value.length, hit.index + hit.value.length + 60);
      findings.push({ source: record.t, kind: hit.kind, secretStart: hit.value.slice(0, 4), at: record.at, excerpt });
    }
  }
  return { counts, findings };
}

/**
 * Where the `url` fields of a JSON log line are: the request line as the client sent it. A number there
 * that equals a code of some test is the client's (the fuzzer sends six-digit numbers in paths on purpose,
 * and a run records thousands of codes from random keys: a chance match made the scan fail once); the API
 * takes codes from bodies only, so it cannot have written one there. Keys are still looked for in URLs.
 */
function urlFieldSpans(line: string): [number, number][] {
  const spans: [number, number][] = [];
  for (const match of line.matchAll(/"url":"((?:[^"\\]|\\.)*)"/g)) {
    const from = (match.index as number) + '"url":"'.length;
    spans.push([from, from + match[1].length]);
  }
  return spans;
}

/** The line the run prints, e.g. for a closing note. */
export function summaryLine({ counts, findings }: ScanResult): string {
  return (
    `secrets scan: ${counts.secrets} secrets compared with ${counts.log} log lines, ${counts['error-body']} error bodies, ` +
    `${counts.journal} journal rows, ${counts.mail} mails: ${findings.length === 0 ? 'none found' : `${findings.length} FOUND`}`
  );
}

export function describeFindings(findings: readonly Finding[], limit = 20): string {
  return findings
    .slice(0, limit)
    .map((f) => `- ${f.kind} (${f.secretStart}…) in a ${f.source}${f.at ? ` of ${f.at}` : ''}: ${f.excerpt.replace(/\s+/g, ' ')}`)
    .concat(findings.length > limit ? [`… and ${findings.length - limit} more`] : [])
    .join('\n');
}

/** Reads a run directory and scans it. */
export function scanRunDirectory(dir: string): ScanResult {
  return scanRecords(readRecords(dir));
}

/**
 * The end of the run (the api project's globalTeardown): scans the run directory, removes it, prints
 * the summary and throws on any finding, which fails the jest run.
 */
export function finishSecretScan(dir: string, print: (line: string) => void): ScanResult {
  const started = process.hrtime.bigint();
  let result: ScanResult;
  try {
    result = scanRunDirectory(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  print(`${summaryLine(result)} (${(process.hrtime.bigint() - started) / 1_000_000n} ms)`);
  if (result.findings.length > 0) {
    throw new Error(
      `secrets found where none may be (log lines, error bodies, journal rows, mails):\n${describeFindings(result.findings)}`,
    );
  }
  return result;
}
