import { request } from 'node:http';
import { AddressInfo } from 'node:net';
import { TestApp } from '../testing/test-app';

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** The longest a request may take before it counts as a hang: no healthy call comes near it. */
export const HANG_BOUND_MS = 20_000;

/**
 * Requests that go out byte for byte as built (supertest re-encodes bodies and sets content types;
 * fetch normalizes paths). One connection per request: a kept-alive socket the server closes after a
 * refusal (413, 431) races the next request into a client-side "socket hang up" that is no server bug.
 * The app's server is started on a free port.
 */
export class FuzzClient {
  private constructor(private readonly port: number) {}

  static async start(t: TestApp): Promise<FuzzClient> {
    const server = t.app.getHttpServer();
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new FuzzClient((server.address() as AddressInfo).port);
  }

  send(req: RawRequest): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...req.headers };
      if (req.body) headers['content-length'] = String(req.body.length);
      let answered = false;
      const outgoing = request({ host: '127.0.0.1', port: this.port, method: req.method, path: req.path, headers, agent: false }, (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      outgoing.setTimeout(HANG_BOUND_MS, () => outgoing.destroy(new Error(`no answer within ${HANG_BOUND_MS} ms: a hang`)));
      // the server may answer 413 and close before the whole body is written: the answer is what counts
      outgoing.on('error', (error) => {
        if (!answered) reject(error);
      });
      outgoing.end(req.body);
    });
  }
}
