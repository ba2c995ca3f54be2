import { ChildProcess, spawn } from 'node:child_process';
import { ROOT } from './processes';

/** What the fake provider received: the method, path, headers and body of each request. */
export interface FakeGatewayRequest {
  method: string;
  url: string;
  body: string;
}

/**
 * The loopback fake SMS/voice provider (apps/api/test/testing/fake-phone-gateway.ts) as a process of
 * its own, driven through its control server: the black-box tests start the built service and
 * point SMS_GATEWAY at it.
 */
export interface FakePhoneGatewayProcess {
  /** the provider's URL, for the gateway template */
  url: string;
  setMode(mode: 'ok' | 'fail' | 'slow' | 'garbage'): Promise<void>;
  requests(): Promise<FakeGatewayRequest[]>;
  stop(): Promise<void>;
}

export async function startFakePhoneGateway(): Promise<FakePhoneGatewayProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['-r', './tools/openapi/register.cjs', 'apps/api/test/testing/fake-phone-gateway.main.ts'],
    {
      cwd: ROOT,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const started = await new Promise<RegExpExecArray>((resolve, reject) => {
    const check = () => {
      const line = /fake phone gateway on (\S+) control (\S+)/.exec(output);
      if (line) return resolve(line);
      if (child.exitCode !== null) return reject(new Error(`the fake phone gateway did not start:\n${output}`));
    };
    child.stdout?.on('data', check);
    child.on('close', check);
  });
  const [, url, control] = started;
  return {
    url,
    setMode: async (mode) => void (await fetch(`${control}/mode/${mode}`, { method: 'PUT' })),
    requests: async () => (await (await fetch(`${control}/requests`)).json()) as FakeGatewayRequest[],
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
