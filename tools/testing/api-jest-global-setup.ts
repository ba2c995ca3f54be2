import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import startTestServer from './jest-global-setup';
import { SCAN_DIR_VARIABLE } from '../../apps/api/test/testing/secret-scan';

/**
 * The api project's run: the shared PostgreSQL server, and a fresh directory where every worker's
 * test applications record for the secrets scan (workers inherit the variable); the api project's
 * globalTeardown scans it.
 */
export default async function globalSetup(): Promise<void> {
  await startTestServer();
  if (process.env[SCAN_DIR_VARIABLE]) return;
  process.env[SCAN_DIR_VARIABLE] = mkdtempSync(join(tmpdir(), 'twofold-secret-scan-'));
  (globalThis as { twofoldSecretScanDir?: string }).twofoldSecretScanDir = process.env[SCAN_DIR_VARIABLE];
}
