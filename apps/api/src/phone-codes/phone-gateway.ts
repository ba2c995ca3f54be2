import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fillGatewayTemplate, GatewayPlaceholders, HttpGatewaySettings, PhoneCodeMethod } from '@twofold/domain';

/** One message to a phone: an SMS, or the text a call reads out. */
export interface PhoneMessage {
  method: PhoneCodeMethod;
  /** E.164 */
  phone: string;
  text: string;
  code: string;
}

/**
 * Why a gateway did not take a message. Only this word is logged or counted: the gateway's answer
 * body may echo the code or the provider's credentials, so it is never shown anywhere.
 */
export type GatewayFailure = 'unreachable' | 'timeout' | 'status' | 'unexpectedAnswer' | 'privateDestination';

export type GatewayResult = { sent: true } | { sent: false; failure: GatewayFailure };

/** Hands a message to whatever sends it: the account's or the service's HTTP gateway, or the outbox. */
export interface PhoneGateway {
  send(message: PhoneMessage): Promise<GatewayResult>;
}

/**
 * Without any gateway configured, each message is a JSON file in `.data/outbox/sms/` or
 * `.data/outbox/calls/`, like the mail outbox: the embedded service works offline and a developer
 * (or a test) reads the code there. Readable by the service's user only: it holds live codes.
 */
export class OutboxPhoneGateway implements PhoneGateway {
  constructor(private readonly outboxDir: string) {}

  async send(message: PhoneMessage): Promise<GatewayResult> {
    const dir = join(this.outboxDir, message.method === 'sms' ? 'sms' : 'calls');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.json`;
    const record = { to: message.phone, method: message.method, text: message.text };
    await writeFile(join(dir, name), JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
    return { sent: true };
  }
}

/** The customer's provider, called as its HTTP template says (libs/domain phone-gateways.ts). */
export class HttpTemplateGateway implements PhoneGateway {
  /** `admits`: whether the gateway's URL may be called now (an account's own gateway: public addresses only) */
  constructor(
    private readonly settings: HttpGatewaySettings,
    private readonly admits: (url: string) => Promise<boolean> = async () => true,
  ) {}

  async send(message: PhoneMessage): Promise<GatewayResult> {
    const { settings } = this;
    if (!(await this.admits(settings.url))) return { sent: false, failure: 'privateDestination' };
    const values: GatewayPlaceholders = { phone: message.phone, text: message.text, code: message.code };
    const url = fillGatewayTemplate(settings.url, values, encodeURIComponent);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(settings.headers)) headers[name] = fillGatewayTemplate(value, values);
    if (settings.basicAuth) {
      const { username, password } = settings.basicAuth;
      headers['authorization'] = `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
    }
    const fields = Object.fromEntries(Object.entries(settings.body).map(([key, value]) => [key, fillGatewayTemplate(value, values)]));
    let body: string | undefined;
    if (settings.bodyFormat === 'json') {
      body = JSON.stringify(fields);
      headers['content-type'] ??= 'application/json';
    } else if (settings.bodyFormat === 'form') {
      body = new URLSearchParams(fields).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    const signal = AbortSignal.timeout(settings.timeoutMs);
    try {
      const response = await fetch(url, { method: settings.method, headers, body, signal, redirect: 'error' });
      // the body is read within the same bound, then only compared: never logged or returned
      const text = await response.text();
      if (response.status < 200 || response.status > 299) return { sent: false, failure: 'status' };
      if (settings.successContains !== null && !text.includes(settings.successContains))
        return { sent: false, failure: 'unexpectedAnswer' };
      return { sent: true };
    } catch {
      return { sent: false, failure: signal.aborted ? 'timeout' : 'unreachable' };
    }
  }
}
