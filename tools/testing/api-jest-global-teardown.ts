import stopTestServer from './jest-global-teardown';
import { finishSecretScan, SCAN_DIR_VARIABLE } from '../../apps/api/test/testing/secret-scan';

/** After every spec of the run: the secrets scan (apps/api/test/testing/secret-scan.ts); a finding fails the run. */
export default async function globalTeardown(): Promise<void> {
  await stopTestServer();
  const holder = globalThis as { twofoldSecretScanDir?: string };
  const dir = holder.twofoldSecretScanDir;
  if (!dir) return;
  holder.twofoldSecretScanDir = undefined;
  delete process.env[SCAN_DIR_VARIABLE];
  finishSecretScan(dir, (line) => console.log(`\n${line}`));
}
