import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMailer, OutboxMailer, SmtpMailer } from './mailer';

describe('mailer', () => {
  it('writes an .eml file into <dataDir>/outbox without SMTP_URL', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'twofold-mail-'));
    try {
      const mailer = createMailer({ dataDir, mailFrom: 'Twofold <no-reply@twofold.test>' });
      expect(mailer).toBeInstanceOf(OutboxMailer);
      await mailer.send({ to: 'ann@example.test', subject: 'Set up your second factor', text: 'Open https://x.test/enroll/abc' });
      const outbox = join(dataDir, 'outbox');
      const files = readdirSync(outbox);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const eml = readFileSync(join(outbox, files[0]), 'utf8');
      expect(eml).toContain('To: ann@example.test');
      expect(eml).toContain('From: Twofold <no-reply@twofold.test>');
      expect(eml).toContain('Subject: Set up your second factor');
      expect(eml).toContain('https://x.test/enroll/abc');
      expect(statSync(join(outbox, files[0])).mode & 0o077).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('speaks SMTP to the server of SMTP_URL', async () => {
    // a minimal SMTP peer that records the DATA it receives
    let received = '';
    const server: Server = createServer((socket) => {
      let inData = false;
      socket.write('220 test ESMTP\r\n');
      socket.on('data', (chunk) => {
        for (const line of chunk.toString().split('\r\n')) {
          if (inData) {
            if (line === '.') {
              inData = false;
              socket.write('250 OK\r\n');
            } else received += line + '\n';
          } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 test\r\n');
          else if (/^(MAIL FROM|RCPT TO)/i.test(line)) socket.write('250 OK\r\n');
          else if (/^DATA/i.test(line)) {
            inData = true;
            socket.write('354 go\r\n');
          } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, dataDir: tmpdir(), mailFrom: 'no-reply@twofold.test' });
      expect(mailer).toBeInstanceOf(SmtpMailer);
      await mailer.send({ to: 'bob@example.test', subject: 'Hello', text: 'the body' });
      expect(received).toContain('To: bob@example.test');
      expect(received).toContain('the body');
    } finally {
      server.close();
    }
  });
});
