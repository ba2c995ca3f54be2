import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { asAccountId } from '@twofold/domain';
import { SecretRecorder } from './secret-recorder';
import { appendRecords, binaryForms, finishSecretScan, ScanRecord, scanRecords, scanRunDirectory, summaryLine } from './secret-scan';
import { startTestApp, TestApp } from './test-app';

describe('secrets scan: matching', () => {
  const key = randomBytes(20);
  const secrets: ScanRecord[] = [
    ...binaryForms(key).map((value): ScanRecord => ({ t: 'secret', kind: 'otp-key', value })),
    { t: 'secret', kind: 'code', value: '492039' },
    { t: 'secret', kind: 'enrollment-token', value: 'Zt3oQ1y7Lr0bX2kq9wUvPe4sNd8aHc6mJf5iTg1oRpA' },
  ];
  const scan = (...texts: ScanRecord[]) => scanRecords([...secrets, ...texts]).findings.map((f) => `${f.source} ${f.kind}`);

  it('finds a key in any of its written forms, inside any text', () => {
    for (const form of binaryForms(key)) expect(scan({ t: 'log', text: `{"msg":"x","k":"${form}"}` })).toEqual(['log otp-key']);
    expect(scan({ t: 'journal', text: `secret=${binaryForms(key)[2]}&issuer=x` })).toEqual(['journal otp-key']);
  });

  it('finds a code as a whole number, not inside a longer number, a decimal or an id', () => {
    expect(scan({ t: 'error-body', text: '{"message":"code 492039 is wrong"}' })).toEqual(['error-body code']);
    expect(scan({ t: 'log', text: '"passCode":"492039"' })).toEqual(['log code']);
    for (const text of ['1492039', '4920391', '"responseTime":1.492039', 'a492039', '492039b', 'id 492039.5']) {
      expect(scan({ t: 'log', text })).toEqual([]);
    }
  });

  it("leaves a code in a log line's request url to the client that sent it, and still finds it elsewhere in the line and keys in the url", () => {
    expect(scan({ t: 'log', text: '{"method":"GET","url":"/access/enroll/492039","statusCode":404}' })).toEqual([]);
    expect(scan({ t: 'log', text: '{"url":"/access/x?a=\\"492039","statusCode":404}' })).toEqual([]);
    expect(scan({ t: 'log', text: '{"url":"/access/enroll/x","msg":"code 492039"}' })).toEqual(['log code']);
    expect(scan({ t: 'error-body', text: '{"url":"/access/enroll/492039"}' })).toEqual(['error-body code']);
    expect(scan({ t: 'log', text: `{"url":"/x?k=${binaryForms(key)[0]}"}` })).toEqual(['log otp-key']);
  });

  it('allows an enrollment token in a mail only', () => {
    const link = 'https://2fa.test/access/enroll/Zt3oQ1y7Lr0bX2kq9wUvPe4sNd8aHc6mJf5iTg1oRpA';
    expect(scan({ t: 'mail', text: link })).toEqual([]);
    expect(scan({ t: 'log', text: link }, { t: 'journal', text: link })).toEqual(['log enrollment-token', 'journal enrollment-token']);
  });

  it('counts what it compared', () => {
    const result = scanRecords([...secrets, { t: 'log', text: 'a' }, { t: 'mail', text: 'b' }, { t: 'mail', text: 'c' }]);
    expect(result.counts).toEqual({ secrets: 7, log: 1, 'error-body': 0, journal: 0, mail: 2 });
    expect(summaryLine(result)).toBe(
      'secrets scan: 7 secrets compared with 1 log lines, 0 error bodies, 0 journal rows, 2 mails: none found',
    );
  });
});

describe('secrets scan: the end of the run', () => {
  it('fails the run on a finding, naming the source and the test, and removes the run directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twofold-secret-scan-spec-'));
    appendRecords(dir, 'worker.jsonl', [
      { t: 'secret', kind: 'account-api-secret', value: 'bKgRr2vN0x9QeLq7Tz4sYw1uJ' },
      { t: 'log', text: '{"msg":"bKgRr2vN0x9QeLq7Tz4sYw1uJ"}', at: 'apps/api/src/x.spec.ts › a test' },
    ]);
    const printed: string[] = [];
    expect(() => finishSecretScan(dir, (line) => printed.push(line))).toThrow(
      /account-api-secret \(bKgR…\) in a log of apps\/api\/src\/x\.spec\.ts › a test/,
    );
    expect(printed).toEqual([expect.stringMatching(/^secrets scan: 1 secrets compared with 1 log lines, .*: 1 FOUND \(\d+ ms\)$/)]);
    expect(existsSync(dir)).toBe(false);
  });
});

