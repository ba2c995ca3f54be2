import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  Clock,
  DEFAULT_PHONE_CODE_LIMITS,
  destinationRange,
  isPhoneCodeMethod,
  maskPhoneNumber,
  newPhoneCode,
  PhoneCodeMethod,
  phoneCodeExpiry,
  phoneCodeLimitHit,
} from '@twofold/domain';
import { JournalField, JournalWriter } from '@twofold/journal';
import { CLOCK } from '../../config/injection-tokens';
import { AppMetrics } from '../../metrics/app-metrics';
import { PhoneCodesRepository } from '../../phone-codes/phone-codes.repository';
import { PhoneGateways } from '../../phone-codes/phone-gateways';
import { CodeFactorCheck } from './code-factor.check';
import { FactorCheck, FactorCheckContext, FactorCheckResult } from './sign-in';

/** The code hashed with the request it is bound to: a code of one request is no code of another. */
function hashCode(requestId: string, code: string): Buffer {
  return createHash('sha256').update(`${requestId}:${code}`, 'utf8').digest();
}

/** What the SMS says, and what the call reads (digit by digit, twice, so it can be written down). */
function messageText(method: PhoneCodeMethod, code: string): string {
  if (method === 'sms') return `Код для входа: ${code}. Sign-in code: ${code}`;
  const spoken = code.split('').join(' ');
  return `Ваш код: ${spoken}. Повторяю: ${spoken}. Your code: ${spoken}.`;
}

/**
 * The `phoneCode` factor: a code sent to the user's phone by SMS (`s`) or read by a call (`c`), then
 * entered on the same request. Asked to send, it checks the abuse limits (journaled and counted when
 * hit), draws a code and hands it to the gateway inside the attempt's transaction, under the user's
 * row lock, so one user's sends queue up and the limits' counts are exact; the gateway's bound
 * (at most 10 s) is the longest the lock is held. A gateway that does not take the message ends the
 * request Denied at once and leaves nothing behind (no code, nothing counted). The code is stored
 * hashed with its request once the request is written (`sent`). A code entered on a request that sent
 * one is checked against it (single use, 5 minutes); one that does not match may still be a code of
 * the user's authenticator app or token.
 */
@Injectable()
export class PhoneCodeCheck implements FactorCheck {
  constructor(
    private readonly rows: PhoneCodesRepository,
    private readonly gateways: PhoneGateways,
    private readonly codes: CodeFactorCheck,
    private readonly journal: JournalWriter,
    private readonly metrics: AppMetrics,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Whether the request sent a code to the phone: a code entered on it is then this factor's to
   * check (an expired or spent one is a wrong code, not a reason to refuse a user whose only factor is the phone).
   */
  async sentOn(context: { accountId: FactorCheckContext['accountId']; requestId: string | null }): Promise<boolean> {
    if (!context.requestId) return false;
    return this.rows.sentFor(context.accountId, context.requestId);
  }

  check(context: FactorCheckContext): Promise<FactorCheckResult> {
    const { answer } = context;
    if (answer.kind === 'code') return this.checkCode(context, answer.code);
    // a user whose only factor is a phone gets an SMS for a call without a code
    const method = answer.kind === 'delivery' && isPhoneCodeMethod(answer.method) ? answer.method : 'sms';
    return this.send(context, method);
  }

  private async checkCode(context: FactorCheckContext, code: string): Promise<FactorCheckResult> {
    const { accountId, requestId, now } = context;
    const open = requestId ? await this.rows.openOf(accountId, requestId, now) : null;
    if (open && requestId && timingSafeEqual(open.codeHash, hashCode(requestId, code))) {
      if (!(await this.rows.use(accountId, open.id, now))) return { result: 'replayed' };
      return { result: 'granted', factor: { kind: 'Sms', id: null, name: open.method === 'sms' ? 'SMS' : 'Call' } };
    }
    return this.codes.check(context);
  }

  private async send(context: FactorCheckContext, method: PhoneCodeMethod): Promise<FactorCheckResult> {
    const { accountId, found, now, origin } = context;
    const phone = found.firstPhone;
    if (!phone) throw new Error('a code is sent only to a user with a phone');
    const userId = found.user.id;
    const limits = { ...DEFAULT_PHONE_CODE_LIMITS, allowedPrefixes: await this.rows.allowedPrefixes(accountId) };
    const history = await this.rows.historyOf(accountId, userId, now, destinationRange(phone));
    const limit = phoneCodeLimitHit(phone, limits, history, now);
    if (limit) {
      this.metrics.phoneCode(method, limit);
      await this.journal.record(accountId, {
        object: 'AccessRequest',
        action: 'PhoneCodeLimit',
        subject: found.user.identity,
        success: false,
        additionalFields: {
          [JournalField.userIdentity]: found.user.identity,
          ...(origin.address ? { [JournalField.userIp]: origin.address } : {}),
          UserId: userId,
          Method: method,
          PhoneCodeLimit: limit,
          Destination: maskPhoneNumber(phone),
          ResourceId: origin.resourceId,
          Channel: origin.channel,
        },
      });
      return { result: 'refused', refusal: { kind: 'phoneCodeLimited', method, limit } };
    }
    const code = newPhoneCode((max) => randomInt(max));
    const gateway = await this.gateways.gatewayFor(accountId, method);
    const delivery = await gateway.send({ method, phone, code, text: messageText(method, code) });
    if (!delivery.sent) {
      this.metrics.phoneCode(method, delivery.failure);
      return { result: 'refused', refusal: { kind: 'phoneCodeUndeliverable', method } };
    }
    this.metrics.phoneCode(method, 'sent');
    return {
      result: 'sent',
      method,
      record: (accessRequestId) =>
        this.rows.record(accountId, {
          accessRequestId,
          userId,
          method,
          phone,
          codeHash: hashCode(accessRequestId, code),
          // the code's five minutes start when the decision was taken, on the injected clock
          createdAt: now,
          expiresAt: phoneCodeExpiry(now),
        }),
    };
  }
}
