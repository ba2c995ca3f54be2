import { rmSync } from 'node:fs';
import stopTestServer from '../../../../tools/testing/jest-global-teardown';
import { describeFindings, SCAN_DIR_VARIABLE, scanRunDirectory, summaryLine } from './secret-scan';

/**
 * After every spec of the run: no secret the tests used may appear in any log line, error body,
 * journal row or mail they produced (secret-scan.ts). A finding fails the run.
 */
export default async function globalTeardown(): Promise<void> {
  await stopTestServer();
  const holder = globalThis as { twofoldSecretScanDir?: string };
  const dir = holder.twofoldSecretScanDir;
  if (!dir) return;
  holder.twofoldSecretScanDir = undefined;
  delete process.env[SCAN_DIR_VARIABLE];
  const started = process.hrtime.bigint();
  let result;
  try {
    result = scanRunDirectory(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n${summaryLine(result)} (${(process.hrtime.bigint() - started) / 1_000_000n} ms)`);
  if (result.findings.length > 0) {
    throw new Error(
      `secrets found where none may be (log lines, error bodies, journal rows, mails):\n${describeFindings(result.findings)}`,
    );
  }
}
