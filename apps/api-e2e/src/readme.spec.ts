import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import { cleanEnv, freePort, requireBundles, ROOT, startApi } from './processes';

beforeAll(() => requireBundles());

/** The shell blocks of the README's "First steps", in order, as a newcomer pastes them. */
function firstSteps(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## First steps'), readme.indexOf('## Integrating'));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
}

/**
 * `jq -r .a.b` for machines without jq (the README says how to install it): enough for the README's
 * own lines, so that the test checks them wherever it runs.
 */
const JQ_FALLBACK = `command -v jq >/dev/null || jq() {
  node -e 'let v = JSON.parse(require("fs").readFileSync(0, "utf8")); for (const k of process.argv[1].split(".").filter(Boolean)) v = v?.[k]; console.log(typeof v === "string" ? v : JSON.stringify(v))' "$2"
}`;

it("runs the README's first steps as they are written: provisioning, the jq lines, the calls and the licences", async () => {
  const blocks = firstSteps();
  expect(blocks.length).toBeGreaterThanOrEqual(3);
  const database = await createEmptyDatabase();
  const env = cleanEnv({
    DATABASE_URL: database.url,
    SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    PORT: String(await freePort()),
  });
  const api = await startApi(env);
  try {
    const script = [
      'set -euo pipefail',
      JQ_FALLBACK,
      // an HTTP error fails the step, as it would stop a reader
      'curl() { command curl -sS --fail-with-body "$@"; echo; }',
      ...blocks.map((block) => block.replaceAll('http://localhost:3000', api.baseUrl)),
      'echo "VARS ACCOUNT_ID=$ACCOUNT_ID KEY=$KEY SECRET=$SECRET RESOURCE_ID=$RESOURCE_ID RKEY=$RKEY RSECRET=$RSECRET"',
    ].join('\n');
    const run = spawnSync('bash', ['-c', script], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const vars = Object.fromEntries(
      (/^VARS (.*)$/m.exec(run.stdout)?.[1] ?? '').split(' ').map((pair) => pair.split('=') as [string, string]),
    );
    for (const name of ['ACCOUNT_ID', 'KEY', 'SECRET', 'RESOURCE_ID', 'RKEY', 'RSECRET']) expect(vars[name]).toMatch(/^[\w-]{16,}$/);
    expect(run.stdout).toContain('"identity":"jane"');
    expect(run.stdout).toContain('{"status":"ready"}');
    expect(run.stdout).toContain('"licenses":250');
  } finally {
    await api.stop();
    await database.drop();
  }
});