/**
 * The recording of a real test application, into a run directory of this test's own (the run's
 * scan must not see the secrets planted here): a secret planted in each of the four sources is found
 * there, and what legitimately hands secrets out is not taken for a leak.
 */
describe('secrets scan: a test application records every source', () => {
  let dir: string;
  let t: TestApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'twofold-secret-scan-spec-'));
    t = await startTestApp({}, { secretRecorder: new SecretRecorder(dir) });
  });
  let closed = false;
  const close = async () => {
    if (!closed) await t.close();
    closed = true;
  };
  afterAll(async () => {
    await close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds a secret planted in a log line, an error body, a journal row and a mail', async () => {
    const account = await t.newAccount();
    const resource = await t.newResource(account.account.id, 'VPN');
    const user = await newUser(t.db, asAccountId(account.account.id), 'anna', { now: t.clock.now() });
    const key = randomBytes(20);
    await newOtpAuthenticator(t.db, t.cipher, asAccountId(account.account.id), user.id, { kind: 'TotpToken', key, now: t.clock.now() });

    // legitimate: the resource secret's display endpoint, an enrollment link created and mailed
    const shown = await t.as(account).get(`/resources/${resource.resource.id}/secret`);
    expect(shown.status).toBe(200);
    const mailed = await t
      .as(account)
      .post('/users')
      .send({ Identity: 'boris', Email: 'boris@corp.test', EnrollmentLink: { To: 'email' } });
    expect(mailed.status).toBe(200);

    // planted: the account's API secret in a log line
    new Logger('Planted').warn(`leaked ${account.apiSecret}`);
    // the resource's API secret in an error body: a refusal that repeats the identity it was given
    for (let i = 0; i < 2; i++) {
      await t.as(account).post('/users').send({ Identity: resource.apiSecret });
    }
    // the OTP key (hex) in a journal row
    await t.db
      .manager()
      .query(
        `INSERT INTO journal_events (account_id, event_date, object, action, subject, success, additional_fields) VALUES ($1, $2, 'User', 'Update', 'x', true, $3)`,
        [account.account.id, t.clock.now(), JSON.stringify({ Key: key.toString('hex') })],
      );
    // the OTP key (Base32, as an app shows it) in a mail
    const outbox = join(t.app.get('twofold:app-config').dataDir, 'outbox');
    mkdirSync(outbox, { recursive: true });
    writeFileSync(join(outbox, 'zz-planted.eml'), `Subject: your key\r\n\r\nKey: ${binaryForms(key)[2]}\r\n`);
    await close();

    const result = scanRunDirectory(dir);
    const found = result.findings.map((f) => `${f.source} ${f.kind} ${f.secretStart}`);
    expect(found).toContain(`log account-api-secret ${account.apiSecret.slice(0, 4)}`);
    expect(found).toContain(`error-body resource-api-secret ${resource.apiSecret.slice(0, 4)}`);
    expect(found).toContain(`journal otp-key ${key.toString('hex').slice(0, 4)}`);
    expect(found).toContain(`mail otp-key ${binaryForms(key)[2].slice(0, 4)}`);
    // nothing else: the identity is journaled as given (by the user's creation and by the refusal), and
    // the display endpoint, the creation answers and the enrollment mail are no findings
    expect(result.findings.map((f) => `${f.source} ${f.kind}`).sort()).toEqual([
      'error-body resource-api-secret',
      'journal otp-key',
      'journal resource-api-secret',
      'journal resource-api-secret',
      'log account-api-secret',
      'mail otp-key',
    ]);
    expect(result.findings.every((f) => f.excerpt.includes(`<${f.kind}>`) && f.at?.includes('secret-scan.spec.ts'))).toBe(true);
    expect(result.counts).toMatchObject({ 'error-body': 1, mail: 2 });
    expect(result.counts.log).toBeGreaterThan(0);
    expect(result.counts.journal).toBeGreaterThan(3);
    expect(result.counts.secrets).toBeGreaterThan(7);
  });
});
