import { AddressInfo } from 'node:net';
import { TestApp } from './test-app';

/**
 * A POST whose bytes go out exactly as given, as JSON unless the headers say otherwise: supertest would
 * re-encode a Buffer, and compressed or broken bodies must reach the server untouched. The app's server
 * is started on a free port the first time.
 */
export async function postBytes(
  t: TestApp,
  path: string,
  headers: Record<string, string>,
  bytes: Buffer,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const server = t.app.getHttpServer();
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: bytes,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
