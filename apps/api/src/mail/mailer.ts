import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTransport, Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Outgoing mail: through SMTP_URL when set, else into .eml files a developer can open. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export const MAILER = 'twofold:mailer';

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }
}

/** Writes each message as an RFC 822 file into the outbox directory (development and tests). */
export class OutboxMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    readonly outboxDir: string,
    private readonly from: string,
  ) {
    this.transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail({ from: this.from, ...message });
    mkdirSync(this.outboxDir, { recursive: true, mode: 0o700 });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    // the outbox holds live enrollment links: readable by the service's user only
    writeFileSync(join(this.outboxDir, name), info.message as Buffer, { mode: 0o600 });
  }
}

export function createMailer(settings: { smtpUrl?: string; dataDir: string; mailFrom: string }): Mailer {
  return settings.smtpUrl
    ? new SmtpMailer(settings.smtpUrl, settings.mailFrom)
    : new OutboxMailer(join(settings.dataDir, 'outbox'), settings.mailFrom);
}
