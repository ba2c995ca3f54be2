import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { FakeGatewayMode, FakePhoneGateway } from './fake-phone-gateway';

/**
 * The loopback fake SMS/voice provider as a process of its own, for the black-box tests that start
 * the built service (they cannot import it across projects). The provider listens on a port of its
 * own; a control server beside it answers `GET /requests` (what the provider received) and
 * `PUT /mode/<ok|fail|slow|garbage>`. Prints one line with both URLs once they listen.
 */
async function main(): Promise<void> {
  const fake = await FakePhoneGateway.start();
  const modes: readonly FakeGatewayMode[] = ['ok', 'fail', 'slow', 'garbage'];
  const control = createServer((req, res) => {
    const mode = /^\/mode\/(\w+)$/.exec(req.url ?? '')?.[1] as FakeGatewayMode | undefined;
    if (req.method === 'PUT' && mode && modes.includes(mode)) {
      fake.mode = mode;
      res.writeHead(204).end();
    } else if (req.method === 'GET' && req.url === '/requests') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(fake.requests));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
  process.stdout.write(`fake phone gateway on ${fake.url} control ${controlUrl}\n`);
  const stop = () => void fake.close().then(() => control.close(() => process.exit(0)));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
