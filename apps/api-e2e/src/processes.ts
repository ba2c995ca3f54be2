import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(__dirname, '../../..');
export const API_BUNDLE = join(ROOT, 'dist/apps/api/main.js');
export const CLI_BUNDLE = join(ROOT, 'dist/apps/cli/main.js');

export function requireBundles(): void {
  for (const bundle of [API_BUNDLE, CLI_BUNDLE]) {
    if (!existsSync(bundle))
      throw new Error(`${bundle} is missing: run npm test (it builds first) or npx nx run-many -t build --projects=api,cli`);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Environment without the caller's database settings, so each test says exactly what it uses. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'TEST_DATABASE_URL',
    'SECRET_ENCRYPTION_KEY',
    'TWOFOLD_DATA_DIR',
    'PORT',
    'PUBLIC_URL',
    'ACCESS_URL',
    'TOKEN_ISSUER',
    'TRUSTED_PROXIES',
    // settings a developer's shell may hold that would change what the tests see
    'SECRET_ENCRYPTION_PREVIOUS_KEYS',
    'DATABASE_LISTEN_URL',
    'ACCESS_REQUESTS_PER_MINUTE',
    'TWOFOLD_CLI_COMMAND',
  ]) {
    delete env[name];
  }
  return { ...env, LOG_LEVEL: 'info', ...extra };
}

export interface RunningApi {
  process: ChildProcess;
  baseUrl: string;
  output: () => string;
  stop(): Promise<number | null>;
  /**
   * Resolves once the output holds `text`. The API writes its log in batches (at least once a
   * second), so a line about a request just answered may not be there yet.
   */
  waitForOutput(text: string, timeoutMs?: number): Promise<string>;
}

/** Starts the built API and waits until /ping answers. */
export async function startApi(env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<RunningApi> {
  const child = spawn(process.execPath, [API_BUNDLE], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  // 'close', not 'exit': the last lines on stdout are read before the stop resolves
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${env['PORT']}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/ping`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the API did not answer /ping within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    process: child,
    baseUrl,
    output: () => output,
    waitForOutput: async (text, waitMs = 10_000) => {
      const until = Date.now() + waitMs;
      while (!output.includes(text)) {
        if (Date.now() > until)
          throw new Error(`the API output did not show ${JSON.stringify(text)} within ${waitMs} ms:\n${output.slice(-2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return output;
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI_BUNDLE, ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 90_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function basic(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}
